// Package kubectl does what the kubectl commands of the Rollout Lab UI do,
// and prints what kubectl 1.36 prints.
//
// Actions (Apply, Scale, SetImage, Pause, Resume, Restart, Undo, Delete,
// DeletePod) are API requests to the in-memory API server made with the actor
// "kubectl", so they show up in the trace like any client's requests. Each
// returns kubectl's success message ("deployment.apps/web scaled") or the
// error the API server (or kubectl itself, client-side) gives.
//
// Edits (SetImage, SetRollingUpdate, SetStrategy, SetMinReadySeconds,
// SetProgressDeadline, SetResources, SetEnv) change one Deployment with one
// update and leave every judgement of the values to the API server, as
// `kubectl set` and `kubectl patch` do; container edits name their
// container (errors list the ones there are).
//
// Views (Get with kubectl's get flags, DescribeDeployment,
// DescribeReplicaSet, RolloutStatus, RolloutHistory) are pure functions of
// the objects they are given and the virtual time now; they never call the
// API server and never read the wall clock. Their text follows kubectl's
// layout: column names, tab-aligned padding, STATUS and AGE rules, describe
// sections and "<none>" placeholders. The wording was matched against
// kubectl; the code is this project's own.
package kubectl
