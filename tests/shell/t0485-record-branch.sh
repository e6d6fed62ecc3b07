#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record -b, -j and --call-graph lbr: the attrs are perf 6.1's (`tperf
# record --dry-run -vv` against `perf record -vv`, which prints each attr
# before the kernel refuses it), bad filters are usage errors, and on a
# machine without LBR the refusal says so.
. "$(dirname "$0")/lib.sh"

. "$TESTS_DIR/shell/attr-lib.sh"

test_lazy_prereq NO_LBR '! grep -qw lbr_fmt /proc/cpuinfo && ! test -d /sys/bus/event_source/devices/cpu/caps/branches' \
	'the machine has an LBR: the refusal cannot be seen'

# every other case (all with make check-full): each is two records
test_expect_success PERF '-b, -j (every filter name), --call-graph lbr: perf'"'"'s attrs' '
	n=0 &&
	while read -r opts; do
		n=$((n + 1)) && test_pick $n 2 || continue
		compare_record $opts || { echo "options: $opts"; exit 1; }
	done <<-\EOT
	-e cpu-clock -b
	-e cpu-clock --branch-any
	-e cpu-clock -j any
	-e cpu-clock -j u
	-e cpu-clock -j u,k,hv
	-e cpu-clock -j ANY_CALL
	-e cpu-clock -j any_call,u
	-e cpu-clock --branch-filter=any_ret,k
	-e cpu-clock -j ind_call,ind_jmp,call,cond
	-e cpu-clock -j in_tx,no_tx,abort_tx
	-e cpu-clock -j any,save_type,priv
	-e cpu-clock -j stack,u
	-e cpu-clock --call-graph lbr
	-e cpu-clock:k --call-graph lbr
	-e cpu-clock --call-graph lbr -b
	-e cpu-clock -j any_call --call-graph lbr
	-e cpu-clock/branch_type=cond/ -j any_call
	-e cpu-clock/branch_type=u/
	-e cpu-clock/call-graph=lbr/ -j any_call
	EOT
'

test_expect_success 'an LBR call stack with a branch stack: frame pointers, said' '
	tperf record --dry-run -e cpu-clock --call-graph lbr -b -- true 2>err &&
	echo "tperf: warning: LBR call stacks cannot be recorded with a branch stack (-b, -j): falling back to frame pointers" >expect &&
	test_cmp expect err
'

test_expect_success '-j: an unknown or empty filter name, -b with -j: usage errors' '
	msg="the filters are u,k,hv,any,any_call,any_ret,ind_call,abort_tx,in_tx,no_tx,cond,ind_jmp,call,save_type,stack,priv" &&
	test_expect_code 129 tperf record --dry-run -e cpu-clock -j any,bogus -- true 2>err &&
	echo "tperf: unknown branch filter '"'"'bogus'"'"'; $msg" >expect &&
	head -1 err >actual && test_cmp expect actual &&
	test_expect_code 129 tperf record --dry-run -e cpu-clock -j any,,u -- true 2>err &&
	echo "tperf: unknown branch filter '"'"''"'"'; $msg" >expect &&
	head -1 err >actual && test_cmp expect actual &&
	test_expect_code 129 tperf record --dry-run -e cpu-clock -j hw_index -- true 2>err &&
	echo "tperf: unknown branch filter '"'"'hw_index'"'"'; $msg" >expect &&
	head -1 err >actual && test_cmp expect actual &&
	test_expect_code 129 tperf record --dry-run -e cpu-clock -b -j u -- true 2>err &&
	echo "tperf: --branch-any (-b) and --branch-filter (-j) exclude each other, and -j is given once: put every filter in one -j list" >expect &&
	head -1 err >actual && test_cmp expect actual &&
	test_expect_code 129 tperf record --dry-run -e cpu-clock -j u -j k -- true 2>err &&
	head -1 err >actual && test_cmp expect actual
'

test_expect_success '--no-branch-any, --no-branch-filter: no branch stack' '
	tperf record --dry-run -vv -e cpu-clock -- true 2>&1 | attr_blocks 1 >expect &&
	tperf record --dry-run -vv -e cpu-clock -b --no-branch-any -- true 2>&1 | attr_blocks 1 >actual &&
	test_cmp expect actual &&
	tperf record --dry-run -vv -e cpu-clock -j call --no-branch-filter -- true 2>&1 | attr_blocks 1 >actual &&
	test_cmp expect actual
'

test_expect_success NO_LBR 'no LBR here: -b, -j and --call-graph lbr are refused, saying why' '
	for o in -b "-j any_call" "--call-graph lbr"; do
		test_expect_code 255 tperf record -q -o t.data -e cpu-clock $o -- true 2>err &&
		echo "tperf: cannot open event '"'"'cpu-clock'"'"': branch stacks (-b, -j, --call-graph lbr, branch_type=) need the CPU'"'"'s last branch record (LBR) and this machine has no PMU (no LBR here); record without them, or use --call-graph fp or dwarf" >expect &&
		test_cmp expect err || exit 1
	done
'

test_done
