#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Turn one of our Documentation/*.txt pages into a man page (roff) on stdout.
#
# The page format (a small asciidoc subset):
#   line 1: "tperf-stat(1)", line 2: "====="
#   "NAME" followed by a "----" line starts a section
#   "TERM::" lines (one or more) start a definition; its text follows,
#     indented by a tab; a blank line ends the paragraph
#   a title is a line starting with a capital letter underlined by a
#     "----" line of its length ("OPTIONS (show and report)", "BUILD-ID
#     CACHE"); an all-capitals title may have an underline of any length
#   a "----" line alone opens or closes a literal block (examples)
#   "[verse]" before a block keeps its line breaks (SYNOPSIS)
#   "+" alone in a definition's text starts another paragraph of it
#   `text` is set in bold, and so is *text* outside such a span (when the
#     stars open and close a word); a span may run over several lines of a
#     paragraph, whose lines are therefore formatted together
# Usage: txt2man.sh VERSION < page.txt > page.1
version=${1:-0}
awk -v version="$version" '
function esc(s) {
	gsub(/\\/, "\\e", s)
	if (s ~ /^[.\x27]/) s = "\\&" s
	return s
}
# *bold* words: a star that opens (at the start or after a non-word
# character, before a non-blank) and one that closes (after a non-blank,
# before a non-word character or the end); other stars stay as they are
function stars(s,    out, i, j, rest, k) {
	out = ""
	while (match(s, /(^|[^A-Za-z0-9_*\\])\*[^* \t\n]/)) {
		i = RSTART + RLENGTH - 2	# the opening star
		rest = substr(s, i + 1)
		j = 0
		while ((k = index(substr(rest, j + 1), "*")) > 0) {
			j += k
			if (j > 1 && substr(rest, j - 1, 1) !~ /[ \t\n]/ &&
			    substr(rest, j + 1, 1) !~ /[A-Za-z0-9_]/)
				break
		}
		if (k == 0) break
		out = out substr(s, 1, i - 1) "\\fB" substr(rest, 1, j - 1) "\\fR"
		s = substr(rest, j + 1)
	}
	return out s
}
# `code` spans in bold, their text as it is (stars included); a backtick
# without a partner stays a backtick
function inline(s,    out, i, j) {
	out = ""
	while ((i = index(s, "`")) > 0) {
		j = index(substr(s, i + 1), "`")
		if (j <= 1) break
		out = out stars(substr(s, 1, i - 1)) "\\fB" substr(s, i + 1, j - 1) "\\fR"
		s = substr(s, i + j + 1)
	}
	return out stars(s)
}
# the running text of a paragraph goes out at once, so that a span can
# cross its lines (each line escaped by esc() as it is added)
function flush() {
	if (para != "") print inline(para)
	para = ""
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
	literal = 0; verse = 0; para = ""
	for (i = 1; i <= n; i++) {
		l = line[i]
		if (!literal && i < n && line[i + 1] ~ /^-+$/ && l ~ /^[A-Z]/ &&
		    (l ~ /^[A-Z][A-Z ]*$/ || length(l) == length(line[i + 1]))) {
			flush()
			printf ".SH \"%s\"\n", l; i++; continue
		}
		if (l ~ /^----+$/) {
			flush()
			if (!literal) { print ".PP\n.RS 4\n.nf"; literal = 1 }
			else { print ".fi\n.RE"; literal = 0 }
			continue
		}
		if (literal) { print esc(l); continue }
		if (l == "[verse]") { flush(); print ".nf"; verse = 1; continue }
		if (verse) {
			if (l == "") { print ".fi"; verse = 0; continue }
			print inline(esc(l)); continue
		}
		if (l ~ /::$/) {
			flush()
			term = substr(l, 1, length(l) - 2)
			terms = inline(esc(term))
			while (i < n && line[i + 1] ~ /::$/) {
				i++; t = line[i]; terms = terms ", " inline(esc(substr(t, 1, length(t) - 2)))
			}
			printf ".TP\n\\fB%s\\fR\n", terms
			continue
		}
		if (l == "") { flush(); print ".PP"; continue }
		if (l == "+") { flush(); print ".IP"; continue }
		sub(/^\t+/, "", l)
		para = para (para == "" ? "" : "\n") esc(l)
	}
	flush()
	if (verse) print ".fi"
}'
