package deployment

import (
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/deployutil"
)

// templateMatch is one remembered answer of deployutil.EqualIgnoreHash
// between a ReplicaSet's template and a Deployment's, with the generations
// it holds for. A template lives in its object's spec, and the API server
// bumps metadata.generation on every spec change (a restored object gets a
// new UID), so (UID, generation) names one template content on each side.
type templateMatch struct {
	templatePair
	equal bool
}

// templatePair names the two templates of a comparison (the ReplicaSet's
// UID is the templateMatches key).
type templatePair struct {
	rsGeneration         int64
	deployment           types.UID
	deploymentGeneration int64
}

// templateMatches remembers, per ReplicaSet UID, the last template
// comparison against a Deployment. Every sync of a rollout asks the same
// question of the same ReplicaSets several times (which one is new?), and
// the semantic comparison of two pod templates is the most expensive part of
// that answer. The answers are a pure function of the two stored templates,
// so remembering them changes no decision.
type templateMatches struct {
	// byRS holds the last answer per ReplicaSet UID; an entry is dropped when
	// its ReplicaSet's delete is delivered. Snapshot: yes.
	byRS map[types.UID]templateMatch
}

// equal returns deployutil.EqualIgnoreHash(&rs.Spec.Template,
// &d.Spec.Template), from memory when both objects' (UID, generation) are
// the ones of the last comparison. d must hold its stored template (a copy of
// the cached object whose template was not changed in memory); objects
// without a UID or a generation (never stored) are compared every time.
func (m *templateMatches) equal(rs *appsv1.ReplicaSet, d *appsv1.Deployment) bool {
	if rs.UID == "" || d.UID == "" || rs.Generation <= 0 || d.Generation <= 0 {
		return deployutil.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template)
	}
	pair := templatePair{rsGeneration: rs.Generation, deployment: d.UID, deploymentGeneration: d.Generation}
	if last, ok := m.byRS[rs.UID]; ok && last.templatePair == pair {
		return last.equal
	}
	eq := deployutil.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template)
	if m.byRS == nil {
		m.byRS = map[types.UID]templateMatch{}
	}
	m.byRS[rs.UID] = templateMatch{templatePair: pair, equal: eq}
	return eq
}

// forget drops what is remembered about the ReplicaSet uid.
func (m *templateMatches) forget(uid types.UID) { delete(m.byRS, uid) }

// findNewReplicaSet is deployutil.FindNewReplicaSet answered through m.
func (m *templateMatches) findNewReplicaSet(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	return deployutil.FindNewReplicaSetMatching(rsList, func(rs *appsv1.ReplicaSet) bool { return m.equal(rs, d) })
}

// findOldReplicaSets is deployutil.FindOldReplicaSets answered through m.
func (m *templateMatches) findOldReplicaSets(d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (required, all []*appsv1.ReplicaSet) {
	return deployutil.FindOldReplicaSetsMatching(rsList, func(rs *appsv1.ReplicaSet) bool { return m.equal(rs, d) })
}

// checkpoint copies the remembered answers.
func (m *templateMatches) checkpoint() map[types.UID]templateMatch { return maps.Clone(m.byRS) }

// restore makes the remembered answers equal to saved.
func (m *templateMatches) restore(saved map[types.UID]templateMatch) {
	clear(m.byRS)
	if len(saved) > 0 && m.byRS == nil {
		m.byRS = make(map[types.UID]templateMatch, len(saved))
	}
	maps.Copy(m.byRS, saved)
}
