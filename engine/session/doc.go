// Package session is what the CLI, the wasm bridge and the tests drive: one
// loaded scenario, the simulation built from it, and the user's actions on
// it, with rewind.
//
// A Session parses a scenario file, builds a sim.Sim from it (objects applied
// at time zero, or, for pasted cluster output, restored as they were with
// owners first and owner references pointed at the owners' simulated UIDs;
// the timeline armed), and steps it at three granularities:
// one event, one controller sync, or settle. Every step's StepInfo and a chart
// sample are kept, so the UI can list and plot the run.
//
// Rewind is exact because the simulation is deterministic: Seek to an earlier
// step restores the last checkpoint at or before it (a saved copy of the
// whole simulation, see sim.Checkpoint and checkpoints.go) and replays the
// steps from there, re-applying the user's actions at the steps they were
// made. Checkpoints are spaced so that a replay is at most the gap between
// two of them, within a memory budget and at most maxCheckpoints kept. A
// user action made after a rewind discards the old future (the actions
// recorded after that point), as an editor's undo history does.
//
// An object the API server refuses at set-up is a *SetupError whose problems
// (one per cause the server gave) sit at the lines of the fields they name.
//
// User actions (ParseUserAction, Apply) use the scenario timeline's
// vocabulary; an action whose object is missing from its namespace fails
// with a message listing where objects of that kind are ("no deployment
// "web" in namespace default; found: shop/web"). Targets lists the
// Deployments an action can name, with their containers. Kubectl renders
// kubectl's read-only commands with their -n/-A and get/rollout flags.
//
// The same checkpoints and replay give forks (ForkAt, fork.go): a second
// session standing at a step of this one's run, with or without the user
// actions made from there on, for engine/compare's "what if I had done X
// instead?", started from this session's last checkpoint before that step
// (restored detached: the two never write into each other's storage); the
// undo of an action that panicked restores a checkpoint the same way into
// a rebuilt simulation (Restore, restore.go); and
// ExportScenario (export.go) writes the user's actions into the file's
// timeline so that the file alone replays the run.
package session
