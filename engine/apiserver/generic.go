package apiserver

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// Get returns the stored object res ns/name (ns ignored for nodes), or
// NotFound. The result is the stored pointer: read-only.
func (s *Server) Get(res Resource, ns, name string) (Object, error) {
	return s.lookup(res, ns, name)
}

// list returns the stored objects of res in namespace ns ("" = all) whose
// labels match sel (nil = all), sorted by namespace/name.
func list[T Object](s *Server, res Resource, ns string, sel labels.Selector) []T {
	t := s.tables[res]
	if !res.Namespaced() {
		ns = ""
	}
	var out []T
	t.each(ns, func(o Object) bool {
		if sel == nil || sel.Matches(labels.Set(o.GetLabels())) {
			out = append(out, o.(T))
		}
		return true
	})
	return out
}

func get[T Object](s *Server, res Resource, ns, name string) (T, error) {
	o, err := s.lookup(res, ns, name)
	if err != nil {
		var zero T
		return zero, err
	}
	return o.(T), nil
}

func typed[T Object](o Object, err error) (T, error) {
	if err != nil || o == nil {
		var zero T
		return zero, err
	}
	return o.(T), nil
}

// Pods. All returned objects are stored pointers: DeepCopy before changing.

// CreatePod creates a pod (generateName honoured) and returns the stored pod.
func (s *Server) CreatePod(actor string, p *corev1.Pod) (*corev1.Pod, error) {
	return typed[*corev1.Pod](s.create(actor, Pods, p))
}

// GetPod returns the stored pod or NotFound.
func (s *Server) GetPod(ns, name string) (*corev1.Pod, error) {
	return get[*corev1.Pod](s, Pods, ns, name)
}

// FindPod is GetPod for a caller that only needs to know whether the pod
// exists: no NotFound error is built when it does not. The result is the
// stored pointer: read-only.
func (s *Server) FindPod(ns, name string) (*corev1.Pod, bool) {
	o, ok := s.find(Pods, ns, name)
	if !ok {
		return nil, false
	}
	return o.(*corev1.Pod), true
}

// FindPodByKey is FindPod by the pod's storage key, "namespace/name" (a
// stored pod always has a namespace): a caller that keeps pods by that key
// looks them up without splitting it and joining it again.
func (s *Server) FindPodByKey(key string) (*corev1.Pod, bool) {
	o, ok := s.tables[Pods].objs.Get(key)
	if !ok {
		return nil, false
	}
	return o.(*corev1.Pod), true
}

// FindPodInSlot is FindPodByKey for a caller that keeps the key's slot in
// slots, the table of a map of its own (cow.Map.SlotOf): when slots is the
// table the server's pods are on now (KeySlots), the pod is read from the
// slot without looking key up, a cache miss per lookup at 10,000 pods;
// otherwise key is looked up.
func (s *Server) FindPodInSlot(slots *cow.SlotTable[string], slot int, key string) (*corev1.Pod, bool) {
	objs := s.tables[Pods].objs
	if slots != objs.SlotTable() {
		return s.FindPodByKey(key)
	}
	o, ok := objs.GetSlot(slot)
	if !ok {
		return nil, false
	}
	return o.(*corev1.Pod), true
}

// ListPods lists pods in ns ("" = all) matching sel (nil = all), sorted by
// namespace/name.
func (s *Server) ListPods(ns string, sel labels.Selector) []*corev1.Pod {
	return list[*corev1.Pod](s, Pods, ns, sel)
}

// PodCount returns the number of stored pods.
func (s *Server) PodCount() int { return s.tables[Pods].objs.Len() }

// EachPod calls fn for every stored pod, in namespace/name order, until fn
// returns false; it builds no list. The pods are stored pointers:
// read-only.
func (s *Server) EachPod(fn func(p *corev1.Pod) bool) {
	s.tables[Pods].each("", func(o Object) bool { return fn(o.(*corev1.Pod)) })
}

// PodsOnNode returns the number of stored pods bound to node.
func (s *Server) PodsOnNode(node string) int { return s.nodePods[node] }

// UpdatePod writes spec and metadata; the status sent is ignored.
func (s *Server) UpdatePod(actor string, p *corev1.Pod) (*corev1.Pod, error) {
	return typed[*corev1.Pod](s.update(actor, Pods, p, modeUpdate))
}

// UpdatePodStatus writes status (and annotations); the spec sent is ignored.
func (s *Server) UpdatePodStatus(actor string, p *corev1.Pod) (*corev1.Pod, error) {
	return typed[*corev1.Pod](s.update(actor, Pods, p, modeStatus))
}

// UpdatePodStatusOwned is UpdatePodStatus for a caller that hands p over:
// the server may store p itself rather than a copy, so the caller must not
// change p afterwards. p may share its metadata, spec and the parts of its
// status it did not change with the stored pod (stored objects are never
// changed in place). The kubelet writes every status this way, from the
// copy it made to change it.
func (s *Server) UpdatePodStatusOwned(actor string, p *corev1.Pod) (*corev1.Pod, error) {
	return typed[*corev1.Pod](s.updateBody(actor, Pods, p, modeStatus, true))
}

// DeletePod deletes a pod, gracefully unless the grace period comes to 0.
func (s *Server) DeletePod(actor, ns, name string, opts DeleteOptions) error {
	return s.Delete(actor, Pods, ns, name, opts)
}

// BindPod sets spec.nodeName of an unbound pod, standing in for the binding
// subresource the scheduler uses. UpdatePod accepts the same change.
func (s *Server) BindPod(actor, ns, name, nodeName string) (*corev1.Pod, error) {
	return typed[*corev1.Pod](s.patchCopy(actor, Pods, ns, name, copyShallow, func(o Object) error {
		o.(*corev1.Pod).Spec.NodeName = nodeName
		return nil
	}))
}

// ReplicaSets.

// CreateReplicaSet creates a ReplicaSet and returns the stored object.
func (s *Server) CreateReplicaSet(actor string, rs *appsv1.ReplicaSet) (*appsv1.ReplicaSet, error) {
	return typed[*appsv1.ReplicaSet](s.create(actor, ReplicaSets, rs))
}

// GetReplicaSet returns the stored ReplicaSet or NotFound.
func (s *Server) GetReplicaSet(ns, name string) (*appsv1.ReplicaSet, error) {
	return get[*appsv1.ReplicaSet](s, ReplicaSets, ns, name)
}

// ListReplicaSets lists ReplicaSets in ns ("" = all) matching sel (nil =
// all), sorted by namespace/name.
func (s *Server) ListReplicaSets(ns string, sel labels.Selector) []*appsv1.ReplicaSet {
	return list[*appsv1.ReplicaSet](s, ReplicaSets, ns, sel)
}

// UpdateReplicaSet writes spec and metadata; the status sent is ignored.
func (s *Server) UpdateReplicaSet(actor string, rs *appsv1.ReplicaSet) (*appsv1.ReplicaSet, error) {
	return typed[*appsv1.ReplicaSet](s.update(actor, ReplicaSets, rs, modeUpdate))
}

// UpdateReplicaSetStatus writes status (and annotations) only.
func (s *Server) UpdateReplicaSetStatus(actor string, rs *appsv1.ReplicaSet) (*appsv1.ReplicaSet, error) {
	return typed[*appsv1.ReplicaSet](s.update(actor, ReplicaSets, rs, modeStatus))
}

// DeleteReplicaSet deletes a ReplicaSet (see Delete).
func (s *Server) DeleteReplicaSet(actor, ns, name string, opts DeleteOptions) error {
	return s.Delete(actor, ReplicaSets, ns, name, opts)
}

// Deployments.

// CreateDeployment creates a Deployment and returns the stored object.
func (s *Server) CreateDeployment(actor string, d *appsv1.Deployment) (*appsv1.Deployment, error) {
	return typed[*appsv1.Deployment](s.create(actor, Deployments, d))
}

// GetDeployment returns the stored Deployment or NotFound.
func (s *Server) GetDeployment(ns, name string) (*appsv1.Deployment, error) {
	return get[*appsv1.Deployment](s, Deployments, ns, name)
}

// ListDeployments lists Deployments in ns ("" = all) matching sel (nil =
// all), sorted by namespace/name.
func (s *Server) ListDeployments(ns string, sel labels.Selector) []*appsv1.Deployment {
	return list[*appsv1.Deployment](s, Deployments, ns, sel)
}

// UpdateDeployment writes spec and metadata; generation is bumped when the
// spec or the annotations change.
func (s *Server) UpdateDeployment(actor string, d *appsv1.Deployment) (*appsv1.Deployment, error) {
	return typed[*appsv1.Deployment](s.update(actor, Deployments, d, modeUpdate))
}

// UpdateDeploymentStatus writes status and annotations (the controller's
// revision annotation travels this way); generation is unchanged.
func (s *Server) UpdateDeploymentStatus(actor string, d *appsv1.Deployment) (*appsv1.Deployment, error) {
	return typed[*appsv1.Deployment](s.update(actor, Deployments, d, modeStatus))
}

// DeleteDeployment deletes a Deployment (see Delete).
func (s *Server) DeleteDeployment(actor, ns, name string, opts DeleteOptions) error {
	return s.Delete(actor, Deployments, ns, name, opts)
}

// Nodes are cluster-scoped: the ns arguments are ignored.

// CreateNode creates a node; its status is stored as given.
func (s *Server) CreateNode(actor string, n *corev1.Node) (*corev1.Node, error) {
	return typed[*corev1.Node](s.create(actor, Nodes, n))
}

// GetNode returns the stored node or NotFound (ns ignored).
func (s *Server) GetNode(ns, name string) (*corev1.Node, error) {
	return get[*corev1.Node](s, Nodes, "", name)
}

// ListNodes lists nodes matching sel (nil = all), sorted by name.
func (s *Server) ListNodes(ns string, sel labels.Selector) []*corev1.Node {
	return list[*corev1.Node](s, Nodes, "", sel)
}

// UpdateNode writes spec and metadata.
func (s *Server) UpdateNode(actor string, n *corev1.Node) (*corev1.Node, error) {
	return typed[*corev1.Node](s.update(actor, Nodes, n, modeUpdate))
}

// UpdateNodeStatus writes status only.
func (s *Server) UpdateNodeStatus(actor string, n *corev1.Node) (*corev1.Node, error) {
	return typed[*corev1.Node](s.update(actor, Nodes, n, modeStatus))
}

// DeleteNode deletes a node (ns ignored).
func (s *Server) DeleteNode(actor, ns, name string, opts DeleteOptions) error {
	return s.Delete(actor, Nodes, "", name, opts)
}
