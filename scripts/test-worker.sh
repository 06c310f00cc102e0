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

# header NAME METHOD PATH [curl args...]: prints the value of one response header.
header() {
  local name=$1 method=$2 path=$3; shift 3
  curl -sS -X "$method" -o /dev/null -D - "$@" "$base$path" | tr -d '\r' | awk -v IGNORECASE=1 -v n="$name" 'tolower($0) ~ "^" tolower(n) ": " { sub(/^[^:]*: /, ""); print; exit }'
}

check "GET /api/health" "200 application/json" "$(request GET /api/health)"
check "health body" '{"ok":true}' "$(cat "$tmp/body")"

scenario=$'apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: shared\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n'
id=$(printf '%s' "$scenario" | sha256sum | cut -c1-32)
printf '%s' "$scenario" >"$tmp/scenario.yaml"
check "POST /api/scenarios" "201 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/scenario.yaml" -H 'Content-Type: text/yaml')"
check "POST returns the content hash" "{\"id\":\"$id\"}" "$(cat "$tmp/body")"
check "GET /api/scenarios/{id} is plain text" "200 text/plain; charset=utf-8" "$(request GET "/api/scenarios/$id")"
check "round-trip is byte-identical" "$(sha256sum <"$tmp/scenario.yaml")" "$(sha256sum <"$tmp/body")"
check "stored scenario: nosniff" "nosniff" "$(header X-Content-Type-Options GET "/api/scenarios/$id")"
check "absent id is 404" "404 application/json" "$(request GET "/api/scenarios/$(printf '0%.0s' $(seq 32))")"
check "short link redirects to the app" "302 /?s=$id" "$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "$base/s/$id" | sed "s|$base||")"

# Only scenarios are stored: markup and other text get 4xx and store nothing.
printf '<script>alert(1)</script>' >"$tmp/script.txt"
check "script body is refused (422)" "422 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/script.txt")"
check "refused script body was not stored" "404 application/json" "$(request GET "/api/scenarios/$(sha256sum <"$tmp/script.txt" | cut -c1-32)")"
printf 'name: rolling-update\nreplicas: 3\n' >"$tmp/notscenario.yaml"
check "YAML that is not a scenario is refused (422)" "422 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/notscenario.yaml")"
check "refused YAML was not stored" "404 application/json" "$(request GET "/api/scenarios/$(sha256sum <"$tmp/notscenario.yaml" | cut -c1-32)")"

# Size limit: exactly 256 KiB is stored, one byte more is 413.
pad() { { printf '%s#' "$scenario"; head -c $(( $1 - ${#scenario} - 1 )) /dev/zero | tr '\0' 'x'; } >"$2"; }
pad $((256 * 1024)) "$tmp/max.yaml"
check "scenario of exactly 256 KiB is stored" "201 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/max.yaml")"
pad $((256 * 1024 + 1)) "$tmp/over.yaml"
check "scenario over 256 KiB is 413" "413 application/json" "$(request POST /api/scenarios --data-binary @"$tmp/over.yaml")"

# Oversized bodies must not stall or crash the Worker: 1 MB, then 30 MB,
# then a GET, each answered within the time limit.
head -c $((1000 * 1000)) /dev/zero | tr '\0' 'a' >"$tmp/1mb"
head -c $((30 * 1000 * 1000)) /dev/zero | tr '\0' 'a' >"$tmp/30mb"
check "1 MB post is answered 413" "413 application/json" "$(request POST /api/scenarios --max-time 60 --data-binary @"$tmp/1mb")"
check "30 MB post is answered 413" "413 application/json" "$(request POST /api/scenarios --max-time 60 --data-binary @"$tmp/30mb")"
check "GET after the oversized posts answers" "200 application/json" "$(request GET /api/health --max-time 20)"
check "GET a stored scenario after them answers" "200 text/plain; charset=utf-8" "$(request GET "/api/scenarios/$id" --max-time 20)"

# The static app.
check "GET / serves the app" "200 text/html" "$(request GET / | cut -d';' -f1)"
check "index.html is the Rollout Lab shell" "1" "$(grep -c '<title>Rollout Lab</title>' "$tmp/body")"
check "index.html is revalidated" "no-cache" "$(header Cache-Control GET /)"
check "GET /embed serves the player page" "200 text/html" "$(request GET /embed | cut -d';' -f1)"
check "GET /embed.js" "200" "$(request GET /embed.js | cut -d' ' -f1)"
check "GET /docs/embed.html" "200 text/html" "$(request GET /docs/embed.html -L | cut -d';' -f1)"
wasm=$(cd web/dist && ls assets/rolloutlab-*.wasm | head -1)
check "the wasm is content-hashed" "1" "$([ -n "$wasm" ] && echo 1 || echo 0)"
check "GET /$wasm is application/wasm" "200 application/wasm" "$(request GET "/$wasm")"
check "hashed wasm is immutable" "public, max-age=31536000, immutable" "$(header Cache-Control GET "/$wasm")"
js=$(cd web/dist && ls assets/main-*.js | head -1)
check "hashed script is immutable" "public, max-age=31536000, immutable" "$(header Cache-Control GET "/$js")"

check "hashed assets may be read cross-origin (embed.js imports them)" "*" "$(header Access-Control-Allow-Origin GET "/$js")"
check "/embed.js may be loaded cross-origin" "*" "$(header Access-Control-Allow-Origin GET /embed.js)"

# Security headers on every kind of response.
csp_app=$(sed -n 's/^  Content-Security-Policy: //p' web/public/_headers)
for p in / /embed "/$js" "/$wasm"; do
  check "CSP on $p" "$csp_app" "$(header Content-Security-Policy GET "$p")"
  check "nosniff on $p" "nosniff" "$(header X-Content-Type-Options GET "$p")"
  check "Referrer-Policy on $p" "strict-origin-when-cross-origin" "$(header Referrer-Policy GET "$p")"
done
check "app CSP allows wasm and embedding" "2" "$(grep -o "'wasm-unsafe-eval'\|frame-ancestors \*" <<<"$csp_app" | wc -l)"
for p in /api/health "/api/scenarios/$id" /api/nope "/s/$id"; do
  check "CSP on $p" "1" "$(header Content-Security-Policy GET "$p" | grep -c "default-src 'none'")"
  check "nosniff on $p" "nosniff" "$(header X-Content-Type-Options GET "$p")"
  check "Referrer-Policy on $p" "strict-origin-when-cross-origin" "$(header Referrer-Policy GET "$p")"
done
check "headers on a refused POST" "nosniff" "$(header X-Content-Type-Options POST /api/scenarios --data-binary @"$tmp/script.txt")"

# A bounded rate of writes per client: within 30 more posts one is refused 429.
got429=no
for i in $(seq 30); do
  printf '%s# %s\n' "$scenario" "$i" >"$tmp/n.yaml"
  if [ "$(request POST /api/scenarios --data-binary @"$tmp/n.yaml" | cut -d' ' -f1)" == 429 ]; then got429=yes; break; fi
done
check "writes per client are rate limited (429)" "yes" "$got429"

echo "test-worker: $passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then
  echo "test-worker: wrangler log:"; cat "$tmp/wrangler.log"
  exit 1
fi
