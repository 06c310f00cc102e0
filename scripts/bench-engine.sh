#!/usr/bin/env bash
# Prints the engine's scale numbers (issue #10): the 1,000- and
# 10,000-replica rolling-update times and their ratio, allocation per step,
# the same times under js/wasm when their output is given, and the peak RSS
# of `rolloutlab run` on a 10,000-replica create-and-roll-out
# (scripts/bench/rollout-10k.yaml, not part of the scenario library).
#
# Usage: scripts/bench-engine.sh [--native FILE] [--wasm FILE] [--cli BIN] [--rounds N]
#   --native FILE  `go test -bench` output holding BenchmarkRollingUpdate1000
#                  and ...10000 (engine/sim); without it they are run here,
#                  in one run (-benchtime 3x)
#   --wasm FILE    the same benchmarks' output under GOOS=js GOARCH=wasm,
#                  compiled with the browser's flags (`make bench` passes the
#                  Makefile's WASM_GCFLAGS: plain `go test` inlines everywhere,
#                  the shipped wasm does not); adds the wasm times and the
#                  wasm/native ratio (issue #10's goal: at most 5x): the
#                  median of the file's lines for each (`make bench` runs
#                  them -count 3: one line of 3 iterations moved between
#                  4x and 6x native on this machine), with each line's time
#   --cli BIN      the CLI to measure (default bin/rolloutlab, built if
#                  missing)
#   --rounds N     then runs BenchmarkRollingUpdateRatio (engine/sim) with N
#                  pairs (default 7; 0 for none): the 1k and 10k rollouts
#                  in turn in one process, in warm memory (a same-size
#                  rollout ran before) and again in cold memory (free memory
#                  returned to the OS: a new process), see memoryState in
#                  engine/sim/bench_test.go, and prints the ratio of their
#                  warm median times with the range of one pair's ratio (on
#                  a shared machine the ratio of two benchmark lines moved
#                  between 8.9x and 13.4x within minutes), the cold medians,
#                  and the median page faults of each (Linux)
# The rollout times of BenchmarkRollingUpdate1000/10000 are in warm memory;
# BenchmarkFirstTouch, when the native output holds it, gives what one page
# fault costs on this machine: times the extra page faults of a cold
# rollout, it accounts for most of the difference between cold and warm.
# Every result line starts with "bench-engine:". Exit status 0, or 2 when a
# benchmark or the CLI run fails.
set -euo pipefail
cd "$(dirname "$0")/.."

native= wasm= cli=bin/rolloutlab rounds=7
while [[ $# -gt 0 ]]; do
  case $1 in
    --native) native=$2; shift 2 ;;
    --wasm) wasm=$2; shift 2 ;;
    --cli) cli=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "bench-engine: unknown argument $1" >&2; exit 2 ;;
  esac
done
if ! [[ $rounds =~ ^[0-9]+$ ]]; then
  echo "bench-engine: --rounds wants a number, not $rounds" >&2
  exit 2
fi
# Temporary files, removed on exit.
tmps=()
trap 'rm -f "${tmps[@]}"' EXIT

if [[ -z $native ]]; then
  native=$(mktemp)
  tmps+=("$native")
  go test -run '^$' -bench 'RollingUpdate(1000|10000)$|FirstTouch$' -benchtime 3x -benchmem ./engine/sim >"$native" || {
    cat "$native" >&2
    exit 2
  }
fi

# fields FILE BENCH UNIT prints the value before UNIT on every line of BENCH,
# one per line; field, on its first.
fields() {
  awk -v b="^$2(-[0-9]+)?\$" -v u="$3" '$1 ~ b { for (i = 2; i < NF; i++) if ($(i+1) == u) { print $i; break } }' "$1"
}
field() {
  fields "$@" | awk 'NR == 1'
}

# median reads numbers, one per line, and prints their median (the lower
# middle one of an even count), or nothing for none.
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

ns1=$(field "$native" BenchmarkRollingUpdate1000 ns/op)
ns10=$(field "$native" BenchmarkRollingUpdate10000 ns/op)
if [[ -z $ns1 || -z $ns10 ]]; then
  echo "bench-engine: no RollingUpdate1000/10000 results in $native" >&2
  exit 2
fi
awk -v a="$ns1" -v b="$ns10" 'BEGIN { printf "bench-engine: rolling update native (warm memory: a same-size rollout ran before): 1k %.1f ms, 10k %.1f ms, 10k/1k %.1fx\n", a/1e6, b/1e6, b/a }'
touch_us=$(field "$native" BenchmarkFirstTouch us/page)
if [[ -n $touch_us ]]; then
  awk -v u="$touch_us" 'BEGIN { printf "bench-engine: a page fault (first touch of a 4 KiB page) costs %.1f us on this machine\n", u }'
fi
for n in 1000 10000; do
  bytes=$(field "$native" BenchmarkRollingUpdate$n B/op)
  steps=$(field "$native" BenchmarkRollingUpdate$n steps/op)
  if [[ -n $bytes && -n $steps ]]; then
    awk -v n="$n" -v b="$bytes" -v s="$steps" 'BEGIN { printf "bench-engine: allocation per step (%d replicas): %.2f KB (%d steps)\n", n, b/s/1024, s }'
  fi
done

if ((rounds > 0)); then
  out=$(mktemp)
  tmps+=("$out")
  if ! go test -run '^$' -bench 'RollingUpdateRatio$' -benchtime "${rounds}x" ./engine/sim >"$out"; then
    cat "$out" >&2
    exit 2
  fi
  ratio=$(field "$out" BenchmarkRollingUpdateRatio ratio)
  m1=$(field "$out" BenchmarkRollingUpdateRatio 1k-ms)
  m10=$(field "$out" BenchmarkRollingUpdateRatio 10k-ms)
  lo=$(field "$out" BenchmarkRollingUpdateRatio pair-min)
  hi=$(field "$out" BenchmarkRollingUpdateRatio pair-max)
  if [[ -z $ratio ]]; then
    echo "bench-engine: no RollingUpdateRatio result" >&2
    cat "$out" >&2
    exit 2
  fi
  awk -v r="$ratio" -v a="$m1" -v b="$m10" -v lo="$lo" -v hi="$hi" -v n="$rounds" 'BEGIN {
    printf "bench-engine: 10k/1k ratio, %d pairs run in turn in one process, warm memory: %.2fx of the medians (1k %.1f ms, 10k %.1f ms); one pair %.1f-%.1fx\n", n, r, a, b, lo, hi }'
  c1=$(field "$out" BenchmarkRollingUpdateRatio 1k-cold-ms)
  c10=$(field "$out" BenchmarkRollingUpdateRatio 10k-cold-ms)
  if [[ -n $c1 && -n $c10 ]]; then
    awk -v a="$c1" -v b="$c10" 'BEGIN { printf "bench-engine: the same in cold memory (free memory returned to the OS first, as in a new process): 1k %.1f ms, 10k %.1f ms (%.2fx)\n", a, b, b/a }'
  fi
  f1=$(field "$out" BenchmarkRollingUpdateRatio 1k-faults)
  f10=$(field "$out" BenchmarkRollingUpdateRatio 10k-faults)
  g1=$(field "$out" BenchmarkRollingUpdateRatio 1k-cold-faults)
  g10=$(field "$out" BenchmarkRollingUpdateRatio 10k-cold-faults)
  if [[ -n $f1 && -n $f10 && -n $g1 && -n $g10 ]]; then
    awk -v a="$f1" -v b="$f10" -v c="$g1" -v d="$g10" 'BEGIN { printf "bench-engine: page faults of one rollout (median): warm 1k %d, 10k %d; cold 1k %d, 10k %d\n", a, b, c, d }'
  fi
fi

if [[ -n $wasm ]]; then
  w1=$(fields "$wasm" BenchmarkRollingUpdate1000 ns/op | median)
  w10=$(fields "$wasm" BenchmarkRollingUpdate10000 ns/op | median)
  if [[ -n $w1 && -n $w10 ]]; then
    each1=$(fields "$wasm" BenchmarkRollingUpdate1000 ns/op | awk '{ printf "%s%.0f", (NR > 1 ? ", " : ""), $1/1e6 }')
    each10=$(fields "$wasm" BenchmarkRollingUpdate10000 ns/op | awk '{ printf "%s%.0f", (NR > 1 ? ", " : ""), $1/1e6 }')
    awk -v a="$w1" -v b="$w10" -v n1="$ns1" -v n10="$ns10" -v e1="$each1" -v e10="$each10" 'BEGIN { printf "bench-engine: rolling update wasm (browser build, median of the runs): 1k %.1f ms (%.1fx native), 10k %.1f ms (%.1fx native); runs 1k %s ms, 10k %s ms\n", a/1e6, a/n1, b/1e6, b/n10, e1, e10 }'
  else
    echo "bench-engine: rolling update wasm: no results in $wasm"
  fi
fi

[[ -x $cli ]] || go build -trimpath -o "$cli" ./cmd/rolloutlab
scenario=scripts/bench/rollout-10k.yaml
if [[ -x /usr/bin/time ]]; then
  log=$(mktemp)
  if ! /usr/bin/time -v "$cli" run --tables none "$scenario" >/dev/null 2>"$log"; then
    cat "$log" >&2
    rm -f "$log"
    exit 2
  fi
  kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$log")
  rm -f "$log"
  awk -v k="$kb" -v s="$secs" -v f="$scenario" 'BEGIN { printf "bench-engine: peak RSS of rolloutlab run %s: %.0f MB (wall %s)\n", f, k/1024, s }'
else
  echo "bench-engine: peak RSS: /usr/bin/time not installed (apt-get install time)"
fi
