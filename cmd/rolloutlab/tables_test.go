package main

import "testing"

// The example in prefixNames' doc comment, and kubectl's alignment rules:
// columns at least 6 wide, three spaces between them, the last unpadded.
func TestPrefixNames(t *testing.T) {
	tests := []struct {
		table, prefix, want string
	}{
		{
			"NAME   READY   STATUS\ntest   1/1     Running\n", "pod/",
			"NAME       READY   STATUS\npod/test   1/1     Running\n",
		},
		{
			"NAME    READY   STATUS             RESTARTS     AGE\n" +
				"web-1   0/1     CrashLoopBackOff   3 (2m ago)   5m\n", "pod/",
			"NAME        READY   STATUS             RESTARTS     AGE\n" +
				"pod/web-1   0/1     CrashLoopBackOff   3 (2m ago)   5m\n",
		},
	}
	for _, tc := range tests {
		if got := prefixNames(tc.table, tc.prefix); got != tc.want {
			t.Errorf("prefixNames:\n%s\nwant:\n%s", got, tc.want)
		}
	}
}
