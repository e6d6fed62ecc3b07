#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (ftrace record makes tracefs instances, which t05* check)
# The files record -o, ftrace record -o and stat -o write: a symbolic link
# at the path is refused (never followed, never renamed), an existing file
# becomes FILE.old for record and ftrace record as perf keeps it, a FIFO is
# refused where the file must be patched, a full disk is said with what
# reached the file; ftrace -p of no process, and the permission message
# of root without CAP_PERFMON.
. "$(dirname "$0")/lib.sh"

# the kernel has perf events (software events need nothing else)
test_lazy_prereq EVENTS 'test -e /proc/sys/kernel/perf_event_paranoid'
test_lazy_prereq TRACEFS '[ "$(id -u)" = 0 ] && test -w /sys/kernel/tracing/instances &&
	test -e /sys/kernel/tracing/events/sched/sched_process_exec' 'needs root and tracefs with sched events'
test_lazy_prereq TMPFS '[ "$(id -u)" = 0 ] && d=$(mktemp -d) && mount -t tmpfs -o size=1m none "$d" &&
	umount "$d" && rmdir "$d"' 'needs root and a tmpfs mount'
test_lazy_prereq NOPERFMON '[ "$(id -u)" = 0 ] && command -v capsh &&
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] &&
	capsh --drop=cap_perfmon,cap_sys_admin -- -c true' 'needs root, capsh and perf_event_paranoid 1 or more'

q="'"
link_msg() { echo "tperf: $q$1$q is a symbolic link: tperf does not write through one; name the file itself"; }

# links to a file with data, to an empty file, to nothing
make_links() {
	echo secret >target && : >empty &&
	ln -s target l-data && ln -s empty l-empty && ln -s nothing l-none
}
links_untouched() {
	test "$(cat target)" = secret && test ! -s empty && test ! -e nothing &&
	test ! -e l-data.old && test ! -e l-empty.old && test -L l-data && test -L l-none
}

# a 1 MB file system in ./full, unmounted after the test
mount_full() {
	mkdir full && mount -t tmpfs -o size=1m none full &&
	test_when_finished "umount \"$PWD/full\""
}
mb() { awk -v b="$(stat -c %s "$1")" -v d="$2" -v f="$3" 'BEGIN { printf f, b / d }'; }

for l in l-data l-empty l-none; do
	test_expect_success EVENTS "record -o: a link ($l) is refused, its target untouched" '
		make_links &&
		test_expect_code 255 tperf record -e cpu-clock -o '$l' -- true 2>err &&
		link_msg '$l' >expect &&
		test_cmp expect err &&
		links_untouched
	'
done

test_expect_success EVENTS 'record -o: FILE.old as perf; a .old folder of other files is kept, an error' '
	echo one >x.data &&
	tperf record -q -e cpu-clock -o x.data -- true &&
	test "$(cat x.data.old)" = one &&
	echo two >y.data && mkdir y.data.old && echo keep >y.data.old/notes &&
	test_expect_code 255 tperf record -e cpu-clock -o y.data -- true 2>err &&
	echo "tperf: cannot replace ${q}y.data.old$q: a folder that is not a recording${q}s (tperf removes no other); move it away" >expect &&
	test_cmp expect err &&
	test "$(cat y.data)" = two && test "$(cat y.data.old/notes)" = keep &&
	mkdir dir && test_expect_code 255 tperf record -e cpu-clock -o dir -- true 2>err &&
	echo "tperf: ${q}dir$q is a folder: name a file to write" >expect &&
	test_cmp expect err &&
	mkdir rec && echo a >rec/data && echo b >rec/data.1 &&
	tperf record -q -e cpu-clock -o rec -- true &&
	test "$(cat rec.old/data.1)" = b && tperf report -i rec --stats >/dev/null
'

test_expect_success EVENTS 'record -o FIFO: refused before recording, without waiting for a reader' '
	mkfifo fifo &&
	test_expect_code 255 timeout 20 "$TPERF" record -e cpu-clock -o fifo -- true 2>err &&
	echo "tperf: ${q}fifo$q is not seekable (a FIFO, socket or terminal): name a file" >expect &&
	test_cmp expect err
'

test_expect_success TMPFS 'record on a full disk: what reached the file, no "Captured and wrote", status 255 as perf' '
	mount_full &&
	test_expect_code 255 tperf record -e cpu-clock -c 10000 -g -o full/p.data -- \
		sh -c "i=0; while [ \$i -lt 400000 ]; do i=\$((i + 1)); done" 2>err &&
	{
		echo "tperf: cannot write ${q}full/p.data$q: No space left on device" &&
		echo "[ tperf record: $(mb full/p.data 1048576 %.3f) MB written to full/p.data before the error: the file is incomplete ]"
	} >expect &&
	test_cmp expect err &&
	tperf report -i full/p.data --stats >/dev/null 2>&1
'

for l in l-data l-none; do
	test_expect_success EVENTS "stat -o and --append -o: a link ($l) is refused" '
		make_links &&
		test_expect_code 255 tperf stat -e task-clock -o '$l' -- true 2>err &&
		link_msg '$l' >expect &&
		test_cmp expect err &&
		test_expect_code 255 tperf stat -e task-clock --append -o '$l' -- true 2>err &&
		test_cmp expect err &&
		links_untouched
	'
done

test_expect_success EVENTS 'stat -o /dev/stdout and /dev/fd/N: the descriptor, appended to as redirected' '
	echo first >out &&
	tperf stat -e task-clock -o /dev/stdout -- true >>out &&
	head -1 out >head && echo first >expect && test_cmp expect head &&
	grep -q "task-clock" out &&
	tperf stat -e task-clock -o /dev/fd/3 -- true 3>fd3 &&
	grep -q "task-clock" fd3
'

test_expect_success TRACEFS 'ftrace record -o: a link refused before tracing, FILE.old as record' '
	make_links &&
	for l in l-data l-empty l-none; do
		test_expect_code 1 tperf ftrace record -e sched:sched_process_exec -o $l -- true 2>err &&
		link_msg $l >expect &&
		test_cmp expect err || exit 1
	done &&
	links_untouched &&
	echo old >t.dat &&
	tperf ftrace record -e sched:sched_process_exec -o t.dat -- true 2>err &&
	test "$(cat t.dat.old)" = old &&
	tperf ftrace show -i t.dat >/dev/null
'

test_expect_success TRACEFS 'ftrace record --file-version 7 -o FIFO: refused before tracing' '
	mkfifo fifo &&
	test_expect_code 1 timeout 20 "$TPERF" ftrace record --file-version 7 -e sched:sched_process_exec -o fifo -- true 2>err &&
	echo "tperf: ${q}fifo$q is not seekable (a FIFO, socket or terminal): name a file" >expect &&
	test_cmp expect err
'

test_expect_success TRACEFS,TMPFS 'ftrace record on a full disk: the error says what reached the file' '
	mount_full &&
	test_expect_code 1 tperf ftrace record -e sched:sched_process_exec -o full/t.dat -- true 2>err &&
	echo "tperf: cannot write ${q}full/t.dat$q: No space left on device (the file is incomplete: $(mb full/t.dat 1000000 %.1f) MB written)" >expect &&
	test_cmp expect err
'

test_expect_success TRACEFS 'ftrace -p 0 or a negative pid: no process, not every process' '
	for p in 0 -5; do
		echo "tperf: cannot find process $q$p$q: no such process; check the ids with ${q}ps$q" >expect &&
		test_expect_code 255 timeout 20 "$TPERF" ftrace record -p $p -e sched:sched_switch -d 0.2 -o p.dat 2>err &&
		test_cmp expect err &&
		test ! -e p.dat &&
		test_expect_code 255 timeout 20 "$TPERF" ftrace -p $p -e sched:sched_switch -d 0.2 >out 2>err &&
		test_cmp expect err || exit 1
	done
'

test_expect_success NOPERFMON 'root without CAP_PERFMON: the hint is perf_event_paranoid, with the capability' '
	p=$(cat /proc/sys/kernel/perf_event_paranoid) &&
	test_expect_code 255 capsh --drop=cap_perfmon,cap_sys_admin -- -c "\"$TPERF\" stat -a -e cpu-clock true" 2>err &&
	echo "tperf: cannot open event ${q}cpu-clock$q: permission denied: /proc/sys/kernel/perf_event_paranoid is $p and counting per-CPU (-a, -C) needs 0 or lower; this root process lacks CAP_PERFMON and CAP_SYS_ADMIN (a container${q}s?): give it CAP_PERFMON, or set it with ${q}sysctl kernel.perf_event_paranoid=0$q" >expect &&
	test_cmp expect err
'

test_expect_success TMPFS,TRACEFS 'a missing or read-only folder: refused before the work, as perf' '
	mkdir ro && mount -t tmpfs -o ro,size=1m none ro &&
	test_when_finished "umount \"$PWD/ro\"" &&
	for d in ro missing; do
		test_expect_code 255 tperf record -e cpu-clock -o $d/x.data -- true 2>err &&
		grep -q "^tperf: cannot create ${q}$d/x.data$q: " err &&
		test_expect_code 255 tperf stat -o $d/s.txt -e task-clock -- true 2>err &&
		grep -q "^tperf: cannot open ${q}$d/s.txt$q for writing: " err &&
		test_expect_code 1 tperf ftrace record -e sched:sched_process_exec -o $d/t.dat \
			-- true 2>err &&
		grep -q "^tperf: cannot create ${q}$d/t.dat$q: " err &&
		! grep -q "ring buffer" err || return 1
	done &&
	test_expect_code 1 tperf ftrace record -e sched:sched_process_exec -o ro/t.dat -- true 2>err &&
	echo "tperf: cannot create ${q}ro/t.dat$q: Read-only file system" >expect &&
	test_cmp expect err
'

# perf's exit status when record fails, case by case, perf and tperf in
# the same situation
test_expect_success EVENTS,PERF 'record fails with the exit status of perf (255)' '
	for c in "-o missing/x.data -- true" "-o /dev/full -- true" \
		 "-o x.data -- /nonexistent/cmd" "-o x.data -e instructions -- true" \
		 "-o x.data -e sched:sched_switch --filter bogus== -- true"; do
		rm -f x.data x.data.old &&
		timeout 20 perf record -q $c >/dev/null 2>&1; p=$? &&
		rm -f x.data x.data.old &&
		timeout 20 "$TPERF" record -q $c >/dev/null 2>&1; t=$? &&
		if [ $p != $t ]; then echo "record $c: tperf $t, perf $p"; exit 1; fi &&
		test $t = 255 || exit 1
	done
'

test_done
