# Prints one line per rewind benchmark of `go test -bench` output (make
# bench): the mean time per op, the checkpoints' memory and, for
# BenchmarkSeekWorst, the slowest seek and the median of three more seeks
# to its step (the same replay timed again), the largest gap it replays and the
# slowest of the largest gaps by the median of its seeks, and the most
# page faults one seek took; and the untimed seeks that grew the heap
# first (growHeap in engine/session/bench_test.go).
# Usage: awk -v where=native|wasm -f scripts/rewind-summary.awk FILE
{
  mb = ""; worst = ""; again = ""; gs = ""; gr = ""; slow = ""; faults = ""; gseeks = ""; gworst = ""; gfaults = ""
  for (i = 2; i < NF; i++) {
    if ($(i+1) == "ckpt-MB") mb = $i
    if ($(i+1) == "worst-ms") worst = $i
    if ($(i+1) == "worst-again-ms") again = $i
    if ($(i+1) == "gap-steps") gs = $i
    if ($(i+1) == "gap-rec") gr = $i
    if ($(i+1) == "slowest-gap-ms") slow = $i
    if ($(i+1) == "max-faults") faults = $i
    if ($(i+1) == "growth-seeks") gseeks = $i
    if ($(i+1) == "growth-worst-ms") gworst = $i
    if ($(i+1) == "growth-max-faults") gfaults = $i
  }
  line = sprintf("  rewind %-6s %-34s %9.2f ms  checkpoints %s MB", where, $1, $3/1e6, mb)
  if (worst != "") line = line sprintf("  worst %.2f ms%s (largest gap %d steps, %d records)", worst, again != "" ? sprintf(", its step again %.2f ms", again) : "", gs, gr)
  if (slow != "") line = line sprintf("  slowest gap (median) %.2f ms", slow)
  if (faults != "") line = line sprintf("  most page faults in a seek %d", faults)
  if (gseeks != "") line = line sprintf("  (after %d untimed seeks that grew the heap, the slowest %.2f ms%s)", gseeks, gworst, gfaults != "" ? sprintf(" with %d page faults", gfaults) : "")
  print line
}
