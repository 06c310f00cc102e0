package deployutil

import appsv1 "k8s.io/api/apps/v1"

// The orders below are sort.Interface implementations used with sort.Sort,
// exactly like upstream, so that even ties the comparator cannot break land in
// the same positions.

// byCreation orders oldest first; equal creation times order by name. A zero
// creation time is simply the earliest.
type byCreation []*appsv1.ReplicaSet

func (o byCreation) Len() int      { return len(o) }
func (o byCreation) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o byCreation) Less(i, j int) bool {
	return creationLess(o[i], o[j])
}

func creationLess(a, b *appsv1.ReplicaSet) bool {
	if a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return a.Name < b.Name
	}
	return a.CreationTimestamp.Before(&b.CreationTimestamp)
}

// bySizeNewer orders larger spec.replicas first; ties newest first. Used
// when proportional scaling adds replicas.
type bySizeNewer []*appsv1.ReplicaSet

func (o bySizeNewer) Len() int      { return len(o) }
func (o bySizeNewer) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o bySizeNewer) Less(i, j int) bool {
	si, sj := rsReplicas(o[i]), rsReplicas(o[j])
	if si == sj {
		return creationLess(o[j], o[i])
	}
	return si > sj
}

// bySizeOlder orders larger spec.replicas first; ties oldest first. Used
// when proportional scaling removes replicas.
type bySizeOlder []*appsv1.ReplicaSet

func (o bySizeOlder) Len() int      { return len(o) }
func (o bySizeOlder) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o bySizeOlder) Less(i, j int) bool {
	si, sj := rsReplicas(o[i]), rsReplicas(o[j])
	if si == sj {
		return creationLess(o[i], o[j])
	}
	return si > sj
}

// byRevision orders by revision annotation ascending; when either revision
// does not parse, or they are equal, it falls back to byCreation.
type byRevision []*appsv1.ReplicaSet

func (o byRevision) Len() int      { return len(o) }
func (o byRevision) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o byRevision) Less(i, j int) bool {
	ri, erri := Revision(o[i])
	rj, errj := Revision(o[j])
	if erri != nil || errj != nil || ri == rj {
		return creationLess(o[i], o[j])
	}
	return ri < rj
}
