#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The mutable state of the build (Documentation/design.md, "State"): every
# writable global or file-scope static of libtperf-internal.a, perf.o and the
# builtin-*.o must be on tests/shell/globals.allow with its reason, and
# every entry of the list must still exist.  Prints OBJECT SYMBOL: what for
# each difference; exits 1 then.
#
# Writable means in .bss, .data, .tbss or .tdata (and the .data.rel.local
# of a PIC build), the sections nm marks B/b/D/d.  Tables in .data.rel.ro
# (nm also says d for them: const data holding pointers, only written by
# the loader) and .rodata are not state.  A function's static carries a
# number the compiler picks (names.0); the list names it without it.
#
# Usage: tests/shell/check-globals.sh [BUILDDIR [ALLOWLIST]]
dir=${1:-$(dirname "$0")/../..}
allow=${2:-$(dirname "$0")/globals.allow}
[ -f "$dir/libtperf-internal.a" ] || { echo "$dir/libtperf-internal.a: no such file (build first)"; exit 1; }
[ -f "$allow" ] || { echo "$allow: no such file"; exit 1; }
objs=$(ls "$dir/libtperf-internal.a" "$dir"/perf.o "$dir"/builtin-*.o 2>/dev/null)

# OBJECT SYMBOL for each writable data symbol
found=$(objdump -t $objs | awk '
	/^In archive/ { next }
	/file format/ {
		obj = $1; sub(/:$/, "", obj); sub(/\)$/, "", obj); sub(/.*[(\/]/, "", obj)
		next
	}
	index($0, "\t") {
		left = substr($0, 1, index($0, "\t") - 1)
		n = split(left, w, " "); sec = w[n]
		if (sec !~ /^(\.bss|\.data|\.tbss|\.tdata)/ || sec ~ /^\.data\.rel\.ro/)
			next
		name = $NF
		# section symbols and what the sanitizers add
		if (name ~ /^\./ || name ~ /^_*(asan|ubsan|sancov|lsan|odr_asan)/ || name == sec)
			next
		sub(/\.[0-9]+$/, "", name)
		print obj, name
	}' | sort -u)
listed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$allow" | awk '{ print $1, $2 }' | sort -u)

out=$(
	printf '%s\n' "$found" | grep -vxF -f /dev/fd/3 3<<EOF | sed '/^$/d; s/$/: mutable global or static not on globals.allow (make it object state, or list it with a reason)/'
$listed
EOF
	printf '%s\n' "$listed" | grep -vxF -f /dev/fd/3 3<<EOF | sed '/^$/d; s/$/: on globals.allow but no longer in the build (remove the line)/'
$found
EOF
)
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
