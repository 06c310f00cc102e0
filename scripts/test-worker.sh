#!/usr/bin/env bash
# End-to-end test of the Cloudflare Worker (cmd/worker) under `wrangler dev`,
# fully offline: builds the Worker, starts wrangler on a free loopback port
# with a throw-away local KV, checks the share API and the static app with
# curl, and always stops wrangler. Needs the built app (make build).
#
# Usage: scripts/test-worker.sh        (make test-worker)
set -euo pipefail
cd "$(dirname "$0")/.."

READY_TIMEOUT_S=90
BUILD=cmd/worker/build

[ -f web/dist/index.html ] || { echo "test-worker: web/dist/index.html missing (run make build)"; exit 1; }

echo "test-worker: building the Worker into $BUILD"
go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$BUILD"
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$BUILD/app.wasm" ./cmd/worker
echo "test-worker: app.wasm is $(( $(stat -c %s "$BUILD/app.wasm") / 1024 )) KiB"

free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
port=$(free_port)
inspector_port=$(free_port)
base="http://127.0.0.1:$port"
tmp=$(mktemp -d)
wrangler_pid=""

cleanup() {
  if [ -n "$wrangler_pid" ] && kill -0 "$wrangler_pid" 2>/dev/null; then
    # wrangler runs workerd as a child: stop the whole process group.
    kill -TERM -- "-$wrangler_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$wrangler_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$wrangler_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "test-worker: starting wrangler dev on $base"
# setsid gives wrangler its own process group, so cleanup reaches workerd too.
WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false CI=true \
  setsid node_modules/.bin/wrangler dev --config cmd/worker/wrangler.toml \
  --ip 127.0.0.1 --port "$port" --inspector-port "$inspector_port" \
  --persist-to "$tmp/state" --local --log-level warn \
  </dev/null >"$tmp/wrangler.log" 2>&1 &
wrangler_pid=$!

deadline=$(( $(date +%s) + READY_TIMEOUT_S ))
until curl -fsS -o /dev/null "$base/api/health" 2>/dev/null; do
  if ! kill -0 "$wrangler_pid" 2>/dev/null; then
    echo "test-worker: wrangler exited before becoming ready:"; cat "$tmp/wrangler.log"; exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "test-worker: wrangler not ready after ${READY_TIMEOUT_S}s:"; cat "$tmp/wrangler.log"; exit 1
  fi
  sleep 0.5
done
echo "test-worker: ready"

passed=0
failed=0
# check NAME WANT GOT: one assertion, reported on one line.
check() {
  if [ "$2" == "$3" ]; then
    passed=$((passed + 1)); echo "  ok    $1"
  else
    failed=$((failed + 1)); echo "  FAIL  $1: want [$2], got [$3]"
  fi
}
# request METHOD PATH [curl args...]: prints "STATUS CONTENT-TYPE" and leaves the body in $tmp/body.
request() {
  local method=$1 path=$2; shift 2
  curl -sS -X "$method" -o "$tmp/body" -w '%{http_code} %{content_type}' "$@" "$base$path"
}

check "GET /api/health" "200 application/json" "$(request GET /api/health)"
check "health body" '{"ok":true}' "$(cat "$tmp/body")"

scenario=$'name: rolling-update\nreplicas: 3\n'
id=$(printf '%s' "$scenario" | sha256sum | cut -c1-32)
printf '%s' "$scenario" >"$tmp/scenario.yaml"
check "POST /api/scenarios" "201 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/scenario.yaml" -H 'Content-Type: text/yaml')"
check "POST returns the content hash" "{\"id\":\"$id\"}" "$(cat "$tmp/body")"
check "GET /api/scenarios/{id}" "200 text/yaml; charset=utf-8" "$(request GET "/api/scenarios/$id")"
check "round-trip is byte-identical" "$(sha256sum <"$tmp/scenario.yaml")" "$(sha256sum <"$tmp/body")"
check "absent id is 404" "404 application/json" "$(request GET "/api/scenarios/$(printf '0%.0s' $(seq 32))")"

head -c $((256 * 1024 + 1)) /dev/zero | tr '\0' 'a' >"$tmp/big.yaml"
check "body over 256 KiB is 413" "413 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/big.yaml")"
head -c $((256 * 1024)) /dev/zero | tr '\0' 'a' >"$tmp/max.yaml"
check "body of exactly 256 KiB is stored" "201 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/max.yaml")"

check "GET / serves the app" "200 text/html" "$(request GET / | cut -d';' -f1)"
check "index.html is the Rollout Lab shell" "1" "$(grep -c '<title>Rollout Lab</title>' "$tmp/body")"
check "GET /rolloutlab.wasm is application/wasm" "200 application/wasm" "$(request GET /rolloutlab.wasm)"

echo "test-worker: $passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then
  echo "test-worker: wrangler log:"; cat "$tmp/wrangler.log"
  exit 1
fi
