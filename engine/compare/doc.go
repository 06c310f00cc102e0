// Package compare runs two futures of one cluster side by side and says how
// they differ: "what if at step N I had done X instead?", or "what if the
// Deployment had maxSurge 100%?".
//
// A comparison takes two sessions standing at the same step (the fork: a
// session replayed to step N twice, or two files at step 0), applies each
// side's actions, plays both out with session.RunToEnd and measures them
// from the fork on. For each run it reports a Summary (time to complete,
// peak pods and surge, minimum available, pods created and deleted, syncs
// per controller, the final state); for the pair, the first step at which
// their traces differ (Divergence) and the Events only one of them
// recorded (EventDiff).
//
// Everything is computed from the simulation's API server state and trace,
// so a comparison is as deterministic as the runs themselves.
//
// Files:
//
//	compare.go     Side, Result, Compare and the two ways to build sides
//	summary.go     Summary and the step observer that measures a run
//	divergence.go  the first step at which two traces differ, in words
//	events.go      Events as kubectl lines and their diff
//	overrides.go   --set path=value overrides of a scenario's Deployment
package compare
