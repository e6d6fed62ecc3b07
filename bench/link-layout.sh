#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Start-up cost of the two ways to link tperf's libraries: all shared
# (STATIC_LIBS=0) and the Makefile's default (static archives where they
# exist).  Links bench/link-probe.c, which references every library, both
# ways and times each RUNS times, alternately.  See bench/README.md.
#
# Usage: bench/link-layout.sh     Environment: RUNS (default 2000)
cd "$(dirname "$0")/.." || exit 1
RUNS=${RUNS:-2000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
$CC -O2 -o "$tmp/exec-time" bench/exec-time.c || exit 1

for mode in 0 1; do
	cflags=$(make -s --no-print-directory print-CFLAGS STATIC_LIBS=$mode)
	ldflags=$(make -s --no-print-directory print-LDFLAGS STATIC_LIBS=$mode)
	ldlibs=$(make -s --no-print-directory print-LDLIBS STATIC_LIBS=$mode)
	# shellcheck disable=SC2086
	$CC $cflags $ldflags -o "$tmp/probe$mode" bench/link-probe.c $ldlibs || exit 1
	echo "STATIC_LIBS=$mode: $(ldd "$tmp/probe$mode" | grep -c '=>') shared libraries," \
	     "$(stat -c %s "$tmp/probe$mode") bytes"
done
"$tmp/exec-time" "$RUNS" "$tmp/probe0" --- "$tmp/probe1" --- /bin/true >"$tmp/t" || exit 1
"$tmp/exec-time" "$RUNS" /bin/true >"$tmp/true" || exit 1
show() {
	label=$1
	set -- $2
	awk -v l="$label" -v m="$1" -v n="$2" 'BEGIN { printf "%-16s median %.3f ms  min %.3f ms\n", l, m / 1000, n / 1000 }'
}
show "all shared:" "$(sed -n 1p "$tmp/t")"
show "static archives:" "$(sed -n 2p "$tmp/t")"
show "/bin/true:" "$(cat "$tmp/true")"
