#!/usr/bin/env bash
# Prints the brotli (-q 11, window 24 as served) size of the app's wasm and
# its distance to the wasm budget. Builds it with `make wasm` unless a path is
# given.
#
# Usage: scripts/wasm-size.sh [--enforce] [path/to/rolloutlab.wasm]
#   --enforce           exit 1 when over the target (otherwise report only)
#   WASM_TARGET_BYTES   overrides the target (default 2740000)
# Exit status: 0, or 1 when --enforce is given and the wasm is over the
# target, or 2 on a build or tool error.
set -euo pipefail

target=${WASM_TARGET_BYTES:-2740000}
cd "$(dirname "$0")/.."

if ! command -v brotli >/dev/null; then
  echo "wasm-size: brotli not found (apt-get install brotli)" >&2
  exit 2
fi

enforce=0
if [[ ${1:-} == --enforce ]]; then
  enforce=1
  shift
fi
wasm=${1:-}
if [[ -z $wasm ]]; then
  make -s wasm >/dev/null || exit 2
  wasm=web/public/rolloutlab.wasm
fi

raw=$(wc -c <"$wasm")
br=$(brotli -q 11 -w 24 -c "$wasm" | wc -c)
delta=$((br - target))
if ((delta > 0)); then verdict="over by $delta B"; else verdict="under by $((-delta)) B"; fi
printf 'wasm-size: %s raw %d B, brotli -q 11 %d B; target %d B: %s\n' \
  "$wasm" "$raw" "$br" "$target" "$verdict"
if ((enforce && delta > 0)); then exit 1; fi
