// Package scenario parses Rollout Lab scenario files.
//
// A scenario file is multi-document YAML. Its documents are either plain
// Kubernetes objects (apps/v1 Deployment, apps/v1 ReplicaSet, v1 Pod), which
// the simulator applies at time zero in file order, or at most one
// rolloutlab.dev/v1alpha1 Scenario document that names the scenario, seeds
// the simulation, configures the simulated cluster, sets limits and lists a
// timeline of kubectl-style actions. Without a Scenario document the file is
// a scenario with defaults, named after its first Deployment.
//
// Files are taken as people write and paste them (see Notice):
//
//   - Documents of kinds the simulation does not run (Service, ConfigMap,
//     HPA, Ingress, StatefulSet, CRDs...) are skipped with an "ignored"
//     notice; a kind one typo away from a simulated one is an error.
//   - A v1 List (`kubectl get -o yaml`) is unwrapped into its items.
//   - A later object of the same kind, namespace and name configures the
//     earlier one, as `kubectl apply -f` would; a notice names both lines.
//   - Objects carrying what a cluster writes (uid, resourceVersion,
//     creationTimestamp, generation, managedFields, status) are the initial
//     state of the simulation (Object.Live; live.go says what is kept,
//     dropped and rebased), or with Options.SpecOnly only their specs.
//   - A file with nothing to simulate is an error.
//
// spec.annotations (optional) lists steps worth pausing at, for presenters:
//
//	annotations:
//	  - at: {step: 95}                      # a simulator step, or
//	  - at: {record: NewRSMath, nth: 1}     # the step of the Nth record of a decision type
//	    title: The new ReplicaSet is sized  # required, 1..200 characters
//	    text: maxTotalPods = 10 + 3 = 13    # optional, up to 2000 characters
//	    translations:                       # optional, by language tag
//	      zh-CN: {title: 新 ReplicaSet 的大小, text: ……}
//
// metadata.translations holds the description the same way
// ({zh-CN: {description: ...}}). A note's translation has the note's
// bounds, in characters, and a text when the note has one; translations.go
// reads both.
// Each entry has exactly one of at.step and at.record; record must be one of
// AnnotationRecordTypes and nth (default 1) is only used with record.
// Annotations are carried through Parse and never affect the simulation or
// its trace: the UI resolves a record position against the trace it shows.
//
// Timeline actions name their object with one vocabulary: target:
// "<kind>/<name>" (kind as kubectl spells it: deployment or deploy,
// replicaset or rs, pod or po) and an optional namespace: field, "default"
// when absent, as kubectl without -n. "shop/web" is refused with a message
// that shows the namespace: form. The action types and their fields are
// listed in docs/bridge-api.md ("Actions"); user actions sent through the
// bridge's act are the same entries with type: instead of action:. The
// "when" conditions name a namespace with their mapping forms:
// rolloutComplete: {target: deployment/web, namespace: shop} and
// available: {target: ..., atLeast: N, namespace: shop}.
//
// Contract:
//
//   - Parse never panics on any input and never reads anything but its
//     arguments. Every failure is a *Error, or an ErrorList of them, that
//     names the file, the document (1-based, counting every document the
//     YAML stream holds), the line and column, the field path and what was
//     expected.
//   - Unknown fields are errors everywhere, with a "did you mean" suggestion
//     when a known field is close. Kubernetes documents are decoded strictly
//     into the real k8s.io/api types: a value of the wrong YAML type (a
//     number where a string belongs, for example) is an error, as it is for
//     kubectl.
//   - Kubernetes semantics (selectors, required fields, name syntax, the
//     format of maxSurge) are not checked here: that is the API server's job,
//     so the user sees its message as kubectl would show it. Parse checks
//     what kubectl itself would refuse to send (syntax, unknown fields,
//     value types), kinds and the Scenario schema.
//   - Inputs are bounded: MaxFileBytes, MaxDocuments, MaxErrors, and a node
//     budget that stops YAML alias expansion bombs; merge keys expand once
//     per node.
//   - Every decoded object records the line of each field it gives
//     (Object.FieldLine), so that the API server's errors at set-up are
//     placed at the field they name.
package scenario
