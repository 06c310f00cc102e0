package scenario

import (
	"strconv"
	"strings"
)

// Notice is something Parse accepted that the user should know about: a
// document of a kind Rollout Lab does not simulate, an object replaced by a
// later one of the same name, server-written fields of pasted cluster
// output that were dropped or reinterpreted. Notices never stop a load.
type Notice struct {
	// Doc is the 1-based document index and Line the line of the document
	// or field concerned; 0 when the notice concerns the whole file.
	Doc  int `json:"doc,omitempty"`
	Line int `json:"line,omitempty"`
	// Kind and Name identify the object concerned, when there is one.
	Kind string `json:"kind,omitempty"`
	Name string `json:"name,omitempty"`
	// Code classifies the notice: see the Notice* constants.
	Code string `json:"code"`
	// Message says what happened, in a full sentence without position.
	Message string `json:"message"`
}

// Notice codes.
const (
	// NoticeIgnored: a document of a kind that is not simulated.
	NoticeIgnored = "ignored"
	// NoticeReplaced: a later object of the same kind, namespace and name
	// replaces an earlier one, as a second `kubectl apply` configures it.
	NoticeReplaced = "replaced"
	// NoticeDefaultScenario: the file has no Scenario document; defaults
	// are used.
	NoticeDefaultScenario = "default-scenario"
	// NoticeLive: server-written fields of live cluster output were kept
	// as the initial state, or reinterpreted (UIDs, timestamps, nodes).
	NoticeLive = "live"
	// NoticeStripped: server-written fields were dropped (spec-only mode,
	// or fields the simulation never keeps such as managedFields).
	NoticeStripped = "stripped"
	// NoticeLimit: a rolling update of a Deployment may need more pods at
	// once than the pod limit allows; such a rollout stops at the limit.
	NoticeLimit = "limit"
	// NoticePaused: a Deployment starts paused.
	NoticePaused = "paused"
)

// NoticeText renders `document 2, line 14: Service/web: message`, leaving
// out the unknown parts. (A function, not a String method, so that the wasm
// bridge, which sends notices as JSON, does not carry it.)
func NoticeText(n Notice) string {
	var pos []string
	if n.Doc > 0 {
		pos = append(pos, "document "+strconv.Itoa(n.Doc))
	}
	if n.Line > 0 {
		pos = append(pos, "line "+strconv.Itoa(n.Line))
	}
	var b strings.Builder
	if len(pos) > 0 {
		b.WriteString(strings.Join(pos, ", "))
		b.WriteString(": ")
	}
	if n.Kind != "" {
		b.WriteString(n.Kind)
		if n.Name != "" {
			b.WriteString("/" + n.Name)
		}
		b.WriteString(": ")
	}
	b.WriteString(n.Message)
	return b.String()
}

// notify records a notice.
func (p *parser) notify(n Notice) { p.notices = append(p.notices, n) }
