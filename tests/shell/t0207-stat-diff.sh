#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf stat diff and --compare, the regression check for CI: a baseline
# of -r runs, then the same workload compared with it 20 times (never a
# regression) and with 10% more work (a regression at 10 runs), exit
# statuses 0, 1 and 2, the JSON for a CI system, and
# Documentation/examples/ci-perf-check.sh.  The verdicts that must hold
# on a loaded machine are on page-faults: stat-work touches a set number
# of pages, one fault each, whatever the load; task-clock, which moves
# with the other jobs' load, only has to see four times the work.
. "$(dirname "$0")/lib.sh"

# the workload built beside tperf; else built here as make would
WORK=$(dirname "$TPERF")/tests/workloads/stat-work
if [ ! -x "$WORK" ]; then
	WORK=$TRASH/stat-work
	${CC:-cc} -O0 -o "$WORK" "$SRC_DIR/tests/workloads/stat-work.c" >"$TRASH/work.log" 2>&1
fi
CI=$SRC_DIR/Documentation/examples/ci-perf-check.sh
PAGES=1000	# about 1050 faults a run; 1100 pages are 9.5% more
test_lazy_prereq PYTHON 'python3 -c "import json"'

# numbers become N, runs of spaces one space
normalize() {
	sed -E 's/[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?/N/g; s/ +/ /g; s/ $//'
}

# "VERDICT COUNTER" of each row of a comparison table (the unit left out)
verdicts() {
	awk '/^ *[0-9.]+ +[0-9.]+ +[-+]/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^(regression|improvement|within-threshold|not-significant)$/)
				v = $i
		c = $NF
		if ($0 ~ /\(higher is better\)$/)
			c = $(NF - 3) " (higher is better)"
		print v, c
	}' "$@"
}

test_expect_success 'the workload' '
	test -x "$WORK" || { cat "$TRASH/work.log"; exit 1; }
'

test_expect_success 'stat -r 10 -j -o: a baseline with the runs, mean, stddev and values' '
	tperf stat -r 10 -j -o "$TRASH/base.json" -e task-clock,page-faults -- \
		"$WORK" $PAGES 2>err &&
	test_cmp /dev/null err &&
	sed -n 1p "$TRASH/base.json" | grep -q "^# started on " &&
	grep "^{" "$TRASH/base.json" |
		sed -E "s/.*(\"event\" : \"[a-z-]+\").*(\"runs\" : [0-9]+), \"mean\" : [0-9.e+]+, \"stddev\" : [0-9.e+]+, \"values\" : \[([0-9.e+]+, ){9}[0-9.e+]+\]\}$/\1 \2/" >actual &&
	cat >expect <<-\EOT &&
	"event" : "task-clock" "runs" : 10
	"event" : "page-faults" "runs" : 10
	EOT
	test_cmp expect actual
'

test_expect_success '20 comparisons of the workload with itself: no regression (page-faults, 10 runs)' '
	for i in $(seq 20); do
		tperf stat --compare "$TRASH/base.json" -r 10 -e page-faults -- \
			"$WORK" $PAGES >out 2>err ||
			{ echo "comparison $i: exit $?"; cat out err; exit 1; }
		verdicts out >v &&
		grep -Eq "^(not-significant|within-threshold) page-faults$" v ||
			{ echo "comparison $i:"; cat out; exit 1; }
	done
'

test_expect_success '10% more pages: a page-faults regression at 10 runs, exit 1' '
	test_expect_code 1 tperf stat --compare "$TRASH/base.json" -r 10 -e page-faults -- \
		"$WORK" 1100 >out 2>err &&
	normalize <out >actual &&
	cat >expect <<-\EOT &&

	 Comparison of '"'"'$TRASH/base.json'"'"' (N runs) and '"'"'this run'"'"' (N runs):
	 Welch'"'"'s t-test, N% confidence, threshold N%

	 base mean new mean change N% interval p verdict counter
	 N N +N% [ +N%, +N%] N regression page-faults

	 not compared, counted in '"'"'$TRASH/base.json'"'"' only: task-clock
	 N regression, N improvements beyond N% in N counter

	EOT
	sed "s|\$TRASH|$(echo "$TRASH" | normalize)|" expect >expect.t &&
	test_cmp expect.t actual &&
	grep -q "(10 runs) and .this run. (10 runs)" out &&
	grep -q "^ 1 regression, 0 improvements beyond 5% in 1 counter$" out &&
	grep -q "Performance counter stats for .*stat-work 1100. (10 runs)" err
'

test_expect_success 'stat diff of saved files: exit 0 against itself, 1 with 10% more pages' '
	tperf stat -r 10 -j -o "$TRASH/more.json" -e page-faults -- "$WORK" 1100 2>/dev/null &&
	tperf stat diff "$TRASH/base.json" "$TRASH/base.json" >out &&
	verdicts out >actual &&
	printf "not-significant task-clock\nnot-significant page-faults\n" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 tperf stat diff "$TRASH/base.json" "$TRASH/more.json" >out &&
	verdicts out >actual &&
	echo "regression page-faults" >expect &&
	test_cmp expect actual &&
	tperf stat diff --threshold 10 "$TRASH/base.json" "$TRASH/more.json" >out &&
	verdicts out >actual &&
	echo "within-threshold page-faults" >expect &&
	test_cmp expect actual
'

test_expect_success PYTHON 'stat diff -j: one JSON object with the documented fields' '
	test_expect_code 1 tperf stat diff -j "$TRASH/base.json" "$TRASH/more.json" >out &&
	python3 -c "
import json, sys
d = json.load(open(\"out\"))
assert list(d) == [\"base\", \"new\", \"test\", \"confidence\", \"threshold\", \"counters\",
                   \"only-in-base\", \"only-in-new\", \"regressions\", \"improvements\"], list(d)
assert (d[\"test\"], d[\"confidence\"], d[\"threshold\"]) == (\"welch\", 95, 5), d
assert d[\"only-in-base\"] == [\"task-clock\"] and d[\"only-in-new\"] == [], d
assert (d[\"regressions\"], d[\"improvements\"]) == (1, 0), d
c, = d[\"counters\"]
assert list(c) == [\"event\", \"row\", \"unit\", \"higher-is-better\", \"base-runs\", \"base-mean\",
                   \"base-stddev\", \"new-runs\", \"new-mean\", \"new-stddev\", \"diff\", \"diff-low\",
                   \"diff-high\", \"change\", \"change-low\", \"change-high\", \"t\", \"df\", \"p\",
                   \"verdict\"], list(c)
assert (c[\"event\"], c[\"row\"], c[\"unit\"], c[\"higher-is-better\"]) == (\"page-faults\", \"\", \"\", False)
assert c[\"base-runs\"] == c[\"new-runs\"] == 10
assert 8 < c[\"change-low\"] <= c[\"change\"] <= c[\"change-high\"] < 11, c
assert c[\"p\"] < 1e-6 and c[\"verdict\"] == \"regression\", c
assert abs(c[\"diff\"] - (c[\"new-mean\"] - c[\"base-mean\"])) < 1e-6, c
"
'

test_expect_success '10% fewer pages: an improvement, exit 0; a regression with --higher-is-better' '
	tperf stat --compare "$TRASH/base.json" -r 10 -e page-faults -- "$WORK" 900 >out 2>/dev/null &&
	verdicts out >actual &&
	echo "improvement page-faults" >expect &&
	test_cmp expect actual &&
	tperf stat -r 10 -j -o less.json -e page-faults -- "$WORK" 900 2>/dev/null &&
	test_expect_code 1 tperf stat diff --higher-is-better page-faults "$TRASH/base.json" less.json >out &&
	verdicts out >actual &&
	echo "regression page-faults (higher is better)" >expect &&
	test_cmp expect actual
'

# task-clock moves with the machine'"'"'s load between two sets of runs (20%
# here, with other tests running): only a large change is asserted
test_expect_success 'task-clock: four times the loops is a regression at 10 runs' '
	tperf stat -r 10 -j -o tc.json -e task-clock -- "$WORK" 0 10000 2>/dev/null &&
	test_expect_code 1 tperf stat --compare tc.json -r 10 -e task-clock -- "$WORK" 0 40000 >out 2>/dev/null &&
	verdicts out >actual &&
	echo "regression task-clock" >expect &&
	test_cmp expect actual
'

test_expect_success 'files that cannot be compared: exit 2 and why' '
	tperf stat -r 3 -j -o cs.json -e context-switches -- true 2>/dev/null &&
	tperf stat -j -o one.json -e page-faults -- true 2>/dev/null &&
	printf "{\"event\" : \"page-faults\", \"counter-value\" : \"1\"}\n{oops}\n" >bad.json &&
	test_expect_code 2 tperf stat diff "$TRASH/base.json" nosuch.json 2>err &&
	echo "tperf: cannot read '"'"'nosuch.json'"'"': No such file or directory" >expect &&
	test_expect_code 2 tperf stat diff "$TRASH/base.json" bad.json 2>>err &&
	echo "tperf: '"'"'bad.json'"'"': line 2, byte 1: expected a member name" >>expect &&
	test_expect_code 2 tperf stat diff "$TRASH/base.json" one.json 2>>err &&
	echo "tperf: one.json: '"'"'page-faults'"'"' has no run count (line 3): record it with tperf stat -r N -j, N of 2 or more" >>expect &&
	test_expect_code 2 tperf stat diff "$TRASH/base.json" cs.json 2>>err &&
	echo "tperf: no counter was counted in both $TRASH/base.json and cs.json" >>expect &&
	test_expect_code 2 tperf stat diff "$TRASH/base.json" /dev/zero 2>>err &&
	echo "tperf: '"'"'/dev/zero'"'"' is not a regular file" >>expect &&
	test_expect_code 2 tperf stat diff --higher-is-better nosuch "$TRASH/base.json" "$TRASH/more.json" 2>>err &&
	echo "tperf: --higher-is-better '"'"'nosuch'"'"': no such event in both $TRASH/base.json and $TRASH/more.json" >>expect &&
	test_cmp expect err
'

test_expect_success 'usage errors of the comparison: exit 2 (stat'"'"'s own options: 129)' '
	test_expect_code 2 tperf stat diff "$TRASH/base.json" 2>err &&
	grep -q "^error: give two files of tperf stat -r N -j: the baseline, then the new runs$" err &&
	test_expect_code 2 tperf stat diff --threshold -1 a b 2>err &&
	grep -q "^error: --threshold takes a percentage of 0 or more$" err &&
	test_expect_code 2 tperf stat diff --confidence 100 a b 2>err &&
	grep -q "^error: --confidence takes a percentage from 50 to below 100$" err &&
	test_expect_code 2 tperf stat diff --no-such a b 2>err &&
	grep -q "^error: unknown option .--no-such.$" err &&
	test_expect_code 2 tperf stat --compare "$TRASH/base.json" -e page-faults true 2>err &&
	grep -q "^error: --compare needs a command and -r 2 or more" err &&
	test_expect_code 2 tperf stat --compare "$TRASH/base.json" -r 2 -I 100 -e page-faults true 2>err &&
	grep -q "^error: --compare compares a run.s totals: not with -I or --dry-run$" err &&
	test_expect_code 2 tperf stat --compare nosuch.json -r 2 -e page-faults true 2>err &&
	grep -q "^tperf: cannot read .nosuch.json.: No such file or directory$" err &&
	test_expect_code 129 tperf stat --threshold 3 -e page-faults true 2>err &&
	grep -q "^error: --threshold, --confidence and --higher-is-better need --compare$" err
'

test_expect_success '--compare: a command that fails gives nothing to compare, exit 2' '
	test_expect_code 2 tperf stat --compare "$TRASH/base.json" -r 2 -e page-faults -- \
		sh -c "exit 3" >out 2>err &&
	grep -q "^tperf: .sh. exited with status 3: nothing compared$" err &&
	test_cmp /dev/null out
'

test_expect_success '--compare -j -o: the comparison in JSON on stdout, the counts in the file' '
	tperf stat --compare "$TRASH/base.json" -r 3 -j -o new.json -e page-faults -- \
		"$WORK" $PAGES >out 2>err &&
	test_cmp /dev/null err &&
	grep -q "^  \"regressions\" : 0, \"improvements\" : 0$" out &&
	grep -q "\"new\" : \"new.json\"" out &&
	grep -q "\"event\" : \"page-faults\".*\"runs\" : 3, " new.json &&
	tperf stat diff "$TRASH/base.json" new.json >/dev/null
'

test_expect_success '--compare-with: a run of the baseline before each run of the command' '
	tperf stat -r 3 -e page-faults --compare-with "sh -c '"'"'echo base >>order'"'"'" -- \
		sh -c "echo new >>order" >out 2>err &&
	printf "%s\n" base new base new base new >expect &&
	test_cmp expect order &&
	grep -q "^ Comparison of .sh -c .echo base >>order.. (3 runs) and .sh -c echo new >>order. (3 runs):$" out &&
	grep -q "^ Performance counter stats for .sh -c echo new >>order. (3 runs):$" err
'

test_expect_success '--compare-with: itself no regression, 10% more pages one, by the paired test' '
	tperf stat -r 10 -e page-faults --compare-with "$WORK $PAGES" -- "$WORK" $PAGES >out 2>/dev/null &&
	grep -q "^ paired t-test of the runs made side by side, 95% confidence, threshold 5%$" out &&
	verdicts out >actual &&
	echo "not-significant page-faults" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 tperf stat -r 10 -e page-faults --compare-with "$WORK $PAGES" -- \
		"$WORK" 1100 >out 2>/dev/null &&
	verdicts out >actual &&
	echo "regression page-faults" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 tperf stat -r 4 -j -e page-faults --compare-with "$WORK $PAGES" -- \
		"$WORK" 1100 >out 2>/dev/null &&
	grep -q "\"test\" : \"paired\"," out
'

test_expect_success '--compare-with: a baseline that fails, and the usage errors: exit 2' '
	test_expect_code 2 tperf stat -r 2 -e page-faults --compare-with "sh -c '"'"'exit 4'"'"'" -- \
		true 2>err &&
	grep -q "^tperf: the baseline .sh -c .exit 4.. exited with status 4: nothing compared$" err &&
	test_expect_code 2 tperf stat -e page-faults --compare-with true -- true 2>err &&
	grep -q "^error: --compare-with needs a command and -r 2 or more" err &&
	test_expect_code 2 tperf stat -r 2 --compare "$TRASH/base.json" --compare-with true -- true 2>err &&
	grep -q "^error: --compare-with and --compare: one baseline at a time$" err &&
	test_expect_code 2 tperf stat -r 2 -I 100 --compare-with true -- true 2>err &&
	grep -q "^error: --compare-with compares a run.s totals" err &&
	test_expect_code 2 tperf stat -r 2 --compare-with "\"open" -- true 2>err &&
	grep -q "^tperf: --compare-with .\"open.: an unclosed quote or a trailing backslash$" err
'

test_expect_success 'stat -- diff still counts diff(1)' '
	tperf stat -e page-faults -- diff "$TRASH/base.json" "$TRASH/base.json" 2>err &&
	grep -q "Performance counter stats for .diff " err
'

test_expect_success 'Documentation/examples/ci-perf-check.sh: record, pass, fail, error' '
	export TPERF EVENTS=page-faults RUNS=10 &&
	mkdir bin && ln -s "$TPERF" bin/tperf && export PATH="$PWD/bin:$PATH" &&
	unset TPERF &&
	sh "$CI" ci.json -- "$WORK" $PAGES >out 2>&1 &&
	grep -q "^ci-perf-check: baseline of 10 runs recorded in ci.json$" out &&
	sh "$CI" ci.json -- "$WORK" $PAGES >out 2>&1 &&
	tail -1 out | grep -q "^ci-perf-check: no regression beyond 5%$" &&
	test -s ci.json.report.json &&
	test_expect_code 1 sh "$CI" ci.json -- "$WORK" 1100 >out 2>&1 &&
	verdicts out >actual &&
	echo "regression page-faults" >expect &&
	test_cmp expect actual &&
	tail -1 out | grep -q "^ci-perf-check: regression beyond 5% (see ci.json.report.json)$" &&
	grep -q "\"regressions\" : 1" ci.json.report.json &&
	THRESHOLD=12 UPDATE=1 sh "$CI" ci.json -- "$WORK" 1100 >out 2>&1 &&
	grep -q "^ci-perf-check: the new runs are the baseline$" out &&
	sh "$CI" ci.json -- "$WORK" 1100 >out 2>&1 &&
	test_expect_code 2 sh "$CI" ci.json -- sh -c "exit 3" >out 2>&1 &&
	tail -1 out | grep -q "^ci-perf-check: no comparison (tperf stat exited 2)$" &&
	test_expect_code 2 sh "$CI" ci.json "$WORK" >out 2>&1 &&
	test_expect_code 2 sh "$CI" other.json -- sh -c "exit 3" >out 2>&1 &&
	test_path_is_missing other.json
'

test_done
