#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The test-honesty rules of tests/shell/lib.sh, checked on the shell test
# files given (t0052-source-checks.sh runs it on the tree, and on planted
# defects to show that it finds each).  Prints one line per defect,
# FILE:LINE: what; exits 1 when there is one.
#
#  - a test must be able to fail: `|| exit 0`, `|| return 0`, `|| true` or
#    `|| :` ending a line turn a failure into a pass, so each needs a
#    comment on the line above saying why it is not one;
#  - a prerequisite (test_lazy_prereq, or the condition of skip_all) tests
#    the machine, never tperf: when tperf breaks, its tests must fail, not
#    skip.
[ $# -gt 0 ] || { echo "usage: $0 FILE..." >&2; exit 129; }
out=$(awk '
FNR == 1 { prev = ""; inprereq = 0 }
{
	line = $0
	if (line ~ /\|\|[ \t]*(exit 0|return 0|true|:)[ \t]*(&&|;)?[ \t]*$/ &&
	    prev !~ /^[ \t]*#/)
		printf "%s:%d: \"%s\" turns a failure into a pass (say why in a comment above, or let it fail)\n",
			FILENAME, FNR, line
	if (line ~ /^[ \t]*test_lazy_prereq[ \t]/)
		inprereq = 1
	# the condition of a skip_all may be on the line before, ending in ||
	cond = line
	if (line ~ /skip_all/ && prev ~ /\|\|[ \t]*$/)
		cond = prev " " line
	if ((inprereq || line ~ /skip_all/) &&
	    cond ~ /(\$TPERF([^_A-Za-z0-9]|$)|\$\{TPERF\}|(^|[^-_a-zA-Z0-9\/.\x27"])tperf[ \t])/)
		printf "%s:%d: a prerequisite runs tperf (test the machine, never tperf)\n", FILENAME, FNR
	# a prerequisite ends on the line that closes its quote
	if (inprereq && line ~ /\x27[ \t]*$/ &&
	    line !~ /^[ \t]*test_lazy_prereq[ \t]+[A-Z0-9_]+[ \t]+\x27[^\x27]*$/)
		inprereq = 0
	prev = line
}' "$@")
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
