#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (counts and timings that another test's load would change)
# tperf stat -x and -j: perf 6.1's fields, keys, units and event names.
. "$(dirname "$0")/lib.sh"

EV=task-clock,context-switches,page-faults,cycles

# Field count, unit and event of each CSV line (values vary).
csv_shape() {
	awk -F"$1" '{ print NF, $2, $3 }'
}

# The keys of each JSON line, and the unit and event values.
json_shape() {
	python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    print(",".join(o.keys()), o["unit"], o["event"])
'
}

test_lazy_prereq PYTHON 'python3 -c "import json"'

test_expect_success 'CSV: value,unit,event,run,pcnt,metric value,metric unit' '
	tperf stat -x, -e task-clock,page-faults true 2>err &&
	test $(wc -l <err) = 2 &&
	csv_shape , <err >actual &&
	printf "7 msec task-clock\n7  page-faults\n" >expect &&
	test_cmp expect actual &&
	IFS=, read -r val unit name run pct metric munit <err &&
	test "$pct" = 100.00 && test "$munit" = "CPUs utilized" &&
	test "$run" -gt 0 &&
	echo "$val" | grep -Eq "^[0-9]+\.[0-9]{2}$"
'

test_expect_success 'CSV with another separator and a <not supported> row' '
	tperf stat -x";" -e page-faults,cycles true 2>err &&
	grep -q "^[0-9]*;;page-faults;[0-9]*;100.00;;$" err &&
	if grep -q "not supported" err; then
		grep -q "^<not supported>;;cycles;0;100.00;;$" err
	fi
'

test_expect_success PERF 'CSV: the same fields, units and events as perf' '
	perf stat -x, -e $EV true 2>perf.err &&
	tperf stat -x, -e $EV true 2>tperf.err &&
	csv_shape , <perf.err >expect &&
	csv_shape , <tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success PERF 'CSV with -r: the stddev field after the event, as perf' '
	perf stat -r 2 -x, -e $EV true 2>perf.err &&
	tperf stat -r 2 -x, -e $EV true 2>tperf.err &&
	awk -F, "{ print NF, \$2, \$3 }" perf.err >expect &&
	awk -F, "{ print NF, \$2, \$3 }" tperf.err >actual &&
	test_cmp expect actual &&
	cut -d, -f4 tperf.err | grep -Evq "^[0-9]+\.[0-9]{2}%$" && exit 1
	true
'

test_expect_success PYTHON 'JSON: one object per counter with perf'"'"'s keys' '
	tperf stat -j -e task-clock,page-faults true 2>err &&
	json_shape <err >actual &&
	cat >expect <<-\EOT &&
	counter-value,unit,event,event-runtime,pcnt-running,metric-value,metric-unit msec task-clock
	counter-value,unit,event,event-runtime,pcnt-running,metric-value,metric-unit  page-faults
	EOT
	test_cmp expect actual
'

test_expect_success PERF,PYTHON 'JSON: the same keys, units and events as perf' '
	perf stat -j -e $EV true 2>perf.err &&
	tperf stat -j -e $EV true 2>tperf.err &&
	json_shape <perf.err >expect &&
	json_shape <tperf.err >actual &&
	test_cmp expect actual &&
	perf stat -r 2 -j -e $EV true 2>perf.err &&
	tperf stat -r 2 -j -e $EV true 2>tperf.err &&
	json_shape <perf.err >expect &&
	json_shape <tperf.err | sed "s/,runs,mean,stddev,values / /" >actual &&
	test_cmp expect actual
'

# -r: tperf adds the keys stat diff needs after perf's, on the counted rows
test_expect_success PYTHON 'JSON with -r: runs, mean, stddev and values after perf'"'"'s keys' '
	tperf stat -r 3 -j -e task-clock,page-faults,cycles true 2>err &&
	json_shape <err >actual &&
	cat >expect <<-\EOT &&
	counter-value,unit,event,variance,event-runtime,pcnt-running,metric-value,metric-unit,runs,mean,stddev,values msec task-clock
	counter-value,unit,event,variance,event-runtime,pcnt-running,metric-value,metric-unit,runs,mean,stddev,values  page-faults
	counter-value,unit,event,variance,event-runtime,pcnt-running,metric-value,metric-unit  cycles
	EOT
	test_cmp expect actual &&
	python3 -c "
import json, math, statistics, sys
for line in open(\"err\"):
    o = json.loads(line)
    if \"runs\" not in o:
        continue
    v = o[\"values\"]
    assert o[\"runs\"] == 3 == len(v), line
    assert math.isclose(o[\"mean\"], statistics.mean(v), rel_tol=1e-9), line
    assert math.isclose(o[\"stddev\"], statistics.stdev(v), rel_tol=1e-6, abs_tol=1e-9), line
"
'

test_expect_success PERF,PYTHON 'JSON and CSV with -A -a: the cpu column as perf' '
	perf stat -j -A -a -e task-clock,page-faults sleep 0.05 2>perf.err &&
	tperf stat -j -A -a -e task-clock,page-faults sleep 0.05 2>tperf.err &&
	python3 -c "import json,sys; [print(json.loads(l)[\"cpu\"], json.loads(l)[\"event\"]) for l in sys.stdin]" <perf.err >expect &&
	python3 -c "import json,sys; [print(json.loads(l)[\"cpu\"], json.loads(l)[\"event\"]) for l in sys.stdin]" <tperf.err >actual &&
	test_cmp expect actual &&
	perf stat -x, --per-socket -a -e task-clock sleep 0.05 2>perf.err &&
	tperf stat -x, --per-socket -a -e task-clock sleep 0.05 2>tperf.err &&
	cut -d, -f1,2,4,5 perf.err >expect &&
	cut -d, -f1,2,4,5 tperf.err >actual &&
	test_cmp expect actual
'

# perf's event grammar has no quote or backslash in a name= term: refused
# as perf refuses them; a pair of quotes around a name is no part of it.
test_expect_success PERF 'name= with a quote or a backslash: refused as perf' '
	for n in "\"a\\\"b\"" "a\\b" "'"'"'a\"b'"'"'" "a(b"; do
		test_expect_code 129 perf stat -e "cpu-clock/name=$n/" true 2>/dev/null &&
		test_expect_code 129 tperf stat -e "cpu-clock/name=$n/" true 2>err || return 1
	done &&
	echo "tperf: event syntax error: '"'"'cpu-clock/name=a(b/'"'"'" >expect &&
	printf "%44s^ %s\n" "" "'"'"'('"'"' cannot be in an event name" >>expect &&
	test_cmp expect err &&
	for n in "\"ab\"" "'"'"'a:b=c'"'"'" "a-b" "a!b" "a[1]"; do
		perf stat -x, -e "cpu-clock/name=$n/" true 2>perf.err &&
		tperf stat -x, -e "cpu-clock/name=$n/" true 2>tperf.err &&
		cut -d, -f3 perf.err >expect &&
		cut -d, -f3 tperf.err >actual &&
		test_cmp expect actual || return 1
	done
'

# A process name can hold any byte but "/" and NUL: --per-thread -j must
# still write JSON.
test_expect_success PYTHON 'JSON: a thread named with a quote and a backslash' '
	cp /bin/sleep "./q\"b\\c" &&
	{ "./q\"b\\c" 0.5 & } &&
	pid=$! &&
	test_when_finished "kill $pid 2>/dev/null" &&
	for i in $(seq 100); do
		test "$(cat /proc/$pid/comm)" = "q\"b\\c" && break
		sleep 0.01
	done &&
	tperf stat -j --per-thread -p $pid -e task-clock,page-faults 2>err &&
	python3 -m json.tool --json-lines <err >/dev/null &&
	python3 -c "
import json, sys
for line in sys.stdin:
    print(json.loads(line)[\"thread\"])
" <err >actual &&
	printf "%s\n" "q\"b\\c-$pid" "q\"b\\c-$pid" >expect &&
	test_cmp expect actual
'

test_expect_success PYTHON 'JSON with -I: an interval key first' '
	tperf stat -j -I 100 -e task-clock sleep 0.25 2>err &&
	python3 -c "
import json, sys
last = 0
n = 0
for line in sys.stdin:
    o = json.loads(line)
    assert list(o.keys())[0] == \"interval\", o
    assert o[\"interval\"] > last, o
    last = o[\"interval\"]
    n += 1
assert n >= 2, n
" <err
'

test_done
