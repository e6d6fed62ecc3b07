#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's symbols come from the build-id cache's copy of kallsyms when
# it places _text where the recording saw it, else from /proc/kallsyms.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq NOTES "test -r /sys/kernel/notes && grep -q ' _text$' /proc/kallsyms"

bid=$(od -An -tx1 -j16 -N20 /sys/kernel/notes 2>/dev/null | tr -d ' \n')
cache=$PWD/cache/.build-id/${bid:0:2}/${bid:2}

test_expect_success NOTES 'a recording with kernel samples' '
	tperf record -q -e cpu-clock -o "$TRASH/k.data" -- \
		dd if=/dev/zero of=/dev/null bs=4k count=200000 2>/dev/null &&
	PERF_BUILDID_DIR=$TRASH/none tperf report -i "$TRASH/k.data" --stdio -q --sort sym >"$TRASH/plain" &&
	sym=$(sed -n "s/^ *[0-9.]*%  \[k\] \([A-Za-z_][A-Za-z0-9_.]*\)$/\1/p" "$TRASH/plain" | head -1) &&
	test -n "$sym" && echo "$sym" >"$TRASH/sym"
'

test_expect_success NOTES 'the cached copy is used when _text is where it was recorded' '
	sym=$(cat "$TRASH/sym") && mkdir -p "$cache" &&
	sed "s/ $sym\$/ cached_$sym/" /proc/kallsyms >"$cache/kallsyms" &&
	PERF_BUILDID_DIR=$TRASH/cache tperf report -i "$TRASH/k.data" --stdio -q --sort sym >out &&
	sed "s/\[k\] $sym\$/[k] cached_$sym/" "$TRASH/plain" >expect &&
	test_cmp expect out
'

test_expect_success NOTES 'a copy from another boot (_text elsewhere) is not used' '
	sym=$(cat "$TRASH/sym") &&
	sed "s/ $sym\$/ cached_$sym/; s/^[0-9a-f]* \(T _text\)\$/ffffffff00000000 \1/" \
		/proc/kallsyms >"$cache/kallsyms" &&
	PERF_BUILDID_DIR=$TRASH/cache tperf report -i "$TRASH/k.data" --stdio -q --sort sym >out &&
	test_cmp "$TRASH/plain" out
'

test_expect_success NOTES 'a copy without _text, or an empty one, is not used' '
	sym=$(cat "$TRASH/sym") &&
	sed "s/ $sym\$/ cached_$sym/; / _text\$/d" /proc/kallsyms >"$cache/kallsyms" &&
	PERF_BUILDID_DIR=$TRASH/cache tperf report -i "$TRASH/k.data" --stdio -q --sort sym >out &&
	test_cmp "$TRASH/plain" out &&
	: >"$cache/kallsyms" &&
	PERF_BUILDID_DIR=$TRASH/cache tperf report -i "$TRASH/k.data" --stdio -q --sort sym >out &&
	test_cmp "$TRASH/plain" out
'

test_expect_success NOTES '--kallsyms wins over the cache' '
	sym=$(cat "$TRASH/sym") &&
	sed "s/ $sym\$/ cached_$sym/" /proc/kallsyms >"$cache/kallsyms" &&
	sed "s/ $sym\$/ given_$sym/" /proc/kallsyms >given &&
	PERF_BUILDID_DIR=$TRASH/cache tperf report -i "$TRASH/k.data" --stdio -q --sort sym \
		--kallsyms=given >out &&
	sed "s/\[k\] $sym\$/[k] given_$sym/" "$TRASH/plain" >expect &&
	test_cmp expect out
'

test_done
