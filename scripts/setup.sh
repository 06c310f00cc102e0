#!/usr/bin/env bash
# Installs what building and testing Rollout Lab needs on a fresh Debian
# machine, and nothing when it is all already there (a second run takes well
# under a second). Called by `make deps`; safe to run by hand.
#
#   system packages  chromium, firefox-esr, webkit2gtk-driver + xvfb (browser
#                    tests), brotli (size checks), patch (the wasm's
#                    apimachinery, scripts/wasm-workspace.sh)
#   node_modules     `npm ci` from package-lock.json, skipped while the
#                    installed tree matches the lock file
#
# Needs root (or sudo) only when a system package is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*"; }

# --- system packages -------------------------------------------------------
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v brotli >/dev/null 2>&1 || missing+=(brotli)
command -v patch >/dev/null 2>&1 || missing+=(patch)
command -v firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
command -v WebKitWebDriver >/dev/null 2>&1 || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { log "need root to install: ${missing[*]}"; exit 1; }
    sudo="sudo"
  fi
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q "${missing[@]}" </dev/null
fi

# --- toolchains --------------------------------------------------------------
command -v go >/dev/null 2>&1 || { log "go is not on PATH (need Go 1.26)"; exit 1; }
command -v node >/dev/null 2>&1 || { log "node is not on PATH (need Node 20.19+)"; exit 1; }

# --- node_modules ------------------------------------------------------------
# npm writes node_modules/.package-lock.json on every install; when it is newer
# than package-lock.json the tree is current and `npm ci` would only redo it.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
else
  log "node_modules up to date"
fi
