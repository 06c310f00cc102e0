package kubectl

import (
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/duration"
)

// newTableWriter returns the tab writer `kubectl get` prints tables with
// (min width 6, tab width 4, padding 3, spaces).
func newTableWriter(b *strings.Builder) *tabwriter.Writer {
	return tabwriter.NewWriter(b, 6, 4, 3, ' ', 0)
}

// newDescribeWriter returns the tab writer `kubectl describe` and `rollout
// history` use (min width 0, tab width 8, padding 2, spaces).
func newDescribeWriter(b *strings.Builder) *tabwriter.Writer {
	return tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
}

// age renders the time since t as kubectl's AGE column does: "<unknown>"
// for the zero time, else the human duration ("0s", "59s", "2m30s", "10m",
// "3h15m", "2d5h", "400d", "3y10d"...).
//
// Example: age(now-150s, now) = "2m30s"; age(now-11700s, now) = "3h15m".
func age(t metav1.Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(t.Time))
}

// joinOrNone joins items with sep, or gives "<none>" for none.
func joinOrNone(items []string, sep string) string {
	if len(items) == 0 {
		return "<none>"
	}
	return strings.Join(items, sep)
}
