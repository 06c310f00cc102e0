package informer

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
	"github.com/rolloutlab/rolloutlab/engine/internal/cow"
)

// dumpStore renders everything a Store holds, sets in their item order
// (tombstones as "-"), and fails when a set holds an entry that is not the
// one cached under its key.
func dumpStore(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	keys := make([]string, 0, s.objects.Len())
	s.objects.Range(func(k string, _ *entry) bool {
		keys = append(keys, k)
		return true
	})
	sort.Strings(keys)
	for _, k := range keys {
		e := s.objects.At(k)
		fmt.Fprintf(&b, "%s rv=%s labels=%v seq=%d indexed=%v\n", e.key, e.obj.GetResourceVersion(), e.obj.GetLabels(), e.seq, e.indexed)
	}
	set := func(name string, os *orderedSet) {
		fmt.Fprintf(&b, "%s:", name)
		for _, q := range itemsOf(os) {
			if q == 0 {
				b.WriteString(" -")
				continue
			}
			e := s.entries.get(q)
			if e == nil || e.seq != q || s.objects.At(e.key) != e {
				t.Fatalf("set %s holds seq %d, whose entry is not the cached one", name, q)
			}
			i, _ := os.index(q)
			fmt.Fprintf(&b, " %s@%d", e.key, i)
		}
		// pos maps exactly the seqs of items to their indexes.
		live := 0
		for _, q := range itemsOf(os) {
			if q != 0 {
				live++
			}
		}
		positions := tableValues(t, &os.pos)
		if len(positions) != live || os.len() != live {
			t.Fatalf("set %s: %d live items, %d positions, len %d", name, live, len(positions), os.len())
		}
		for q, p := range positions {
			if int(p) > os.n || os.items.get(uint64(p)-1) != q {
				t.Fatalf("set %s: seq %d at position %d, which holds another", name, q, p-1)
			}
		}
		b.WriteString("\n")
	}
	sets := func(prefix string, m map[string]*orderedSet) {
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			set(prefix+k, m[k])
		}
	}
	// The entry table holds exactly the cached entries, each at its seq.
	tabled := tableValues(t, &s.entries)
	for q, e := range tabled {
		if e.seq != q || s.objects.At(e.key) != e {
			t.Fatalf("entry table: seq %d holds %s (seq %d), not the cached entry", q, e.key, e.seq)
		}
	}
	if len(tabled) != s.objects.Len() {
		t.Fatalf("entry table holds %d entries, the store caches %d", len(tabled), s.objects.Len())
	}
	set("order", s.order)
	sets("ns/", s.byNamespace)
	for _, name := range s.indexNames {
		sets("index/"+name+"/", s.indices[name])
	}
	byLabel := make(map[string]*orderedSet, len(s.byLabel))
	for k, set := range s.byLabel {
		byLabel[k.ns+"/"+k.key+"="+k.value] = set
	}
	sets("label/", byLabel)
	if s.groups != nil {
		b.WriteString(dumpGroups(s))
		for _, k := range keys {
			e := s.objects.At(k)
			fmt.Fprintf(&b, "%s sig=%q facts=%+v\n", k, e.labelSig, e.facts)
		}
	}
	fmt.Fprintf(&b, "rv=%d nextSeq=%d\n", s.lastAppliedRV, s.nextSeq)
	return b.String()
}

// tableValues returns the non-zero values of tab by seq, failing when a
// chunk's count is off or a chunk holds none.
func tableValues[T comparable](t *testing.T, tab *seqTable[T]) map[uint64]T {
	t.Helper()
	out := map[uint64]T{}
	var zero T
	for i, c := range tab.chunks {
		if c == nil {
			if i == 0 || i == len(tab.chunks)-1 {
				t.Fatalf("seq table: empty chunk at an end of the list (%d of %d)", i, len(tab.chunks))
			}
			continue
		}
		live := 0
		for j, v := range c.vals {
			if v != zero {
				live++
				out[(tab.base+uint64(i))*seqChunkSize+uint64(j)] = v
			}
		}
		if live == 0 || live != c.live {
			t.Fatalf("seq table: chunk %d holds %d values, counts %d", i, live, c.live)
		}
	}
	return out
}

// churn puts, relabels and removes objects of s, round r making different
// changes.
func churn(s *Store, r int) {
	for i := 0; i < 40; i++ {
		ns := []string{"default", "other"}[i%2]
		name := fmt.Sprintf("p%d", (i*7+r)%23)
		if (i+r)%5 == 0 {
			s.remove(ns + "/" + name)
			continue
		}
		s.put(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
			ResourceVersion: fmt.Sprint(r*100 + i),
			Labels:          map[string]string{"app": "web", "owner": fmt.Sprint((i + r) % 3)}}})
		s.lastAppliedRV = uint64(r*100 + i)
	}
}

// A store checkpoint is isolated from the live store, whose entries change
// in place: restoring gives back exactly the saved cache and indexes, with
// every set holding the live entries, however the store changed since and
// however often the checkpoint is restored. The store's map is on a slot
// table that another map fills first, in another order (as the server's
// table of pods does in a simulation), and the twin below starts on a
// table of its own.
func TestStoreCheckpointRestoresEntriesAndSets(t *testing.T) {
	byOwner := func(o apiserver.Object) []string { return []string{o.GetLabels()["owner"]} }
	slots := cow.NewSlotTable[string]()
	other := cow.NewMapOn[string, int](slots)
	for i := 22; i >= 0; i-- {
		other.Set(fmt.Sprintf("other/p%d", i), i)
		other.Set(fmt.Sprintf("unrelated/%d", i), i)
	}
	s := newStore(map[string]IndexFunc{"owner": byOwner}, slots)
	churn(s, 0)
	churn(s, 1)
	saved := s.checkpoint()
	want := dumpStore(t, s)
	// The same changes on a table of its own give the same store: the
	// shared table's slot order does not show.
	own := newStore(map[string]IndexFunc{"owner": byOwner}, nil)
	churn(own, 0)
	churn(own, 1)
	if s.objects.SlotTable() != slots || own.objects.SlotTable() == slots {
		t.Fatal("the stores are not on the tables they were made on")
	}
	if got := dumpStore(t, own); got != want {
		t.Fatalf("a store on its own table:\n%s\nthe store on the shared table:\n%s", got, want)
	}
	// A checkpoint taken after more changes shares saved's unchanged
	// entries; restoring either gives back its own state.
	churn(s, 20)
	later := s.checkpoint()
	wantLater := dumpStore(t, s)
	shared := 0
	later.objects.Range(func(k string, e *entry) bool {
		if saved.objects.At(k) == e {
			shared++
		}
		return true
	})
	if shared == 0 || shared == later.objects.Len() {
		t.Fatalf("%d of %d entries shared: the test checks nothing", shared, later.objects.Len())
	}
	s.restore(&saved)
	if got := dumpStore(t, s); got != want {
		t.Fatalf("restore of the first checkpoint after the second was taken:\n%s\nwant:\n%s", got, want)
	}
	s.restore(&later)
	if got := dumpStore(t, s); got != wantLater {
		t.Fatalf("restore of the second checkpoint:\n%s\nwant:\n%s", got, wantLater)
	}
	s.restore(&saved)
	for r := 2; r < 6; r++ {
		churn(s, r)
		if dumpStore(t, s) == want {
			t.Fatalf("round %d changed nothing: the test checks nothing", r)
		}
		s.restore(&saved)
		if got := dumpStore(t, s); got != want {
			t.Fatalf("restore after round %d:\n%s\nwant:\n%s", r, got, want)
		}
		// The restored store keeps working like the saved one did.
		churn(s, r+10)
		twin := newStore(map[string]IndexFunc{"owner": byOwner}, nil)
		twin.restore(&saved)
		churn(twin, r+10)
		if a, b := dumpStore(t, s), dumpStore(t, twin); a != b {
			t.Fatalf("after restore and round %d:\n%s\nfresh store restored likewise:\n%s", r+10, a, b)
		}
		s.restore(&saved)
	}
}

// A checkpoint shares the live entries, and the store writes a copy
// (copyFor) in place of any entry it does not own, so a copy must share
// nothing the store writes in place: every field of entry is listed here,
// and each that is a slice or map is checked not to share its array.
func TestEntryCopySharesNothingWritable(t *testing.T) {
	old, tok := cow.NewToken(), cow.NewToken()
	e := &entry{owner: old, key: "k", obj: &corev1.Pod{}, seq: 1, indexed: [][]string{{"a"}, {"b"}},
		labelSig: "app\x00web\x00", facts: Facts{State: 1, Tag: "n1", Nums: [7]int64{1, 2, 3, 4, 5, 6, 7}}}
	c := e.copyFor(tok)
	if c == e || c.owner != tok {
		t.Fatalf("copyFor returned %p owned by %p, want a new entry owned by %p", c, c.owner, tok)
	}
	same := *c
	same.owner = e.owner
	if !reflect.DeepEqual(same, *e) {
		t.Errorf("the copy %+v differs from the original %+v beyond its owner", *c, *e)
	}
	typ := reflect.TypeOf(entry{})
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		switch f.Name {
		case "owner":
			continue
		case "key", "obj", "seq", "labelSig", "facts":
			// Values, or (obj) an immutable stored object, shared.
		case "indexed":
			// Written in place by reindex (indexed[i] = vals); the value
			// slices inside are replaced, never written.
			if &c.indexed[0] == &e.indexed[0] {
				t.Error("the copy shares indexed's array with the original")
			}
		default:
			t.Fatalf("field %s: teach copyFor and this test about it", f.Name)
		}
	}
}

// summarizedStore is a store indexed and summarized by the "owner" label.
func summarizedStore() *Store {
	s := newStore(map[string]IndexFunc{"owner": func(o apiserver.Object) []string { return []string{o.GetLabels()["owner"]} }}, nil)
	s.Summarize("owner", podState)
	return s
}

// A restored store equals one replayed from empty to the same point, sets
// in the same order with the same tombstones, entries and group counts
// alike, whichever store took the checkpoint, and however many stores
// restored the same checkpoint, changed and checkpointed since: restoring
// never lets a store write what a checkpoint holds.
func TestRestoredStoreEqualsReplayedAcrossStores(t *testing.T) {
	replayed := func(rounds ...int) string {
		s := summarizedStore()
		for _, r := range rounds {
			churn(s, r)
		}
		return dumpStore(t, s)
	}
	a, b := summarizedStore(), summarizedStore()
	churn(a, 0)
	churn(a, 1)
	cpA := a.checkpoint()
	want := replayed(0, 1)
	// b restores a's checkpoint and goes on; a goes on differently.
	b.restore(&cpA)
	if got := dumpStore(t, b); got != want {
		t.Fatalf("another store restoring a's checkpoint:\n%s\nreplayed:\n%s", got, want)
	}
	churn(b, 2)
	churn(a, 3)
	cpB := b.checkpoint()
	churn(b, 4)
	churn(a, 5)
	if got, w := dumpStore(t, b), replayed(0, 1, 2, 4); got != w {
		t.Fatalf("b after restore and churn:\n%s\nreplayed:\n%s", got, w)
	}
	// a restores b's checkpoint, which shares entries with its own.
	a.restore(&cpB)
	if got, w := dumpStore(t, a), replayed(0, 1, 2); got != w {
		t.Fatalf("a restoring b's checkpoint:\n%s\nreplayed:\n%s", got, w)
	}
	churn(a, 6)
	if got, w := dumpStore(t, a), replayed(0, 1, 2, 6); got != w {
		t.Fatalf("a after restoring b's checkpoint and churn:\n%s\nreplayed:\n%s", got, w)
	}
	// Neither checkpoint changed, whoever restored and wrote after it.
	for _, s := range []*Store{a, b, summarizedStore()} {
		s.restore(&cpA)
		if got := dumpStore(t, s); got != want {
			t.Fatalf("restoring a's first checkpoint again:\n%s\nreplayed:\n%s", got, want)
		}
		churn(s, 7)
		s.restore(&cpB)
		if got, w := dumpStore(t, s), replayed(0, 1, 2); got != w {
			t.Fatalf("restoring b's checkpoint again:\n%s\nreplayed:\n%s", got, w)
		}
		churn(s, 8)
	}
}

// wideChurn adds 300 objects named after round r and removes all but one of
// round r-1's, so that seqs run over many table chunks and the old chunks
// empty.
func wideChurn(s *Store, r int) {
	for i := 0; i < 300; i++ {
		ns := []string{"default", "other"}[i%2]
		s.put(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("r%d-%d", r, i),
			ResourceVersion: fmt.Sprint(r*1000 + i),
			Labels:          map[string]string{"app": "web", "owner": fmt.Sprint((i + r) % 3), "round": fmt.Sprint(r)}}})
		if i != 0 && r > 0 {
			s.remove(ns + "/" + fmt.Sprintf("r%d-%d", r-1, i))
		}
	}
	churn(s, r)
}

// Restoring stays exact when the seqs span many chunks of the seq tables
// and chunks empty and are dropped between checkpoint and restore.
func TestRestoreAcrossSeqChunks(t *testing.T) {
	replayed := func(rounds int) string {
		s := summarizedStore()
		for r := 0; r < rounds; r++ {
			wideChurn(s, r)
		}
		return dumpStore(t, s)
	}
	a, b := summarizedStore(), summarizedStore()
	var cps []storeCheckpoint
	for r := 0; r < 6; r++ {
		wideChurn(a, r)
		cps = append(cps, a.checkpoint())
	}
	emptied := 0
	for _, c := range a.entries.chunks {
		if c == nil {
			emptied++
		}
	}
	if a.nextSeq < 5*seqChunkSize || emptied == 0 || a.byLabel[labelBucket{"default", "round", "1"}].pos.base == 0 {
		t.Fatalf("seqs reach %d, %d chunks emptied, no table starts above chunk 0: the test checks nothing", a.nextSeq, emptied)
	}
	for _, r := range []int{2, 5, 0, 3} {
		for _, s := range []*Store{a, b} {
			s.restore(&cps[r])
			if got, want := dumpStore(t, s), replayed(r+1); got != want {
				t.Fatalf("restore of round %d's checkpoint:\n%s\nreplayed:\n%s", r, got, want)
			}
			wideChurn(s, r+1)
			if got, want := dumpStore(t, s), replayed(r+2); got != want {
				t.Fatalf("restore of round %d's checkpoint and a round more:\n%s\nreplayed:\n%s", r, got, want)
			}
		}
	}
}

// Lists read entries through the entry table, whose chunks start above
// chunk 0 once the oldest objects are gone, before and after a restore.
func TestListAfterOldestChunksDropped(t *testing.T) {
	s := summarizedStore()
	var want []string
	for i := 0; i < 3*seqChunkSize; i++ {
		name := fmt.Sprint("p", i)
		s.put(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"owner": "a"}}})
		if i < 2*seqChunkSize+10 {
			continue
		}
		want = append(want, "default/"+name)
	}
	for i := 0; i < 2*seqChunkSize+10; i++ {
		s.remove(fmt.Sprint("default/p", i))
	}
	if s.entries.base == 0 {
		t.Fatal("the entry table still starts at chunk 0: the test checks nothing")
	}
	check := func(when string) {
		t.Helper()
		for what, objs := range map[string][]apiserver.Object{"List": s.List("", nil), "ByIndex": s.ByIndex("owner", "a")} {
			var got []string
			for _, o := range objs {
				got = append(got, KeyOf(o))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: %s = %v, want %v", when, what, got, want)
			}
		}
	}
	check("live")
	cp := s.checkpoint()
	s.remove(want[0])
	s.restore(&cp)
	check("restored")
}

// itemsOf returns the order of os, position by position, 0 for a tombstone.
func itemsOf(os *orderedSet) []uint64 {
	out := make([]uint64, os.n)
	for i := range out {
		out[i] = os.items.get(uint64(i))
	}
	return out
}
