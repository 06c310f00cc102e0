package deployment

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/controller/refmanager"
	"github.com/rolloutlab/rolloutlab/engine/informer"
)

// getReplicaSetsForDeployment lists every cached ReplicaSet of d's namespace
// and claims them for d: adopting matching orphans and releasing owned ones
// that no longer match (BEHAVIOR §4.4). Any claim error aborts the sync.
func (dc *Controller) getReplicaSetsForDeployment(d *appsv1.Deployment) ([]*appsv1.ReplicaSet, error) {
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, &kindError{
			msg:  fmt.Sprintf("deployment %s/%s has invalid label selector: %v", d.Namespace, d.Name, err),
			kind: ErrInvalidSelector,
		}
	}
	cached := dc.rsInformer.Store().List(d.Namespace, nil)
	rss := make([]*appsv1.ReplicaSet, 0, len(cached))
	for _, obj := range cached {
		rss = append(rss, obj.(*appsv1.ReplicaSet))
	}
	env := refmanager.Env{Client: dc.server, Rec: dc.rec, Actor: source}
	claimed, summary, err := refmanager.ClaimReplicaSets(env, d, sel, rss)
	if len(summary.Adopted) > 0 || len(summary.Released) > 0 || len(summary.Failed) > 0 {
		dc.emit(summary)
	}
	return claimed, err
}

// rsPods are the cached pods a ReplicaSet controls.
type rsPods struct {
	// uid is the ReplicaSet's UID.
	uid types.UID
	// pods include terminating and terminal pods, never orphans.
	pods []*corev1.Pod
}

// podMap is upstream's getPodMapForDeployment as an ordered list (one entry
// per ReplicaSet, in rsList order, so no map order can leak): each
// ReplicaSet's pods under its owner-index key.
func (dc *Controller) podMap(rsList []*appsv1.ReplicaSet) []rsPods {
	out := make([]rsPods, 0, len(rsList))
	store := dc.podInformer.Store()
	for _, rs := range rsList {
		key := informer.PodControllerKey(rs.Namespace, "ReplicaSet", rs.Name, string(rs.UID))
		entry := rsPods{uid: rs.UID, pods: make([]*corev1.Pod, 0, store.CountByIndex(informer.PodControllerIndex, key))}
		store.EachByIndex(informer.PodControllerIndex, key, func(obj apiserver.Object) {
			entry.pods = append(entry.pods, obj.(*corev1.Pod))
		})
		out = append(out, entry)
	}
	return out
}
