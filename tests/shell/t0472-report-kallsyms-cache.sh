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

# the cache is not a file the user named: what is not a regular file there
# (a FIFO would block open() until a writer came) is passed over
test_expect_success NOTES 'a FIFO or a folder as the cached copy is passed over, without waiting' '
	rm -f "$cache/kallsyms" && mkfifo "$cache/kallsyms" &&
	PERF_BUILDID_DIR=$TRASH/cache timeout 20 "$TPERF" report -i "$TRASH/k.data" --stdio -q \
		--sort sym >out &&
	test_cmp "$TRASH/plain" out &&
	rm "$cache/kallsyms" && mkdir "$cache/kallsyms" &&
	PERF_BUILDID_DIR=$TRASH/cache timeout 20 "$TPERF" report -i "$TRASH/k.data" --stdio -q \
		--sort sym >out &&
	test_cmp "$TRASH/plain" out &&
	rmdir "$cache/kallsyms"
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

# A file that is not one, or never ends: refused or bounded (it grew to
# gigabytes on /dev/zero).  /dev/null is an empty one, as for perf.
test_expect_success NOTES '--kallsyms: a missing file, a device, a directory are errors' '
	for cmd in "report --stdio" script; do
		case $cmd in report*) rc=234 ;; *) rc=255 ;; esac &&
		test_expect_code $rc tperf $cmd -i "$TRASH/k.data" --kallsyms=nosuch >/dev/null 2>err &&
		echo "tperf: cannot read the --kallsyms file '"'"'nosuch'"'"': No such file or directory" >expect &&
		test_cmp expect err &&
		for f in /dev/zero "$TRASH"; do
			test_expect_code $rc tperf $cmd -i "$TRASH/k.data" --kallsyms=$f >/dev/null 2>err &&
			echo "tperf: the --kallsyms file '"'"'$f'"'"' is not a regular file" >expect &&
			test_cmp expect err || return 1
		done || return 1
	done &&
	tperf report -i "$TRASH/k.data" --stdio -q --sort sym --kallsyms=/dev/null >out 2>err &&
	grep -q "\[k\] 0xffff" out
'

test_expect_success NOTES '--kallsyms: a pipe of endless zeros is refused at its first read' '
	mkfifo zeros &&
	# the writer gives up if nobody reads (it blocks in open() until then)
	{ timeout 60 sh -c "head -c 2G /dev/zero >zeros" 2>/dev/null & } &&
	/usr/bin/time -f "%M" -o rss "$TPERF" report -i "$TRASH/k.data" --stdio -q --sort sym \
		--kallsyms=zeros >out 2>err &&
	wait &&
	echo "peak RSS: $(cat rss) KB" &&
	test "$(cat rss)" -lt 200000 &&
	grep -q "\[k\] 0xffff" out
'

test_done
