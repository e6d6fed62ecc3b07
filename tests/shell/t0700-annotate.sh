#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf annotate --stdio against perf 6.1's on the same files: the bundled
# demo workload built at -O0 (as make builds it) and at -O2, recorded with
# cpu-clock by perf and by tperf; every option that changes the text.
. "$(dirname "$0")/lib.sh"

WORKLOAD=$(dirname "$TPERF")/tests/workloads/tperf-demo-workload
test_lazy_prereq OBJDUMP 'command -v objdump' 'objdump (Debian binutils) is not installed'
test_lazy_prereq CC 'command -v cc' 'no C compiler'

# both tools' stdout on file $1 with the options that follow; stderr differs
# (perf's kernel error is a dialog of many lines, tperf's one line)
same_annotate() {
	f=$1; shift
	perf annotate --stdio -i "$f" "$@" >expect 2>/dev/null &&
	tperf annotate --stdio -i "$f" "$@" >actual 2>err &&
	test_cmp expect actual || { echo "options: $*"; return 1; }
}

test_expect_success PERF,OBJDUMP,CC 'record the demo workload at -O0 and -O2' '
	cp "$WORKLOAD" "$TRASH/demo0" &&
	cc -O2 -g -o "$TRASH/demo2" "$SRC_DIR/tests/workloads/tperf-demo-workload.c" &&
	perf record -q -e cpu-clock -o "$TRASH/p0.data" "$TRASH/demo0" 0.2 >/dev/null 2>&1 &&
	perf record -q -e cpu-clock -o "$TRASH/p2.data" "$TRASH/demo2" 0.2 >/dev/null 2>&1 &&
	tperf record -q -e cpu-clock -o "$TRASH/t2.data" "$TRASH/demo2" 0.2 >/dev/null 2>&1 &&
	perf record -q -e cpu-clock -o - "$TRASH/demo0" 0.1 2>/dev/null >"$TRASH/pipe.data"
'

test_expect_success PERF,OBJDUMP,CC 'every symbol with samples, as perf prints them' '
	for f in p0 p2; do
		same_annotate "$TRASH/$f.data" || exit 1
		test -s actual || exit 1
	done &&
	same_annotate "$TRASH/t2.data" main &&
	# pipe mode, from standard input
	perf annotate --stdio -i - spin <"$TRASH/pipe.data" >expect 2>/dev/null &&
	tperf annotate --stdio -i - spin <"$TRASH/pipe.data" >actual &&
	test_cmp expect actual &&
	test -s actual &&
	# tperf'"'"'s own recording: a hot instruction
	grep -Eq "^ +[1-9][0-9]?\.[0-9]{2} : +[0-9a-f]+: " actual
'

test_expect_success PERF,OBJDUMP,CC 'options that change the text' '
	# on the hot function of each file (spin is inlined into main at -O2);
	# make check runs every third case, make check-full all of them
	i=0 &&
	for o in "-l" "-n" "--no-source" "--asm-raw" "-M intel" "-P" "-s" \
		"--percent-type local-hits" "--percent-type period-global" "-d demo0,demo2" \
		"-n -l --no-source" "-l -M intel --asm-raw"; do
		for f in "p0 spin" "p2 main"; do
			set -- $f &&
			if test_pick $i 3; then
				same_annotate "$TRASH/$1.data" $o $2 || exit 1
			fi &&
			i=$((i + 1)) || exit 1
		done
	done &&
	same_annotate "$TRASH/p2.data" -d libc.so.6 &&
	same_annotate "$TRASH/p0.data" spin -s main &&
	# perf'"'"'s colours: percentages, addresses, instructions, source lines
	same_annotate "$TRASH/p0.data" spin --stdio-color always -l &&
	grep -q "$(printf "\033\\[35m")" actual &&
	same_annotate "$TRASH/p2.data" main --stdio-color=always -n
'

test_expect_success PERF,OBJDUMP,CC 'a program rebuilt since: the recorded build from the build-id cache' '
	cc -O2 -g -o rebuilt "$SRC_DIR/tests/workloads/tperf-demo-workload.c" &&
	perf record -q -e cpu-clock:u -o rb.data ./rebuilt 0.1 >/dev/null 2>&1 &&
	cc -O1 -g -o rebuilt "$SRC_DIR/tests/workloads/tperf-demo-workload.c" &&
	same_annotate rb.data main &&
	grep -q "Source code & Disassembly of rebuilt " actual
'

test_expect_success PERF,OBJDUMP 'an event group: a column for each event, as perf shows it' '
	perf record -q -e "{cpu-clock,task-clock}" -o grp.data "$TRASH/demo0" 0.1 >/dev/null 2>&1 &&
	same_annotate grp.data spin &&
	head -1 actual | grep -q "^ Percent         |	Source code & Disassembly of demo0 for anon group { cpu-clock, task-clock } (" &&
	grep -Eq "^ +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} : +[0-9a-f]+: " actual &&
	same_annotate grp.data spin -l -n
'

test_expect_success PERF,OBJDUMP,CC 'the -O0 spin: header, rule, source lines and instructions' '
	tperf annotate --stdio -i "$TRASH/p0.data" spin >out 2>err &&
	sed -n "1p" out | grep -Eq "^ Percent \|	Source code & Disassembly of demo0 for cpu-clock \([0-9]+ samples, percent: local period\)$" &&
	# the rule: a dash for each byte of the header line (its newline too), four more
	test $(sed -n 2p out | tr -d "\n" | wc -c) = $(($(sed -n 1p out | wc -c) + 4)) &&
	grep -Eq "^ +: [0-9]+ +sink \+= i \^ \(sink >> 3\);$" out &&
	grep -Eq "^ +[0-9]+\.[0-9]{2} : +[0-9a-f]+: +push +%rbp$" out &&
	# the percentages of the instructions add up to 100
	awk "/^ +[0-9.]+ : / { s += \$1 } END { exit !(s > 99.9 && s < 100.1) }" out &&
	test ! -s err
'

test_expect_success PERF,OBJDUMP,CC 'global hits: the share of all the event'"'"'s samples' '
	# perf 6.1 prints 0.00 for every line with global-hits (its total is
	# not counted in annotate): tperf prints the share, each line -n
	# samples over all samples of the event (Documentation/tperf-annotate.txt)
	f=$TRASH/p0.data &&
	# the samples -d demo0 keeps: a symbol or DSO named on the command
	# line drops the other samples, from the totals too, as in perf
	total=$(perf script -i "$f" -F ip,dso 2>/dev/null | grep -c "/demo0)\$") &&
	first="/Source code/ { n++ } n == 1" &&
	tperf annotate --stdio -i "$f" -d demo0 -n 2>/dev/null | awk "$first" |
		sed -n "s/^ *\([0-9][0-9]*\) : .*/\1/p" >n &&
	tperf annotate --stdio -i "$f" -d demo0 --percent-type global-hits 2>/dev/null | awk "$first" |
		sed -n "s/^ *\([0-9.][0-9.]*\) : .*/\1/p" >pct &&
	paste n pct | awk -v t="$total" "{ if (sprintf(\"%.2f\", 100 * \$1 / t) != \$2) { print; bad = 1 } } END { exit bad }" &&
	test $(wc -l <n) -gt 10
'

test_expect_success PERF,OBJDUMP 'kernel symbols: one message per DSO, --skip-missing is silent' '
	f=$TRASH/p0.data &&
	tperf annotate --stdio -i "$f" -d "[kernel.kallsyms]" >out 2>err &&
	if grep -q "\[k\]" <(perf report -i "$f" --stdio --sort dso,sym 2>/dev/null); then
		test $(grep -c "^tperf: cannot annotate .* of '"'"'\[kernel.kallsyms\]'"'"': no vmlinux or module file to disassemble the kernel'"'"'s code from$" err) = 1
	fi &&
	tperf annotate --stdio --skip-missing -d "[kernel.kallsyms]" -i "$f" >out2 2>err &&
	test ! -s err &&
	test_cmp out out2
'

test_expect_success PERF,OBJDUMP 'bad input: usage errors and messages' '
	f=$TRASH/p0.data &&
	test_expect_code 129 tperf annotate -i "$f" --percent-type local 2>err &&
	head -1 err >first &&
	echo "tperf: invalid --percent-type '"'"'local'"'"': use local-period, global-period, local-hits or global-hits" >expect &&
	test_cmp expect first &&
	test_expect_code 129 tperf annotate -i "$f" spin main 2>err &&
	grep -q "^error: unexpected argument '"'"'main'"'"'$" err &&
	tperf annotate -i "$f" no_such_symbol >out 2>err &&
	test ! -s out &&
	echo "tperf: warning: no samples of '"'"'no_such_symbol'"'"' in '"'"'$f'"'"' to annotate" >expect &&
	test_cmp expect err &&
	tperf annotate -i "$f" --objdump=/nonexistent/objdump spin >out 2>err &&
	test ! -s out &&
	echo "tperf: cannot annotate '"'"'spin'"'"': cannot run '"'"'/nonexistent/objdump'"'"': install binutils or name one with --objdump" >expect &&
	test_cmp expect err &&
	test_expect_code 1 tperf annotate -i "$TRASH/nonexistent.data" 2>err &&
	grep -q "nonexistent.data" err
'

test_done
