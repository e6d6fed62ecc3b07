#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The files report and script read whole or line by line besides
# --kallsyms (t0472): the build-id cache's copy of kallsyms, a JIT map
# (/tmp/perf-PID.map, named by the recording), the sources -F srccode
# shows.  A kallsyms of more than 256 MB is not read (a 3 GB file was
# mapped and parsed whole), and a JIT map or a source only when it is a
# regular file (/dev/zero was read until memory ran out, a FIFO blocked
# for ever).  Each run has a 500 MB
# memory limit and a timeout (test_limit_memory), so that a reader that
# grows without bound or blocks fails fast.
. "$(dirname "$0")/lib.sh"
test_lazy_prereq CC 'command -v cc'

F=$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8
[ -r "$F" ] || fail_all "missing fixture $F"
# the build-id of the kernel F recorded (its BUILD_ID feature)
KBID=635d9e4f686bf3b5adf08d7a735a5260899b17a6

limited() { test_limit_memory 500 "$@"; }

truncate -s 3G "$TRASH/big" || fail_all "cannot make the sparse file"

# The recorded kernel is not this one: report takes the cache's copy, and
# says why it does not when that copy is no kallsyms
test_expect_success "the build-id cache's kallsyms of 3 GB: a warning, not read" '
	k=$TRASH/cache/.build-id/${KBID:0:2}/${KBID:2} &&
	mkdir -p $k && ln -s "$TRASH/big" $k/kallsyms &&
	PERF_BUILDID_DIR=$TRASH/cache limited "$TPERF" report -i "$F" --stdio >out 2>err &&
	echo "tperf: warning: no kernel symbols: '"'"'$k/kallsyms'"'"' is larger than 256 MB" >expect &&
	test_cmp expect err &&
	"$TPERF" report -i "$F" --stdio --kallsyms /dev/null >expect &&
	test_cmp expect out
'

# mk-perf-data.py: one sample in an executable mapping of a file named
# /tmp/perf-*; report reads it as a JIT map (the name is where perf looks)
test_expect_success 'a JIT map that is a FIFO or /dev/zero: not read' '
	J=$(mktemp -d /tmp/perf-tperf-test.XXXXXX) &&
	test_when_finished "rm -rf $J" &&
	echo "7f0000000000 100 jitted_fn" >$J/map &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" jit.data "$J/map" 10 &&
	limited "$TPERF" report -i jit.data --stdio -q --sort sym >expect &&
	grep -q "jitted_fn" expect &&
	rm $J/map && mkfifo $J/map &&
	limited "$TPERF" report -i jit.data --stdio -q --sort sym >out &&
	grep -q "\[\.\] 0x00007f0000000010" out &&
	limited "$TPERF" report -v -i jit.data --stdio --sort sym >/dev/null 2>err &&
	grep -Fqx "no symbols for '"'"'$J/map'"'"': not a regular file" err &&
	rm $J/map && ln -s /dev/zero $J/map &&
	limited "$TPERF" report -i jit.data --stdio -q --sort sym >actual &&
	test_cmp out actual
'

test_expect_success CC '-F srccode of a source that became a FIFO or /dev/zero: no text' '
	echo "int main(void) { return 0; }" >s.c &&
	cc -g -O0 -o prog s.c &&
	main=$(nm prog | sed -n "s/^0*\([0-9a-f]*\) T main$/\1/p") &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" s.data "$PWD/prog" $main &&
	limited "$TPERF" script -i s.data -F ip,sym,srccode >expect &&
	grep -q "int main(void)" expect &&
	mv s.c s.c.orig && mkfifo s.c &&
	limited "$TPERF" script -i s.data -F ip,sym,srccode >fifo &&
	rm s.c && ln -s /dev/zero s.c &&
	limited "$TPERF" script -i s.data -F ip,sym,srccode >zero &&
	rm s.c &&
	"$TPERF" script -i s.data -F ip,sym,srccode >none &&
	! grep -q "int main" none &&
	test_cmp none fifo &&
	test_cmp none zero
'

test_done
