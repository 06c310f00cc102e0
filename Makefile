# Rollout Lab. Quick start: `make run` (install, build, serve) and `make test`
# (every test). `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
NODE_BIN  := node_modules/.bin
ADDR      ?= 127.0.0.1:8080

# Go packages vetted and tested natively.
GO_PKGS ?= ./...
# Go packages tested again under GOOS=js GOARCH=wasm (the engine must behave
# identically in the browser) and the subset benchmarked there.
WASM_TEST_PKGS  ?= ./engine/... ./wasm/...
BENCH_PKGS      ?= ./engine/...
WASM_BENCH_PKGS ?= ./engine/deployutil ./engine/podutil ./engine/workqueue ./engine/apiserver
# Whole-simulation benchmarks: one iteration each under js/wasm (seconds each).
WASM_SIM_BENCH_PKGS ?= ./engine/sim ./engine/session ./engine/controller/replicaset
# `make test` fails when the first page load is over the 2.8 MB brotli budget
# (scripts/size-budget.mjs). Set to 0 to only report it.
ENFORCE_SIZE_BUDGET ?= 1
SIZE_FLAGS ?=
# Targets that need the built app depend on build unless SKIP_BUILD is set.
BUILD_DEP := $(if $(SKIP_BUILD),,build)

# step prints a banner so every stage of a long run is easy to find.
step = @printf '\n==> %s\n' "$(1)"

.PHONY: help deps build cli wasm web run test test-go test-wasm test-web test-e2e \
        test-worker bench fmt vet lint clean

help: ## list targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

deps: ## install system packages and node_modules (idempotent)
	$(call step,deps: scripts/setup.sh)
	@scripts/setup.sh

build: deps cli wasm web ## build bin/rolloutlab, the wasm and web/dist

cli: ## build the CLI to bin/rolloutlab
	$(call step,build: bin/rolloutlab)
	$(GO) build -trimpath -o bin/rolloutlab ./cmd/rolloutlab

# The browser's wasm is built with inlining in the runtime, sync, the internal
# packages the runtime, maps and reflection run on, reflect, time and the
# engine's own packages (github.com/rolloutlab/rolloutlab/...), and without it
# elsewhere: that trades first-load bytes for engine speed in the browser.
# Measured 2026-11-26 with the apimachinery patch (scripts/wasm-workspace.sh):
# brotli -q 11 of the wasm, and js/wasm BenchmarkRollingUpdate1000 (engine/sim,
# -benchtime 3x; the test binaries run in turn, three times each, load ~1.5):
#   inlining in the runtime and internal packages only  2,486.8 kB  206-220 ms
#   ... and in the engine's packages                     2,571.4 kB  189-202 ms
#   ... and internal/byteorder, reflect                  2,614.0 kB  166-183 ms
#   ... and time (this build)                            2,620.4 kB  172-185 ms
#   inlining everywhere                                  2,754.0 kB  161-231 ms
# (internal/byteorder alone: +1.5 kB, it holds memhash's reads; strings,
# strconv, sort, slices, maps, bytes, unicode/utf8, math/bits and
# encoding/binary on top: 2,641.4 kB, no faster within the noise of a loaded
# machine). A js/wasm CPU profile (node --cpu-prof) of the engine's packages
# build had reflect at 9.9% of the samples, mostly small methods (Value.Field,
# typ, flag.kind) called, not inlined, from the API server's pod compare.
# The other internal/... packages (strconv's core, poll, bisect, godebug,
# reflectlite, fmtsort, ...) are not on the engine's path: inlining them
# changed no instruction count of BenchmarkRollingUpdate1000 (cachegrind,
# native, GOGC=off: 0.738 G per run either way) and cost 12.6 kB brotli.
# Brotli of this ~17.5 MB file moves by a few kB with any layout change (a
# rebuild that differs only in its build ID moved it 2 kB), so keep a margin.
WASM_INLINED_INTERNAL := internal/runtime/... internal/abi internal/bytealg internal/stringslite internal/sync internal/goarch internal/chacha8rand internal/byteorder
WASM_INLINED := reflect time github.com/rolloutlab/rolloutlab/...
WASM_GCFLAGS := -gcflags='all=-l' -gcflags='runtime=' -gcflags='sync/...=' $(foreach p,$(WASM_INLINED_INTERNAL) $(WASM_INLINED),-gcflags='$(p)=')

# The wasm is built in a workspace whose apimachinery computes two util/net
# variables when asked instead of in its init, so that net/http's client and
# TLS are not linked (300 kB brotli): see scripts/wasm-workspace.sh.
# net/http is still imported, so its package init and what that reaches stay
# linked; nethttpomithttp2 leaves its bundled HTTP/2 out of them (17.6 kB of
# raw wasm with the patch: 17,570,958 -> 17,553,382 bytes).
WASM_TAGS := nethttpomithttp2

wasm: ## build web/public/rolloutlab.wasm and copy wasm_exec.js
	$(call step,build: web/public/rolloutlab.wasm)
	work=$$(scripts/wasm-workspace.sh); GOWORK="$$work" GOOS=js GOARCH=wasm $(GO) build -trimpath -tags $(WASM_TAGS) -ldflags='-s -w' $(WASM_GCFLAGS) -o web/public/rolloutlab.wasm ./wasm
	cp "$(GOROOT)/lib/wasm/wasm_exec.js" web/public/wasm_exec.js

web: ## vite build to web/dist, then precompress and check the size budget
	$(call step,build: web/dist (vite))
	$(NODE_BIN)/vite build --config web/vite.config.ts --logLevel warn
	ROLLOUTLAB_BUILD=embed $(NODE_BIN)/vite build --config web/vite.config.ts --logLevel warn
	$(call step,build: precompress web/dist and size budget)
	node scripts/size-budget.mjs $(SIZE_FLAGS)

run: build ## build everything and serve the app (ADDR=127.0.0.1:8080)
	$(call step,run: bin/rolloutlab serve --addr $(ADDR))
	bin/rolloutlab serve --addr $(ADDR) --dir web/dist

# Stages of `make test`, in order. build runs once, before the stages that
# need it (they are told so through SKIP_BUILD).
TEST_STAGES := deps vet test-go test-wasm test-web build test-e2e test-worker

test: ## every test, in order, stopping at the first failure
	@start=$$(date +%s); n=0; total=$(words $(TEST_STAGES)); \
	 for stage in $(TEST_STAGES); do \
	   n=$$((n + 1)); t0=$$(date +%s); \
	   printf '\n######## make test [%d/%d]: %s\n' $$n $$total $$stage; \
	   $(MAKE) $$stage SKIP_BUILD=1 SIZE_FLAGS=$(if $(filter 1,$(ENFORCE_SIZE_BUDGET)),--enforce,); \
	   printf '######## %s passed in %ss\n' $$stage $$(( $$(date +%s) - t0 )); \
	 done; \
	 printf '\n######## make test: all %d stages passed in %ss\n' $$total $$(( $$(date +%s) - start ))

vet: ## go vet, natively and for js/wasm
	$(call step,vet: go vet (native and js/wasm))
	$(GO) vet $(GO_PKGS)
	GOOS=js GOARCH=wasm $(GO) vet $(WASM_TEST_PKGS) ./cmd/worker/...

test-go: ## native go test (GO_PKGS=./...)
	$(call step,test-go: go test $(GO_PKGS) (native))
	$(GO) test $(GO_PKGS)

test-wasm: ## go test under GOOS=js GOARCH=wasm (Node)
	$(call step,test-wasm: go test $(WASM_TEST_PKGS) (GOOS=js GOARCH=wasm))
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" $(WASM_TEST_PKGS)

test-web: deps ## tsc --noEmit (web/src and the e2e specs), then Vitest unit tests of web/src
	$(call step,test-web: tsc --noEmit (vite build does not type-check))
	$(NODE_BIN)/tsc --noEmit -p tsconfig.json
	$(call step,test-web: vitest (web unit tests))
	$(NODE_BIN)/vitest run --config web/vite.config.ts

test-e2e: $(BUILD_DEP) ## Playwright end-to-end tests in Debian's Chromium, then Firefox and WebKit smoke tests
	$(call step,test-e2e: playwright (browser end-to-end))
	@mkdir -p test-artifacts
	$(NODE_BIN)/playwright test --config web/e2e/playwright.config.ts
	$(call step,test-e2e: firefox smoke (WebDriver BiDi))
	node web/e2e/firefox-smoke.mjs
	$(call step,test-e2e: webkit smoke (WebKitGTK, W3C WebDriver))
	node web/e2e/webkit-smoke.mjs

test-worker: $(BUILD_DEP) ## the Cloudflare Worker under wrangler dev
	$(call step,test-worker: worker under wrangler dev)
	scripts/test-worker.sh

bench: build ## benchmarks: Go native and js/wasm, size budget, browser timing
	@mkdir -p test-artifacts/bench
	$(call step,bench: go test -bench (native))
	$(GO) test -run '^$$' -bench . -skip 'RollingUpdateRatio' -benchmem $(BENCH_PKGS) | tee test-artifacts/bench/go-native.txt
# The bridge's settle of the reference rollouts: what the page's Worker runs (bench-browser's "rollout in the page's Worker").
	$(GO) test -run '^$$' -bench 'BridgeSettle' -benchtime 3x -benchmem ./wasm | tee -a test-artifacts/bench/go-native.txt
	$(call step,bench: go test -bench (js/wasm compiled with WASM_GCFLAGS as the browser's wasm is; apimachinery unpatched: no engine code differs; $(WASM_BENCH_PKGS)))
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" $(WASM_GCFLAGS) -run '^$$' -bench . -benchmem $(WASM_BENCH_PKGS) | tee test-artifacts/bench/go-wasm.txt
# The rewind benchmarks (Seek, StepBack, FirstStepBack) are skipped here: they run on their own below, 30 iterations each (BenchmarkSeekWorst's slowest-gap-ms needs 3 seeks to each of its 5 gaps).
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" $(WASM_GCFLAGS) -run '^$$' -bench . -skip 'Seek|StepBack|RollingUpdateRatio|RollingUpdate(1000|10000)$$' -benchmem -benchtime 3x $(WASM_SIM_BENCH_PKGS) | tee -a test-artifacts/bench/go-wasm.txt
# The reference rollouts three times (-count 3): scripts/bench-engine.sh reports their median and each.
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" $(WASM_GCFLAGS) -run '^$$' -bench 'RollingUpdate(1000|10000)$$' -benchmem -benchtime 3x -count 3 ./engine/sim | tee -a test-artifacts/bench/go-wasm.txt
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" $(WASM_GCFLAGS) -run '^$$' -bench 'Seek|StepBack' -benchmem -benchtime 30x ./engine/session | tee test-artifacts/bench/go-wasm-seek.txt
	$(call step,bench: engine scale (rolling-update ratio, allocation per step, CLI peak RSS))
	scripts/bench-engine.sh --native test-artifacts/bench/go-native.txt --wasm test-artifacts/bench/go-wasm.txt | tee test-artifacts/bench/engine.txt
	$(call step,bench: wasm size)
	scripts/wasm-size.sh web/public/rolloutlab.wasm | tee test-artifacts/bench/wasm-size.txt
	$(call step,bench: size budget)
	node scripts/size-budget.mjs --json test-artifacts/bench/size.json | tee test-artifacts/bench/size.txt
	$(call step,bench: browser timing)
	node scripts/bench-browser.mjs --json test-artifacts/bench/browser.json | tee test-artifacts/bench/browser.txt
	$(call step,bench: summary (details in test-artifacts/bench/))
	@printf '  go native: %s benchmarks\n' $$(grep -c '^Benchmark' test-artifacts/bench/go-native.txt || true)
	@printf '  go wasm:   %s benchmarks\n' $$(grep -c '^Benchmark' test-artifacts/bench/go-wasm.txt || true)
	@grep -h '^bench-engine:' test-artifacts/bench/engine.txt | sed 's/^/  /'
	@grep -h '^size-budget: first load' test-artifacts/bench/size.txt | sed 's/^/  /'
	@grep -hE '^bench-browser: (navigation|repeat|step|main thread|seek|rollout)' test-artifacts/bench/browser.txt | sed 's/^/  /'
	@grep -h '^BenchmarkBridgeSettle/' test-artifacts/bench/go-native.txt | awk '{ printf "  bridge settle, native (the Worker'"'"'s call, engine + session + JSON): %s %.1f ms\n", $$1, $$3/1e6 }'
	@grep -h '^Benchmark\(Seek\|SeekWorst\|SeekWorstRefined\|StepBack\|FirstStepBack\|FirstStepBackSpaced\)/' test-artifacts/bench/go-native.txt | awk -v where=native -f scripts/rewind-summary.awk
	@grep -h '^Benchmark\(Seek\|SeekWorst\|SeekWorstRefined\|StepBack\|FirstStepBack\|FirstStepBackSpaced\)/' test-artifacts/bench/go-wasm-seek.txt | awk -v where=wasm -f scripts/rewind-summary.awk

fmt: ## gofmt -w all Go sources
	gofmt -w $$(git ls-files --cached --others --exclude-standard '*.go')

lint: deps ## gofmt check, go vet, tsc --noEmit
	$(call step,lint: gofmt)
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go')); \
	 if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	@$(MAKE) vet
	$(call step,lint: tsc --noEmit)
	$(NODE_BIN)/tsc --noEmit -p tsconfig.json

clean: ## remove build outputs
	rm -rf bin build web/dist web/public/rolloutlab.wasm web/public/wasm_exec.js cmd/worker/build test-artifacts
