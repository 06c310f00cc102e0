package podutil

import (
	"errors"
	"slices"
	"sort"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestActivePodsWithRanksLessOracle(t *testing.T) {
	type in struct {
		A, B  oraclePod
		Now   string
		Gate  bool `json:"podDeletionCostGate"`
		RankA int  `json:"rank_a"`
		RankB int  `json:"rank_b"`
	}
	type want struct {
		ALessB bool `json:"a_less_b"`
		BLessA bool `json:"b_less_a"`
	}
	f := loadOracle[in, want](t, "active_pods_with_ranks_less.json")
	passed := 0
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			s := ActivePodsWithRanks{
				Pods:               []*corev1.Pod{c.Input.A.toPod(t), c.Input.B.toPod(t)},
				Rank:               []int{c.Input.RankA, c.Input.RankB},
				Now:                parseTime(t, c.Input.Now),
				IgnoreDeletionCost: !c.Input.Gate,
			}
			if got := s.Less(0, 1); got != c.Expected.ALessB {
				t.Errorf("Less(a, b) = %v, want %v", got, c.Expected.ALessB)
			}
			if got := s.Less(1, 0); got != c.Expected.BLessA {
				t.Errorf("Less(b, a) = %v, want %v", got, c.Expected.BLessA)
			}
			if !t.Failed() {
				passed++
			}
		})
	}
	t.Logf("active_pods_with_ranks_less: %d/%d cases pass", passed, len(f.Cases))
}

func TestActivePodsSortOracle(t *testing.T) {
	type in struct{ Pods []oraclePod }
	type want struct{ Order []string }
	f := loadOracle[in, want](t, "active_pods_sort.json")
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			pods := toPods(t, c.Input.Pods)
			// Input order must not matter: try every rotation and the reverse.
			for shift := 0; shift < len(pods); shift++ {
				for _, rev := range []bool{false, true} {
					p := append(slices.Clone(pods[shift:]), pods[:shift]...)
					if rev {
						slices.Reverse(p)
					}
					sort.Sort(ActivePods(p))
					if got := podNames(p); !slices.Equal(got, c.Expected.Order) {
						t.Fatalf("shift %d rev %v: order\n%v\nwant\n%v", shift, rev, got, c.Expected.Order)
					}
				}
			}
		})
	}
}

func TestParseDeletionCost(t *testing.T) {
	cases := []struct {
		value   *string
		want    int32
		wantErr bool
	}{
		{nil, 0, false},
		{ptr("10"), 10, false},
		{ptr("-5"), -5, false},
		{ptr("0"), 0, false},
		{ptr("-01"), -1, false},
		{ptr("2147483647"), 2147483647, false},
		{ptr("-2147483648"), -2147483648, false},
		{ptr("+10"), 0, true},
		{ptr("007"), 0, true},
		{ptr(""), 0, true},
		{ptr(" 5"), 0, true},
		{ptr("2147483648"), 0, true},
		{ptr("1.5"), 0, true},
		{ptr("-"), 0, true},
	}
	for _, c := range cases {
		ann := map[string]string{}
		label := "<missing>"
		if c.value != nil {
			ann[DeletionCostAnnotation] = *c.value
			label = *c.value
		}
		got, err := ParseDeletionCost(ann)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("ParseDeletionCost(%q) = %d, %v; want %d, err %v", label, got, err, c.want, c.wantErr)
		}
		if err != nil && !errors.Is(err, ErrInvalidDeletionCost) {
			t.Errorf("error %v is not ErrInvalidDeletionCost", err)
		}
	}
}

// TestLogBucketExamples checks the worked examples in LogBucket's doc comment.
func TestLogBucketExamples(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		age  time.Duration
		want int
	}{
		{10 * time.Second, 33}, {100 * time.Second, 36}, {120 * time.Second, 36},
		{5 * time.Hour, 44}, {8 * time.Hour, 44}, {0, -1}, {-time.Second, -1},
		{1, 0}, {2, 1}, {3, 1}, {4, 2},
	}
	for _, c := range cases {
		if got := LogBucket(now, now.Add(-c.age)); got != c.want {
			t.Errorf("LogBucket(age %v) = %d, want %d", c.age, got, c.want)
		}
	}
}

func TestCompareReportsDecidingRule(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	readyPod := func(name, uid, node string, readyAgo time.Duration) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID(uid), CreationTimestamp: metav1.NewTime(now.Add(-time.Hour))},
			Spec:       corev1.PodSpec{NodeName: node},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{
				Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-readyAgo)),
			}}},
		}
	}
	cases := []struct {
		name      string
		a, b      *corev1.Pod
		rankA     int
		rankB     int
		wantRule  RankRule
		wantFirst bool
	}{
		{"unscheduled", readyPod("a", "1", "", time.Minute), readyPod("b", "2", "n", time.Minute), 1, 1, RuleUnscheduled, true},
		{"colocation", readyPod("a", "1", "n", time.Minute), readyPod("b", "2", "m", time.Minute), 1, 3, RuleColocation, false},
		{"ready bucket", readyPod("a", "1", "n", 10*time.Second), readyPod("b", "2", "n", 120*time.Second), 1, 1, RuleReadyTime, true},
		{"ready uid", readyPod("a", "z", "n", 100*time.Second), readyPod("b", "y", "n", 120*time.Second), 1, 1, RuleReadyTimeUID, false},
		// UIDs alike in their first 8 bytes: the rest decides.
		{"ready long uid", readyPod("a", "0123456789-b", "n", 100*time.Second), readyPod("b", "0123456789-a", "n", 120*time.Second), 1, 1, RuleReadyTimeUID, false},
		{"ready uid prefix of other", readyPod("a", "01234567", "n", 100*time.Second), readyPod("b", "012345678", "n", 120*time.Second), 1, 1, RuleReadyTimeUID, true},
		{"tie", readyPod("a", "1", "n", time.Minute), readyPod("b", "2", "n", time.Minute), 1, 1, RuleTie, false},
	}
	for _, c := range cases {
		s := ActivePodsWithRanks{Pods: []*corev1.Pod{c.a, c.b}, Rank: []int{c.rankA, c.rankB}, Now: now}
		rule, first := s.Compare(0, 1)
		if rule != c.wantRule || first != c.wantFirst {
			t.Errorf("%s: Compare = %v,%v; want %v,%v", c.name, rule, first, c.wantRule, c.wantFirst)
		}
	}
}

// The UID order a ranking uses (prefixes first, then the UIDs) is the
// lexical order of the UIDs, for UIDs that differ early, late, only in
// length, or by zero bytes.
func TestUIDOrderIsLexical(t *testing.T) {
	uids := []types.UID{"", "a", "a\x00", "a\x00\x00", "ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefgi",
		"3c1f1a8e-8b0e-4b8e-9d3f-1f2e3d4c5b6a", "3c1f1a8e-8b0e-4b8e-9d3f-1f2e3d4c5b6b", "3c1f1a8f", "\xff\xff\xff\xff\xff\xff\xff\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\x00"}
	for _, a := range uids {
		for _, b := range uids {
			s := ActivePodsWithRanks{Pods: []*corev1.Pod{{ObjectMeta: metav1.ObjectMeta{UID: a}}, {ObjectMeta: metav1.ObjectMeta{UID: b}}}}
			ka, kb := rankKey{uidPrefix: uidPrefix(a)}, rankKey{uidPrefix: uidPrefix(b)}
			if got, want := s.lowerUID(0, 1, &ka, &kb), a < b; got != want {
				t.Errorf("lowerUID(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

func TestSidecarRestartsOnlyCountAlwaysInitContainers(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	p := &corev1.Pod{
		Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init"}, {Name: "side", RestartPolicy: &always}}},
		Status: corev1.PodStatus{
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "a", RestartCount: 2}, {Name: "b", RestartCount: 5}},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", RestartCount: 9}, {Name: "side", RestartCount: 3}},
		},
	}
	if r, s := maxRestarts(p); r != 5 || s != 3 {
		t.Fatalf("maxRestarts = %d, %d; want 5, 3", r, s)
	}
}

func TestRankRuleString(t *testing.T) {
	seen := map[string]bool{}
	for r := RuleTie; r <= RuleCreationTimeUID; r++ {
		s := r.String()
		if s == "unknown" || seen[s] {
			t.Errorf("rule %d has name %q", r, s)
		}
		seen[s] = true
	}
	if RankRule(200).String() != "unknown" {
		t.Error("out-of-range rule")
	}
}

func ptr[T any](v T) *T { return &v }

// An age knows the zero time, and only it, as zero.
func TestAgeZero(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		t    time.Time
		zero bool
	}{{time.Time{}, true}, {time.Unix(0, 0), false}, {time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), false}, {now.Add(-time.Second), false}} {
		if got := ageOf(now, c.t).isZero(); got != c.zero {
			t.Errorf("ageOf(%v).isZero() = %v, want %v", c.t, got, c.zero)
		}
	}
	if unsafe.Sizeof(rankKey{}) != 56 {
		t.Errorf("rankKey is %d bytes, not 56", unsafe.Sizeof(rankKey{}))
	}
}
