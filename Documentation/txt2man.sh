#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Turn one of our Documentation/*.txt pages into a man page (roff) on stdout.
#
# The page format (a small asciidoc subset):
#   line 1: "tperf-stat(1)", line 2: "====="
#   "NAME" followed by a "----" line starts a section
#   "TERM::" lines (one or more) start a definition; its text follows,
#     indented by a tab; a blank line ends the paragraph
#   a "----" line alone opens or closes a literal block (examples)
#   "[verse]" before a block keeps its line breaks (SYNOPSIS)
# Usage: txt2man.sh VERSION < page.txt > page.1
version=${1:-0}
awk -v version="$version" '
function esc(s) {
	gsub(/\\/, "\\e", s)
	if (s ~ /^[.\x27]/) s = "\\&" s
	return s
}
# wrap each span between the delimiter characters d in bold
function bold(s, d,    out, i, j) {
	out = ""
	while ((i = index(s, d)) > 0) {
		j = index(substr(s, i + 1), d)
		if (j <= 1) break
		out = out substr(s, 1, i - 1) "\\fB" substr(s, i + 1, j - 1) "\\fR"
		s = substr(s, i + j + 1)
	}
	return out s
}
function inline(s) {
	return bold(bold(esc(s), "`"), "*")
}
NR == 1 {
	title = $0; sub(/\(.*/, "", title); sec = $0; gsub(/.*\(|\).*/, "", sec)
	printf ".TH \"%s\" \"%s\" \"\" \"tperf %s\" \"tperf Manual\"\n", toupper(title), sec, version
	print ".nh\n.ad l"
	next
}
NR == 2 && /^=+$/ { next }
{ line[++n] = $0 }
END {
	literal = 0; verse = 0
	for (i = 1; i <= n; i++) {
		l = line[i]
		if (!literal && i < n && line[i + 1] ~ /^-+$/ && l ~ /^[A-Z][A-Z ]*$/) {
			printf ".SH \"%s\"\n", l; i++; continue
		}
		if (l ~ /^----+$/) {
			if (!literal) { print ".PP\n.RS 4\n.nf"; literal = 1 }
			else { print ".fi\n.RE"; literal = 0 }
			continue
		}
		if (literal) { print esc(l); continue }
		if (l == "[verse]") { print ".nf"; verse = 1; continue }
		if (verse) {
			if (l == "") { print ".fi"; verse = 0; continue }
			print inline(l); continue
		}
		if (l ~ /::$/) {
			term = substr(l, 1, length(l) - 2)
			terms = inline(term)
			while (i < n && line[i + 1] ~ /::$/) {
				i++; t = line[i]; terms = terms ", " inline(substr(t, 1, length(t) - 2))
			}
			printf ".TP\n\\fB%s\\fR\n", terms
			continue
		}
		if (l == "") { print ".PP"; continue }
		sub(/^\t+/, "", l)
		print inline(l)
	}
	if (verse) print ".fi"
}'
