#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe writing uprobes: create, list, delete (globs), names in use,
# the probe firing (tperf stat counts the known calls, the trace of a
# tracefs instance shows the values), -L and -V against perf.  Every probe
# made is deleted; uprobe_events is left as found.
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"
export PERF_BUILDID_DIR=$TRASH/.debug
T=/sys/kernel/tracing
cleanup='tperf probe -q -d "probe_target*:*" -d "probe_libtarget:*" -d "grp_t0551:*" 2>/dev/null; :'

test_expect_success ROOT 'create, list and delete a probe' '
	test_when_finished "$cleanup" &&
	tperf probe -x "$B/target0" "add a b" 2>err &&
	cat >expect <<-EOT &&
	Added new event:
	  probe_target0:add    (on add in $B/target0 with a b)

	You can now use it in all tperf tools, such as:

	EOT
	printf "\ttperf record -e probe_target0:add -aR sleep 1\n\n" >>expect &&
	test_cmp expect err &&
	grep -q "^p:probe_target0/add $B/target0:0x[0-9a-f]* a=-[0-9]*(%bp):s32 b=-[0-9]*(%bp):s32$" $T/uprobe_events &&
	tperf probe -l >actual &&
	echo "  probe_target0:add    (on add:2@$TESTS_DIR/probe/target.c in $B/target0 with a b)" >expect &&
	test_cmp expect actual &&
	tperf probe -d "probe_target0:a*" 2>err &&
	echo "Removed event: probe_target0:add" >expect &&
	test_cmp expect err &&
	! grep -q probe_target0 $T/uprobe_events
'

test_expect_success ROOT,PERF 'perf lists the probes tperf made as tperf does' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target0" "add a b" &&
	tperf probe -q -x "$B/target0" "visit:4 total" &&
	tperf probe -q -x "$B/target0" "visit%return \$retval" &&
	# perf shortens some source paths: compare the file names
	HOME=$TRASH perf probe -l "probe_target0:*" | sed "s|@[^ ]*/|@|" | sort >expect &&
	tperf probe -l "probe_target0:*" | sed "s|@[^ ]*/|@|" | sort >actual &&
	test_cmp expect actual
'

test_expect_success ROOT 'a name in use: refused, or suffixed with -f' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target0" add &&
	test_must_fail tperf probe -q -x "$B/target0" add 2>err &&
	echo "tperf: event '"'"'probe_target0:add'"'"' already exists: delete it with '"'"'tperf probe -d probe_target0:add'"'"' or add a duplicate with -f" >expect &&
	test_cmp expect err &&
	tperf probe -q -f -x "$B/target0" add &&
	tperf probe -q -f -x "$B/target0" add &&
	tperf probe -l | sed "s/ *(.*//" >actual &&
	printf "  probe_target0:add\n  probe_target0:add_1\n  probe_target0:add_2\n" >expect &&
	test_cmp expect actual
'

test_expect_success ROOT 'deleting what matches nothing is an error' '
	test_must_fail tperf probe -d "nosuch_group:*" 2>err &&
	echo "tperf: '"'"'nosuch_group:*'"'"' does not match any probe: '"'"'tperf probe -l'"'"' lists them" >expect &&
	test_cmp expect err
'

test_expect_success ROOT 'tperf stat counts the calls (5 to add, 2 returns of visit and shout)' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target2" "add a b" &&
	tperf probe -q -x "$B/O2/libtarget.so" "lib_scale v" &&
	tperf probe -q -x "$B/target2" "visit%return \$retval" &&
	tperf stat -x, -e probe_target2:add,probe_libtarget:lib_scale,probe_target2:visit__return -- "$B/target2" >/dev/null 2>err &&
	cut -d, -f1,3 err >actual &&
	printf "5,probe_target2:add\n1,probe_libtarget:lib_scale\n1,probe_target2:visit__return\n" >expect &&
	test_cmp expect actual
'

test_expect_success ROOT 'an inlined function fires at each instance' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target2" square &&
	tperf stat -x, -e probe_target2:square -- "$B/target2" >/dev/null 2>err &&
	echo "4,probe_target2:square" >expect &&
	cut -d, -f1,3 err >actual &&
	test_cmp expect actual
'

# Run the target with EVENT enabled in a tracefs instance; print the
# events' fields (after the address).
trace_values() {
	local inst=$T/instances/tperf_t0551_$$ ev=$1 bin=$2
	mkdir $inst || return 1
	echo 1 >$inst/events/$ev/enable && "$bin" >/dev/null
	local rc=$?
	echo 0 >$inst/events/$ev/enable
	sed -n "s/.*: ([^)]*) *//p" $inst/trace
	rmdir $inst
	return $rc
}

for bin in target0 target2; do
	test_expect_success ROOT "values fetched from $bin: arguments, members, strings" '
		test_when_finished "$cleanup" &&
		tperf probe -q -x "$B/$bin" "visit it->name:string it[1].weight it[2].tag:string n counter" &&
		tperf probe -q -x "$B/$bin" "add a b" &&
		trace_values probe_'$bin'/visit "$B/$bin" >actual &&
		echo "name=\"one\" weight=20 tag=\"t3\" n=3 counter=7" >expect &&
		test_cmp expect actual &&
		trace_values probe_'$bin'/add "$B/$bin" >actual &&
		for i in 0 1 2 3 4; do echo "a=$((i * (i - 1) / 2)) b=$i"; done >expect &&
		test_cmp expect actual
	'
done

test_expect_success ROOT 'values of bitfields and the return value' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target0" "visit it->flag it->kind k2=it[2].kind" &&
	tperf probe -q -x "$B/target0" "grp_t0551:ret=add%return ret=\$retval:s32" &&
	trace_values probe_target0/visit "$B/target0" >actual &&
	echo "flag=1 kind=2 k2=4" >expect &&
	test_cmp expect actual &&
	trace_values grp_t0551/ret "$B/target0" >actual &&
	printf "ret=0\nret=1\nret=3\nret=6\nret=10\n" >expect &&
	test_cmp expect actual
'

for bin in target0 target2; do
	for r in visit add main visit:2-4 target.c:40-50; do
		test_expect_success PERF "-L $r on $bin as perf shows it" '
			HOME=$TRASH perf probe -x "$B/$bin" -L "$r" >expect &&
			tperf probe -x "$B/$bin" -L "$r" >actual &&
			test_cmp expect actual
		'
	done
	for v in visit add main square visit%return; do
		test_expect_success PERF "-V $v on $bin as perf shows it" '
			HOME=$TRASH perf probe -x "$B/$bin" -V "$v" >expect &&
			tperf probe -x "$B/$bin" -V "$v" >actual &&
			test_cmp expect actual
		'
	done
done

test_expect_success 'uprobe_events is left as found' '
	test ! -r $T/uprobe_events || ! grep -q "probe_target\|probe_libtarget\|grp_t0551" $T/uprobe_events
'

# perf probe exits with its negative error code; scripts test it
test_expect_success ROOT,PERF 'failures exit with perf'"'"'s statuses (129, 234, 254, 239)' '
	test_when_finished "$cleanup; perf probe -q -d \"grp_t0551:*\" 2>/dev/null; :" &&
	for args in "-x $B/target0 add+abc" "-x $B/target0 -a add+abc" \
		    "-x $B/target0 nosuchfunction" "-x $B/target0 add+0x100000" \
		    "-d grp_t0551:nosuch" "-a do_sys_open"; do
		perf probe -q $args >/dev/null 2>&1; p=$? &&
		tperf probe -q $args >/dev/null 2>&1; t=$? &&
		if [ $p != $t ]; then echo "probe $args: tperf $t, perf $p"; exit 1; fi &&
		test $t -ge 129 || exit 1
	done &&
	perf probe -q -x "$B/target0" "grp_t0551:ev=add" &&
	perf probe -q -x "$B/target0" "grp_t0551:ev=add" 2>/dev/null; p=$? &&
	perf probe -q -d "grp_t0551:*" &&
	tperf probe -q -x "$B/target0" "grp_t0551:ev=add" &&
	test_expect_code $p tperf probe -q -x "$B/target0" "grp_t0551:ev=add" 2>/dev/null &&
	test $p = 239
'

test_done
