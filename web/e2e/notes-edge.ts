// A scenario whose notes the run never reaches but the first: one at step
// 3, one anchored to a record the run never writes (nothing is deleted),
// one at a step past the run's end (it ends at step 39). Shared by the
// embedded player's and the presenter's tests.
export const NOTES_EDGE_YAML = `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: notes-edge}
spec:
  seed: 1
  annotations:
    - at: {step: 3}
      title: Three
    - at: {record: DeletionRanking, nth: 1}
      title: Never
    - at: {step: 5000}
      title: Past the end
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`;
