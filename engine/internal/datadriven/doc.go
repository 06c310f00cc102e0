// Package datadriven runs readable golden tests in the style of
// cockroachdb/datadriven, written for this project.
//
// A test file is a sequence of test cases:
//
//	# comment lines and blank lines between cases are ignored
//	command arg1=value arg2=(a,b) flag
//	optional input lines
//	----
//	expected output
//	(ends at the first blank line; use "----" twice around output that
//	contains blank lines, closed by "----" "----")
//
// RunFile calls the handler for each case and compares its output with the
// expected text. Run tests with -rewrite to regenerate expected output in
// place; review every diff before committing it.
package datadriven
