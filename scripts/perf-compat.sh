#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What of Linux perf's command line tperf does not take yet: the commands
# perf lists and tperf does not, and for each command both have, the long
# options perf's --list-opts prints and tperf's does not.  Markdown on
# stdout; Documentation/perf-compat.md holds this output between its
# "generated" markers, and t0053-perf-compat.sh keeps the two equal.
#
# Usage: scripts/perf-compat.sh [TPERF [PERF]]
TPERF=${1:-${TPERF:-./tperf}}
PERF=${2:-perf}
LC_ALL=C
export LC_ALL
"$PERF" --version >/dev/null 2>&1 || { echo "perf-compat: no '$PERF'" >&2; exit 1; }

words() { tr ' ' '\n' | sed '/^$/d' | sort -u; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/perf-compat.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$PERF" --list-cmds | words >"$tmp/perf.cmds"
"$TPERF" --list-cmds | words >"$tmp/tperf.cmds"

echo "### Commands"
echo
comm -23 "$tmp/perf.cmds" "$tmp/tperf.cmds" | sed 's/.*/- `&`/'
echo
echo "### Options of the commands both have"
for c in $(comm -12 "$tmp/perf.cmds" "$tmp/tperf.cmds"); do
	"$PERF" "$c" --list-opts 2>/dev/null | words >"$tmp/p"
	"$TPERF" "$c" --list-opts 2>/dev/null | words >"$tmp/t"
	[ -s "$tmp/p" ] || continue
	missing=$(comm -23 "$tmp/p" "$tmp/t" | sed 's/.*/`&`/' | paste -sd' ' -)
	echo
	if [ -n "$missing" ]; then
		echo "- $c: $missing"
	else
		echo "- $c: (none)"
	fi
done
