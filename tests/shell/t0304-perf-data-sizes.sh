#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# perf.data files whose declared sizes ask for far more memory than they
# hold (tests/shell/mk-perf-data-sized.py): an AUXTRACE record's payload of
# 2.2 GiB after a 568-byte file, a TRACING_DATA record's of 4 GiB, 2000
# events naming one section of ids, a COMPRESSED or COMPRESSED2 record
# that expands to 1 GiB.  The reader allocates only what the input shows it holds (a
# file's bytes left; a pipe's bytes as they come), skips an AUXTRACE
# payload without reading it, and expands records as they are taken: each
# file ends with a warning or an error naming the offset, under a 300 MB
# memory limit (test_limit_memory), never with an allocation failure.
. "$(dirname "$0")/lib.sh"

MK=$TESTS_DIR/shell/mk-perf-data-sized.py
python3 "$TESTS_DIR/shell/mk-perf-data.py" "$TRASH/base.data" /bin/true 10 20 30 ||
	fail_all "cannot write the base perf.data"
# the offset after base.data's records (in a file; 0x60 less in pipe mode)
END=0x208
PEND=0x1a8

lim() { test_limit_memory 300 "$@"; }
# mk NAME ARGS...: $TRASH/NAME.data (file mode) and NAME-pipe.data (pipe mode)
mk() {
	local name=$1
	shift
	python3 "$MK" "$TRASH/base.data" "$TRASH/$name.data" "$@" &&
	python3 "$MK" "$TRASH/base.data" "$TRASH/$name-pipe.data" --pipe "$@"
}

# run CMD... on IN (a file, or "-": t.data through a pipe) under the limit
run() {
	local in=$1
	shift
	if [ "$in" = - ]; then
		cat t.data | lim "$TPERF" "$@" -i -
	else
		lim "$TPERF" "$@" -i "$in"
	fi
}

test_expect_success 'setup: the files, the records of base.data as script prints them' '
	mk aux auxtrace 0x8ccccccc &&
	mk auxfull auxtrace 3000000 3000000 &&
	mk auxpart auxtrace 3000000 100000 &&
	mk tracing tracing 0xfffffff0 &&
	mk zstd zstd 0x40000000 &&
	mk zstd2 zstd2 0x40000000 &&
	python3 "$MK" "$TRASH/base.data" "$TRASH/ids.data" ids 2000 &&
	"$TPERF" script -i "$TRASH/base.data" >"$TRASH/base.out" &&
	test $(wc -l <"$TRASH/base.out") = 3
'

aux="AUXTRACE payload (2362232012 bytes declared"
for cmd in "report --stdio" script "script -D"; do
	test_expect_success "$cmd: an AUXTRACE payload of 2.2 GiB that the file lacks" '
		cp "$TRASH/aux.data" t.data &&
		run t.data $cmd >out 2>err &&
		echo "tperf: warning: '"'"'t.data'"'"': truncated record at offset $END: the file ends inside its $aux, 0 in the file); the 5 records before it were read" >expect &&
		grep -v "has no kernel map" err >actual &&
		test_cmp expect actual
	'

	for in in t.data -; do
		test_expect_success "$cmd -i $in (pipe mode): the stream ends in the AUXTRACE payload" '
			cp "$TRASH/aux-pipe.data" t.data &&
			run $in $cmd >out 2>err &&
			echo "tperf: warning: '"'"'$in'"'"': unexpected end of event stream at offset $PEND: inside its $aux, 0 read)" >expect &&
			grep -v "has no kernel map" err >actual &&
			test_cmp expect actual
		'
	done
done

test_expect_success 'an AUXTRACE payload of 3 MB, present: skipped, the records after it read' '
	sort "$TRASH/base.out" "$TRASH/base.out" >expect &&
	cp "$TRASH/auxfull.data" t.data &&
	run t.data script >out &&
	sort out >actual &&
	test_cmp expect actual &&
	cp "$TRASH/auxfull-pipe.data" t.data &&
	run t.data script >out &&
	sort out >actual &&
	test_cmp expect actual &&
	run - script >out &&
	sort out >actual &&
	test_cmp expect actual
'

test_expect_success 'an AUXTRACE payload of 3 MB, 100 KB of it present: file, pipe' '
	cp "$TRASH/auxpart.data" t.data &&
	run t.data script >out 2>err &&
	test_cmp "$TRASH/base.out" out &&
	echo "tperf: warning: '"'"'t.data'"'"': truncated record at offset $END: the file ends inside its AUXTRACE payload (3000000 bytes declared, 100000 in the file); the 5 records before it were read" >expect &&
	test_cmp expect err &&
	cp "$TRASH/auxpart-pipe.data" t.data &&
	run - script >out 2>err &&
	test_cmp "$TRASH/base.out" out &&
	echo "tperf: warning: '"'"'-'"'"': unexpected end of event stream at offset $PEND: inside its AUXTRACE payload (3000000 bytes declared, 100000 read)" >expect &&
	test_cmp expect err
'

test_expect_success 'a TRACING_DATA payload of 4 GiB, 8 bytes present: file, pipe mode, pipe' '
	cp "$TRASH/tracing.data" t.data &&
	run t.data script >out 2>err &&
	echo "tperf: warning: '"'"'t.data'"'"': truncated record at offset $END: the file ends inside its TRACING_DATA payload (4294967280 bytes declared, 8 in the file); the 5 records before it were read" >expect &&
	test_cmp expect err &&
	cp "$TRASH/tracing-pipe.data" t.data &&
	run t.data script >out 2>err &&
	echo "tperf: warning: '"'"'t.data'"'"': unexpected end of event stream at offset $PEND: inside its TRACING_DATA payload (4294967280 bytes declared, 8 read)" >expect &&
	test_cmp expect err &&
	run - script >out 2>err &&
	echo "tperf: warning: '"'"'-'"'"': unexpected end of event stream at offset $PEND: inside its TRACING_DATA payload (4294967280 bytes declared, 8 read)" >expect &&
	test_cmp expect err
'

for cmd in "report --stdio" script "script -D" evlist; do
	test_expect_success "$cmd: 2000 events naming one section of ids: an error, exit 1" '
		cp "$TRASH/ids.data" t.data &&
		test_expect_code 1 run t.data $cmd >out 2>err &&
		echo "tperf: '"'"'t.data'"'"': the ids of events 0 to 1 add up to more than the file'"'"'s $(stat -c %s t.data) bytes" >expect &&
		test_cmp expect err
	'
done

# COMPRESSED2 (perf >= 6.16) is expanded the same way, and named so
for z in zstd:COMPRESSED zstd2:COMPRESSED2; do
	name=${z%%:*} type=${z#*:}
	for cmd in "report --stdio" script "script -D"; do
		test_expect_success "$cmd: a $type record of 33 KB that expands to 1 GiB of zeros" '
			cp "$TRASH/$name.data" t.data &&
			test_expect_code 1 run t.data $cmd >out 2>err &&
			echo "tperf: '"'"'t.data'"'"': invalid record size 0 inside the $type record at offset $END" >expect &&
			test_cmp expect err &&
			cp "$TRASH/$name-pipe.data" t.data &&
			test_expect_code 1 run - $cmd >out 2>err &&
			echo "tperf: '"'"'-'"'"': invalid record size 0 inside the $type record at offset $PEND" >expect &&
			test_cmp expect err
		'
	done
done

test_done
