package workqueue

// Reason is why a key was added, kept in three parts whose concatenation
// is the text: Prefix and Suffix are fixed wording and Subject, between
// them, the variable part, usually the name of the object that changed
// (Because("pod ", name, " updated")). Adding with a Reason builds no
// string: the queue keeps the parts, the trace stores each of them
// (fixed wording and names are already in its string table), and the text
// is built only when a worker or a reader of the trace asks for it. A
// plain string reason is a Reason with that Prefix alone.
type Reason struct {
	Prefix, Subject, Suffix string
}

// Because returns the reason prefix + subject + suffix.
func Because(prefix, subject, suffix string) Reason {
	return Reason{Prefix: prefix, Subject: subject, Suffix: suffix}
}

// String returns the reason's text.
func (r Reason) String() string {
	if r.Subject == "" && r.Suffix == "" {
		return r.Prefix
	}
	return r.Prefix + r.Subject + r.Suffix
}

// empty reports whether the text is "".
func (r Reason) empty() bool { return r.Prefix == "" && r.Subject == "" && r.Suffix == "" }

// len is the length of the text.
func (r Reason) len() int { return len(r.Prefix) + len(r.Subject) + len(r.Suffix) }

// sameText reports whether r and o read the same, building their texts
// only when they are split differently yet as long (which the callers,
// whose reasons of one wording share their prefix and suffix, never do).
func (r Reason) sameText(o Reason) bool {
	if r.Prefix == o.Prefix && r.Suffix == o.Suffix {
		return r.Subject == o.Subject
	}
	return r.len() == o.len() && r.String() == o.String()
}
