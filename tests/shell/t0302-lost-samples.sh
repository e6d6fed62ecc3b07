#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lost data: tperf record writes PERF_RECORD_LOST_SAMPLES (the kernel's
# PERF_FORMAT_LOST count of each fd, read at the end) as perf 6.1 does, and
# tperf report/script print perf's warnings about LOST and LOST_SAMPLES
# records, on tperf's files and on perf's.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq EVENTS 'test -e /proc/sys/kernel/perf_event_paranoid'
# PERF_FORMAT_LOST: kernel 5.15 and later
test_lazy_prereq LOSTFMT 'v=$(uname -r | sed "s/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/") &&
	set -- $v && [ "$1" -gt 5 -o \( "$1" -eq 5 -a "$2" -ge 15 \) ]'

# The recorder ($PPID of the workload) is stopped while the workload makes
# ~10 kHz of samples into a one-page ring, then goes on a little after it
# is woken: samples are lost (LOST_SAMPLES) and the kernel writes a LOST
# record when there is room again.
lossy='kill -STOP $PPID; i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done
kill -CONT $PPID; while [ $i -lt 150000 ]; do i=$((i+1)); done'

test_expect_success EVENTS,LOSTFMT 'record a lossy workload with tperf and perf' '
	tperf record -q -m 1 -e cpu-clock -c 100000 -o "$TRASH/t.data" -- sh -c "$lossy" &&
	if test_have_prereq PERF; then
		perf record -q -m 1 -e cpu-clock -c 100000 -o "$TRASH/p.data" -- sh -c "$lossy"
	fi
'

# how many LOST_SAMPLES records file $1 holds (one per fd that lost: the
# workload may have run on either CPU, or both)
lost_records() {
	perf script -D -i "$1" 2>/dev/null | grep -c "PERF_RECORD_LOST_SAMPLES: "
}

# the sum of the LOST_SAMPLES records of file $1, as perf -D shows them
lost_sum() {
	perf script -D -i "$1" 2>/dev/null |
	sed -n "s/.*PERF_RECORD_LOST_SAMPLES: .*lost samples :\([0-9]*\)$/\1/p" |
	awk "{ s += \$1 } END { print s + 0 }"
}

test_expect_success EVENTS,LOSTFMT,PERF 'tperf writes LOST_SAMPLES: perf reports the lost samples' '
	n=$(lost_sum "$TRASH/t.data") &&
	test "$n" -gt 0 &&
	perf report -i "$TRASH/t.data" --stdio 2>/dev/null | grep -x "# Total Lost Samples: [0-9]*" >actual &&
	echo "# Total Lost Samples: $n" >expect &&
	test_cmp expect actual &&
	perf report -i "$TRASH/t.data" --stats >stats &&
	grep -x "    LOST_SAMPLES events: *$(lost_records "$TRASH/t.data")  ( *[0-9.]*%)" stats &&
	grep -x "    LOST_SAMPLES events: *$n" stats
'

# (how many there are depends on the CPUs the workload ran on: their sizes)
test_expect_success EVENTS,LOSTFMT,PERF 'a LOST_SAMPLES record is laid out as perf writes it' '
	perf script -D -i "$TRASH/p.data" 2>/dev/null | grep -A3 "event: 13$" | sed -n "s/^\.  0000:  0d 00 00 00 00 00 \(..\) 00 .*/\1/p" | sort -u >expect &&
	perf script -D -i "$TRASH/t.data" 2>/dev/null | grep -A3 "event: 13$" | sed -n "s/^\.  0000:  0d 00 00 00 00 00 \(..\) 00 .*/\1/p" | sort -u >actual &&
	test -s expect &&
	test_cmp expect actual
'

# tperf's stderr equals perf's for command $1 on file $2.  Every file has
# lost samples; a LOST record (perf's "lost chunks") is written only when
# the kernel found room for it before the end, which the timing decides.
same_stderr() {
	perf $1 -i "$2" >/dev/null 2>expect &&
	tperf $1 -i "$2" >/dev/null 2>actual &&
	test_cmp expect actual
}

for f in t p; do
	test_expect_success EVENTS,LOSTFMT,PERF "report and script warn as perf on $f.data" '
		if perf report --stats -i "$TRASH/$f.data" | grep -q "^ *LOST events:"; then
			grep -q "^Processed [0-9]* events and lost [0-9]* chunks!$" <(perf report --stdio -i "$TRASH/$f.data" 2>&1 >/dev/null)
		fi &&
		grep -q "^Processed [0-9]* samples and lost [0-9.]*%!$" <(perf script -i "$TRASH/$f.data" 2>&1 >/dev/null) &&
		same_stderr "report --stdio" "$TRASH/$f.data" &&
		same_stderr "report --stdio -q" "$TRASH/$f.data" &&
		same_stderr "report --stats" "$TRASH/$f.data" &&
		same_stderr script "$TRASH/$f.data" &&
		same_stderr "script --show-lost-events" "$TRASH/$f.data"
	'

	test_expect_success EVENTS,LOSTFMT,PERF "report --stats counts LOST_SAMPLES per event as perf on $f.data" '
		perf report --stats -i "$TRASH/$f.data" >expect &&
		tperf report --stats -i "$TRASH/$f.data" >actual &&
		test_cmp expect actual
	'
done

# a file with both records, whatever this run's timing gave
test_expect_success 'LOST and LOST_SAMPLES of a stored perf file: perf'"'"'s warnings, lines, stats' '
	d="$DATA_DIR/lost-records" &&
	tperf report --stdio -i "$d/perf.data" >/dev/null 2>actual &&
	test_cmp "$d/expected-report-stderr.txt" actual &&
	tperf script -i "$d/perf.data" >/dev/null 2>actual &&
	test_cmp "$d/expected-script-stderr.txt" actual &&
	tperf script --show-lost-events -i "$d/perf.data" 2>/dev/null | grep -i lost >actual &&
	test_cmp "$d/expected-script-lost-lines.txt" actual &&
	tperf report --stats -i "$d/perf.data" >actual &&
	test_cmp "$d/expected-perf-report-stats.txt" actual
'

test_expect_success EVENTS,LOSTFMT 'the summary counts the lost samples once' '
	tperf record -m 1 -e cpu-clock -c 100000 -o t2.data -- sh -c "$lossy" 2>err &&
	sed -n "s/^tperf: warning: lost \([0-9]*\) samples out of .*/\1/p" err >actual &&
	test -s actual &&
	if test_have_prereq PERF; then
		lost_sum t2.data >expect &&
		test_cmp expect actual
	fi
'

test_done
