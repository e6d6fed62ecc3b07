#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layering of util/ (Documentation/design.md, "Layout"): a folder
# includes only headers of its own folder and of folders below it.  Each
# folder has a level; lib is the bottom.  Folders of one level do not
# include each other.  Prints FILE:LINE: what for each include that goes
# up or sideways, and for a util/ folder without a level; exits 1 then.
#
# Usage: tests/shell/check-layers.sh [SRCDIR]
cd "${1:-$(dirname "$0")/../..}" || exit 1
LEVELS="lib:0 event:1 perf-data:2 symbol:3 model:4 unwind:5 trace:5
report:6 stat:6 record:6 probe:6 convert:6 api:7"
out=$(
	for d in util/*/; do
		d=${d#util/}; d=${d%/}
		echo "$LEVELS" | tr ' ' '\n' | grep -q "^$d:" ||
			echo "util/$d: a folder without a level in check-layers.sh"
	done
	grep -Hn '^[ \t]*#[ \t]*include[ \t]*"util/[^/"]*/' util/*/*.[ch] | awk -v levels="$LEVELS" '
	BEGIN {
		n = split(levels, l, /[ \n]+/)
		for (i = 1; i <= n; i++) { split(l[i], kv, ":"); lvl[kv[1]] = kv[2] }
	}
	{
		split($0, p, ":")
		file = p[1]; line = p[2]
		split(file, fp, "/"); from = fp[2]
		inc = $0; sub(/^[^"]*"util\//, "", inc); split(inc, ip, "/"); to = ip[1]
		if (from == to || !(to in lvl) || !(from in lvl))
			next
		if (lvl[to] > lvl[from])
			printf "%s:%s: %s (level %d) includes util/%s/ above it (level %d)\n", file, line, from, lvl[from], to, lvl[to]
		else if (lvl[to] == lvl[from])
			printf "%s:%s: %s includes util/%s/ beside it (both level %d)\n", file, line, from, to, lvl[to]
	}'
)
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
