#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# The documentation stays true: every "$ tperf ..." line of the EXAMPLES
# sections of the record, report, script, probe, ftrace and stat pages,
# and every command of README's "Using it", runs and exits 0 on this
# machine (./prog is the bundled workload, ./app an SDT test program,
# graph.dat a function_graph trace), and leaves tracefs and the uprobes as
# they were; tperf(1) describes every command; no manual page shows a raw
# backtick.  (Documentation/examples/ci-perf-check.sh is run by t0207.)
. "$(dirname "$0")/lib.sh"

PAGES="record report script probe ftrace stat"
DOC=$SRC_DIR/Documentation
TFS=/sys/kernel/tracing
export MANPAGER=cat MANWIDTH=80

test_lazy_prereq TRACEFS 'grep -qw tracefs /proc/filesystems'

# ./prog: the workload built beside tperf; else built here as the demo does
WORKLOAD=$(dirname "$TPERF")/tests/workloads/tperf-demo-workload
if [ ! -x "$WORKLOAD" ]; then
	WORKLOAD=$TRASH/tperf-demo-workload
	${CC:-cc} -O0 -g -fno-omit-frame-pointer -o "$WORKLOAD" \
		"$SRC_DIR/tests/workloads/tperf-demo-workload.c" >"$TRASH/workload.log" 2>&1
fi
# ./app: the probe tests' target, markers sdt_target:loop, visited and sem
B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" >"$TRASH/probe-build.log" 2>&1
GRAPH=$DATA_DIR/trace-cmd-v7-graph/graph-v7-zstd.dat

# the scratch folder the examples run in
setup_scratch() {
	test -x "$WORKLOAD" || { echo "no workload: $(cat "$TRASH/workload.log")"; return 1; }
	test -x "$B/target0" || { echo "cannot build tests/probe: $(cat "$TRASH/probe-build.log")"; return 1; }
	test -f "$GRAPH" || { echo "missing fixture $GRAPH"; return 1; }
	cp "$WORKLOAD" prog &&
	cp "$B/target0" app &&
	cp "$GRAPH" graph.dat
}

# "LINE:COMMAND" for each "$ tperf ..." line of the EXAMPLES section of a
# page (a section title: a line underlined by dashes of its length)
doc_examples() {
	awk '
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				if (i < NR && line[i + 1] ~ /^-+$/ && line[i] ~ /^[A-Z]/ &&
				    length(line[i]) == length(line[i + 1])) {
					sec = line[i]; i++; continue
				}
				if (sec == "EXAMPLES" && line[i] ~ /^\$ tperf /)
					print i ":" substr(line[i], 3)
			}
		}' "$1"
}

# "LINE:COMMAND" for each command of README's "Using it" section
readme_examples() {
	awk '
		/^## / { on = ($0 == "## Using it") }
		on && /^    tperf / { sub(/^ +/, ""); print NR ":" $0 }
	' "$SRC_DIR/README.md"
}

# Run each "LINE:COMMAND" of file $2 (from page $1) with tperf as $TPERF,
# in order, each bounded to a minute; list the failures in ./failed.
run_examples() {
	local page=$1 entry n cmd rc
	: >failed
	while IFS= read -r entry; do
		n=${entry%%:*}
		cmd=${entry#*:}
		echo "\$ $cmd" >"cmd.$n.out"
		timeout -k 5 60 bash -c "$(echo "$cmd" |
			sed -E 's/(^|[|;&(] *)tperf /\1"$TPERF" /g')" </dev/null >>"cmd.$n.out" 2>&1
		rc=$?
		if [ $rc != 0 ]; then
			echo "$page:$n: exit $rc: $cmd" >>failed
			# its output: the command line, the start and the end
			awk '{ l[NR] = $0 } END { for (i = 1; i <= NR; i++)
				if (i <= 9 || i > NR - 8) print "    " l[i]
				else if (i == 10) print "    ..." }' "cmd.$n.out" >>failed
		fi
	done <"$2"
	if [ -s failed ]; then
		echo "examples that failed:"
		cat failed
		return 1
	fi
}

# tracefs's top-level state and the uprobes, compared before and after
state() {
	for f in current_tracer set_event tracing_on buffer_size_kb uprobe_events; do
		echo "$f: $(cat $TFS/$f)"
	done
}

# the instances tperf left behind: instances/tperf-PID of a PID that is
# gone (one of a tperf still running, another test's, is not ours)
leaked_instances() {
	local d
	for d in $TFS/instances/tperf-[0-9]*; do
		case ${d##*/tperf-} in
		*[!0-9]*) continue ;;	# another test's (tperf-test-PID), not tperf's
		esac
		if [ -d "$d" ] && [ ! -e "/proc/${d##*/tperf-}" ]; then echo "${d##*/}"; fi
	done
}

# after a page, pass or fail: its probes deleted, the instances left behind
# removed, the top-level tracing files as they were (saved in folder $1)
restore_tracing() {
	local g i f
	for g in probe_prog sdt_target; do
		if grep -q "^[pr]:$g/" $TFS/uprobe_events; then
			"$TPERF" probe -q -d "$g:*"
		fi
	done
	for i in $(leaked_instances); do rmdir "$TFS/instances/$i"; done
	if [ -d "$1" ]; then
		for f in current_tracer tracing_on; do
			if ! cmp -s "$1/$f" $TFS/$f; then cat "$1/$f" >$TFS/$f; fi
		done
		if ! cmp -s "$1/set_event" $TFS/set_event; then
			: >$TFS/set_event
			while read -r e; do echo "$e" >>$TFS/set_event; done <"$1/set_event"
		fi
	fi
}

# Run the examples of file $2 (named $1 in messages) in a scratch folder,
# then check that tracefs and the uprobes are as before.
run_page() {
	if ! grep -q " $TFS tracefs " /proc/mounts; then
		mount -t tracefs nodev $TFS || return 1
	fi
	mkdir saved &&
	for f in current_tracer tracing_on set_event; do cat $TFS/$f >saved/$f; done &&
	state >state.before &&
	leaked_instances >leaked.before &&
	setup_scratch &&
	{ test -s "$2" || { echo "$1: no commands to run"; return 1; }; } &&
	run_examples "$1" "$2" &&
	state >state.after &&
	test_cmp state.before state.after &&
	leaked_instances >leaked.after &&
	test_cmp leaked.before leaked.after
}

test_expect_success 'the six pages have an EXAMPLES section of 3 commands or more' '
	for p in $PAGES; do
		f=$DOC/tperf-$p.txt
		grep -qx EXAMPLES "$f" || { echo "tperf-$p.txt: no EXAMPLES section"; exit 1; }
		doc_examples "$f" >ex || exit 1
		n=$(wc -l <ex)
		if [ "$n" -lt 3 ]; then
			echo "tperf-$p.txt: $n \"\$ tperf\" commands in EXAMPLES, want 3 or more"
			exit 1
		fi
	done
'

test_expect_success 'README shows the main job first: record, report, script, tracepoints, probe, ftrace, stat for CI' '
	readme_examples >ex &&
	test $(wc -l <ex) -ge 10 &&
	prev=0 &&
	for pat in "record ./prog" "report " "record -g " "record --call-graph dwarf" "script" \
		"record -e sched:" "probe .*sdt_" "ftrace record" "ftrace show" "stat -x, " "stat -j "; do
		n=$(grep -n "^[0-9]*:tperf $pat" ex | head -1 | cut -d: -f1) &&
		if [ -z "$n" ] || [ "$n" -le "$prev" ]; then
			echo "README Using it: no \"tperf $pat\" after command $prev"
			exit 1
		fi
		prev=$n
	done &&
	grep -q "^On a VM without a hardware PMU" "$SRC_DIR/README.md"
'

test_expect_success 'tperf(1) describes every command and points at its page' '
	tperf --list-cmds | sort >cmds &&
	test -s cmds &&
	awk "/^[A-Z]/ { on = (\$0 == \"COMMANDS\") } on && /^[a-z-]+::\$/ { sub(/::\$/, \"\"); print }" \
		"$DOC/tperf.txt" | sort >documented &&
	test_cmp cmds documented &&
	sed -n "/^SEE ALSO\$/,\$p" "$DOC/tperf.txt" >see-also &&
	for c in $(cat cmds); do
		grep -q "tperf-$c(1)" see-also || { echo "SEE ALSO lacks tperf-$c(1)"; exit 1; }
	done
'

test_expect_success MAN 'no manual page shows a raw backtick' '
	mans=$(dirname "$TPERF")/Documentation &&
	for t in "$DOC"/*.txt; do
		p=$mans/$(basename "$t" .txt).1
		test -f "$p" || { echo "no $p: run make"; exit 1; }
		man -l "$p" >page 2>err || { cat err; exit 1; }
		test -s page || { echo "man -l $p printed nothing"; exit 1; }
		if grep -n "\`" page; then
			echo "$(basename "$p") shows the backticks above"
			exit 1
		fi
	done
'

for p in $PAGES; do
	test_expect_success ROOT,TRACEFS "the examples of tperf-$p.txt run" '
		test_when_finished "restore_tracing saved" &&
		doc_examples "$DOC/tperf-'$p'.txt" >examples &&
		run_page tperf-'$p'.txt examples
	'
done

test_expect_success ROOT,TRACEFS 'the commands of README'"'"'s "Using it" run' '
	test_when_finished "restore_tracing saved" &&
	readme_examples >examples &&
	run_page README.md examples
'

test_done
