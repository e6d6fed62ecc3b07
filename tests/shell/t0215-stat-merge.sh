#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf stat: one name on several PMUs (merged into one row unless
# --no-merge; hybrid core PMUs apart unless --hybrid-merge), percore events
# under -A (--percore-show-thread), and events the kernel refuses with
# EINVAL shown as <not supported> -- each against perf 6.1 on the same
# command line.  The PMUs that make several of one name are fake ones of
# the software PMU's type (their events count page faults), laid over
# /sys/bus/event_source/devices in a private mount namespace, so that perf
# and tperf both count with them.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq UNSHARE '[ "$(id -u)" = 0 ] && unshare -m true' \
	'needs root and unshare -m (a private mount namespace)'
test_lazy_prereq MSR '[ -d /sys/bus/event_source/devices/msr/events ] && command perf stat -a -e tsc true' \
	'no msr PMU with a tsc event here'
test_lazy_prereq CPUS2 '[ -d /sys/devices/system/cpu/cpu1/topology ]' 'needs two CPUs'

# Every number an N, runs of blanks one blank (counts differ between runs).
shape() {
	sed -E 's/[0-9][0-9.]*/N/g; s/ [KMG]\/sec/ \/sec/; s/ +/ /g; s/ +$//'
}

# The third CSV field of each row: the event's name.
names() {
	cut -d, -f3
}

# fake_pmus DIR NAME:CPUS...: a copy of this machine's PMUs (type, cpumask,
# format/ and events/ files) in DIR plus, for each NAME, a PMU of the
# software PMU's type whose event "pfaults" is page-faults, on CPUS ("-":
# a cpumask of CPU 0, as an uncore PMU has).
fake_pmus() {
	local dir=$1 src f sub p name cpus
	shift
	for src in /sys/bus/event_source/devices/*; do
		mkdir -p "$dir/${src##*/}" || return 1
		for f in type cpumask cpus; do
			if [ -f "$src/$f" ]; then cat "$src/$f" >"$dir/${src##*/}/$f" || return 1; fi
		done
		for sub in format events; do
			[ -d "$src/$sub" ] || continue
			mkdir -p "$dir/${src##*/}/$sub" || return 1
			for f in "$src/$sub"/*; do
				# (unreadable entries, e.g. write-only ones, are left out)
				cat "$f" >"$dir/${src##*/}/$sub/${f##*/}" 2>/dev/null || rm -f "$dir/${src##*/}/$sub/${f##*/}"
			done
		done
	done
	for p in "$@"; do
		name=${p%:*} cpus=${p#*:}
		mkdir -p "$dir/$name/format" "$dir/$name/events" &&
		echo 1 >"$dir/$name/type" &&
		echo config:0-63 >"$dir/$name/format/event" &&
		echo event=0x2 >"$dir/$name/events/pfaults" || return 1
		if [ "$cpus" = - ]; then echo 0 >"$dir/$name/cpumask"; else echo "$cpus" >"$dir/$name/cpus"; fi
	done
}

# in_fake DIR CMD...: CMD with DIR as the PMU folder (and, when the file
# core_id exists in the current folder, CPU 1 in core $(cat core_id)).
in_fake() {
	local dir=$1 topo=
	shift
	[ -f core_id ] && topo="mount --bind $PWD/core_id /sys/devices/system/cpu/cpu1/topology/core_id &&"
	unshare -m sh -c "mount --make-rprivate / 2>/dev/null; mount --bind $dir /sys/bus/event_source/devices && $topo exec \"\$@\"" sh "$@"
}

test_expect_success PERF 'an event the kernel refuses (EINVAL) is <not supported>, exit 0, as perf' '
	perf stat -x, -e msr/event=0x99/,task-clock true 2>perf.err &&
	tperf stat -x, -e msr/event=0x99/,task-clock true 2>tperf.err &&
	shape <perf.err >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual &&
	grep -q "^<not supported>,,msr/event=0x99/,0,100.00,,$" tperf.err
'

test_expect_success PERF,MSR '--no-merge names an alias after its PMU, as perf' '
	for o in "" --no-merge; do
		perf stat $o -x, -a -e tsc,msr/tsc/,msr/event=0/,cpu-clock sleep 0.01 2>perf.err &&
		tperf stat $o -x, -a -e tsc,msr/tsc/,msr/event=0/,cpu-clock sleep 0.01 2>tperf.err &&
		names <perf.err >expect &&
		names <tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	cat >expect <<-\EOF &&
	tsc [msr]
	msr/tsc/
	msr/event=0/
	cpu-clock
	EOF
	test_cmp expect actual
'

test_expect_success PERF,UNSHARE 'one name on two PMUs: one row, or one per PMU with --no-merge, as perf' '
	fake_pmus "$PWD/pmus" uncore_x_0:- uncore_x_1:- &&
	ev=uncore_x/pfaults/,uncore_x/event=2/,x/event=2/,pfaults:u,pfaults,uncore_x_0/pfaults/,uncore_x/event=2,name=foo/ &&
	for o in "" --no-merge; do
		in_fake "$PWD/pmus" perf stat $o -x, -a -e $ev true 2>perf.err &&
		in_fake "$PWD/pmus" "$TPERF" stat $o -x, -a -e $ev true 2>tperf.err &&
		names <perf.err >expect &&
		names <tperf.err >actual &&
		test_cmp expect actual &&
		shape <perf.err >expect &&
		shape <tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	names <tperf.err | grep -c "^pfaults \[uncore_x_[01]\]$" >n &&
	echo 2 >expect &&
	test_cmp expect n &&
	in_fake "$PWD/pmus" perf stat --no-merge -j -a -e pfaults true 2>perf.err &&
	in_fake "$PWD/pmus" "$TPERF" stat --no-merge -j -a -e pfaults true 2>tperf.err &&
	grep -o "\"event\" : \"[^\"]*\"" perf.err >expect &&
	grep -o "\"event\" : \"[^\"]*\"" tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success UNSHARE 'the merged row adds the PMUs'"'"' times (each runs all along)' '
	fake_pmus "$PWD/pmus" uncore_x_0:- uncore_x_1:- &&
	in_fake "$PWD/pmus" "$TPERF" stat -x, -a -e uncore_x_0/pfaults/,pfaults sleep 0.05 2>err &&
	one=$(sed -n 1p err | cut -d, -f4) && two=$(sed -n 2p err | cut -d, -f4) &&
	# ena of events enabled together: within 5% of twice the one (a
	# preemption between two enables could part them)
	test $((two * 100)) -gt $((one * 190)) && test $((two * 100)) -lt $((one * 210))
'

test_expect_success PERF,UNSHARE,CPUS2 'hybrid core PMUs apart, one row with --hybrid-merge, as perf' '
	fake_pmus "$PWD/pmus" cpu_core:0 cpu_atom:1 &&
	for o in "" --no-merge --hybrid-merge; do
		in_fake "$PWD/pmus" perf stat $o -x, -a -e pfaults,cpu_core/pfaults/ true 2>perf.err &&
		in_fake "$PWD/pmus" "$TPERF" stat $o -x, -a -e pfaults,cpu_core/pfaults/ true 2>tperf.err &&
		names <perf.err >expect &&
		names <tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	printf "%s\n" pfaults cpu_core/pfaults/ >expect &&
	test_cmp expect actual
'

# perf 6.1 adds, under -A, the cpu_core PMU's CPU 0 into the cpu_atom PMU's
# CPU 1 row (it pairs the CPUs by their index in each PMU's map); tperf
# shows each CPU's own count (Documentation/tperf-stat.txt).
test_expect_success UNSHARE,CPUS2 'hybrid -A --hybrid-merge: each CPU its own row' '
	fake_pmus "$PWD/pmus" cpu_core:0 cpu_atom:1 &&
	in_fake "$PWD/pmus" "$TPERF" stat -A --hybrid-merge -x, -a -e pfaults true 2>err &&
	cut -d, -f1,4 err >actual &&
	printf "%s\n" CPU0,pfaults CPU1,pfaults >expect &&
	test_cmp expect actual
'

test_expect_success PERF,MSR,UNSHARE,CPUS2 'a percore event under -A: rows per core, or per CPU with the core'"'"'s sum, as perf' '
	fake_pmus "$PWD/pmus" &&
	echo 0 >core_id &&
	for o in -A "-A --percore-show-thread" --per-core ""; do
		in_fake "$PWD/pmus" perf stat $o -x, -a -e msr/tsc,percore/,cpu-clock sleep 0.01 2>perf.err &&
		in_fake "$PWD/pmus" "$TPERF" stat $o -x, -a -e msr/tsc,percore/,cpu-clock sleep 0.01 2>tperf.err &&
		shape <perf.err >expect &&
		shape <tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	in_fake "$PWD/pmus" "$TPERF" stat -A -x, -a -e msr/tsc,percore/ sleep 0.01 2>err &&
	grep -c "^S0-D0-C0,[0-9]*,,msr/tsc,percore/," err >n && echo 1 >expect && test_cmp expect n &&
	in_fake "$PWD/pmus" "$TPERF" stat -A --percore-show-thread -x, -a -e msr/tsc,percore/ sleep 0.01 2>err &&
	test "$(sed -n 1p err | cut -d, -f2,5)" = "$(sed -n 2p err | cut -d, -f2,5)" &&
	in_fake "$PWD/pmus" perf stat -A -j -a -e msr/tsc,percore/ sleep 0.01 2>perf.err &&
	in_fake "$PWD/pmus" "$TPERF" stat -A -j -a -e msr/tsc,percore/ sleep 0.01 2>tperf.err &&
	# (perf says "(null)" for no unit, tperf "": DIFFERENCES FROM PERF;
	# and "core" : "S0-D0-C0" ends with ", " as JSON needs)
	sed -E "s/\"\(null\)\"/\"\"/; s/^(\{\"core\" : \"[^\"]*\")\"/\1, \"/" perf.err | shape >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual
'

test_done
