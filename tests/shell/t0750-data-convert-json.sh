#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf data convert --to-json: the same bytes as perf 6.1's `perf data
# convert --to-json` on files recorded here (software events with
# callchains, tracepoints, a clock id, a tperf recording) and on the
# fixtures; read back by Python's json module; the usage and file errors.
. "$(dirname "$0")/lib.sh"

# perf's and tperf's JSON of $1 must be the same bytes; the first
# differing values are shown (key order aside) when they are not.
same_json_as_perf() {
	rm -f p.json t.json &&
	perf data convert -i "$1" --to-json p.json >/dev/null 2>&1 &&
	tperf data convert -i "$1" --to-json t.json 2>err ||
		{ echo "conversion failed: $1"; cat err; return 1; }
	cmp p.json t.json || {
		python3 -c "import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); print([(k, a[\"headers\"].get(k), b[\"headers\"].get(k)) for k in a[\"headers\"] if a[\"headers\"].get(k) != b[\"headers\"].get(k)]); print(next(((i, x, y) for i, (x, y) in enumerate(zip(a[\"samples\"], b[\"samples\"])) if x != y), None))" p.json t.json
		return 1
	}
}

workload='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls / >/dev/null'

test_expect_success PERF 'software events with callchains, and the summary lines' '
	perf record -q -e task-clock -c 100000 -g -o cc.data -- sh -c "$workload" 2>/dev/null &&
	same_json_as_perf cc.data &&
	n=$(perf report -i cc.data --stats 2>/dev/null | awk "/SAMPLE events:/ { print \$3; exit }") &&
	sed "s/wrote [0-9.]* MB/wrote N MB/" err >actual &&
	cat >expect <<-EOT &&
	[ tperf data convert: Converted '"'"'cc.data'"'"' into JSON data '"'"'t.json'"'"' ]
	[ tperf data convert: Converted and wrote N MB ($n samples) ]
	EOT
	test_cmp expect actual &&
	python3 -c "import json, sys; d = json.load(open(\"t.json\")); assert d[\"linux-perf-json-version\"] == 1; assert len(d[\"samples\"]) == $n; assert all(s[\"callchain\"] for s in d[\"samples\"])"
'

test_expect_success PERF 'samples without callchains, two events, a clock id' '
	perf record -q -e cpu-clock,task-clock -c 200000 -k mono -o two.data -- sh -c "$workload" 2>/dev/null &&
	same_json_as_perf two.data &&
	grep -q "\"clockid\": 1," t.json
'

test_expect_success PERF,ROOT 'tracepoints system-wide with callchains (a CPU per sample)' '
	perf record -q -a -g -e sched:sched_switch -e syscalls:sys_enter_openat -o tp.data \
		-- sh -c "$workload" 2>/dev/null &&
	same_json_as_perf tp.data &&
	grep -q "\"cpu\": " t.json
'

test_expect_success PERF 'a file tperf recorded' '
	tperf record -q -e task-clock -c 100000 -g -o tp-rec.data -- sh -c "$workload" 2>/dev/null &&
	same_json_as_perf tp-rec.data
'

# zstd-sched-switch-dwarf: perf resolves its foreign kernel addresses with
# this machine's kallsyms, tperf not (the kernel's build-id differs);
# armv7: the file has no CPUID feature and perf writes this machine's.
test_expect_success PERF 'the fixtures' '
	n=0 &&
	for f in dwarf-inline/mp.data kdab-dwarf-unwind-x86_64/perf.data \
		 kdab-lbr-callstack/perf.lbr.data kdab-uprobe-tracepoint/probe.data.file \
		 lost-records/perf.data pdc-branch-stack-lbr/perf.data.branch-4.14 \
		 pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 rcppthread-perf-mem-record/perf.data; do
		same_json_as_perf "$DATA_DIR/$f" || exit 1
		n=$((n + 1))
	done &&
	test $n = 8
'

test_expect_success 'a file without a CPUID feature has an empty cpuid' '
	tperf data convert -i "$DATA_DIR/pdc-armv7-32bit/perf.data.armv7-3.4" --to-json arm.json 2>err &&
	grep -E "^		\"(cpuid|cpu-desc|arch)\":" arm.json | sed "s/^\t*//" >actual &&
	cat >expect <<-\EOT &&
			"arch": "armv7l",
			"cpu-desc": "ARMv7 Processor rev 4 (v7l)",
			"cpuid": "",
	EOT
	test_cmp expect actual
'

test_expect_success 'an existing output file is kept without -f, replaced with it' '
	echo old >out.json &&
	test_expect_code 1 tperf data convert -i "$DATA_DIR/lost-records/perf.data" --to-json out.json 2>err &&
	echo "tperf: cannot write '"'"'out.json'"'"': the file exists; use -f/--force to overwrite it" >expect &&
	test_cmp expect err &&
	echo old >expect && test_cmp expect out.json &&
	tperf data convert -f -i "$DATA_DIR/lost-records/perf.data" --to-json out.json 2>/dev/null &&
	head -2 out.json >actual &&
	printf "{\n\t\"linux-perf-json-version\": 1,\n" >expect &&
	test_cmp expect actual
'

test_expect_success ROOT 'a full output device: the error, and the device stays a device' '
	mknod full c 1 7 &&
	test_expect_code 1 tperf data convert -f -i "$DATA_DIR/lost-records/perf.data" --to-json full 2>err &&
	echo "tperf: cannot write '"'"'full'"'"': No space left on device" >expect &&
	test_cmp expect err &&
	test -c full &&
	test_expect_code 1 tperf data convert -f -i "$DATA_DIR/lost-records/perf.data" --to-pprof full 2>err &&
	test -c full
'

test_expect_success 'pipe-mode input is refused with the way out' '
	test_expect_code 1 tperf data convert -i "$DATA_DIR/kdab-uprobe-tracepoint/probe.data.stream" \
		--to-json pipe.json 2>err &&
	echo "tperf: cannot convert the pipe-mode data of '"'"'$DATA_DIR/kdab-uprobe-tracepoint/probe.data.stream'"'"' to JSON: its header comes with the records; save it to a file with '"'"'tperf record -o FILE'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'usage errors' '
	f=$DATA_DIR/lost-records/perf.data &&
	test_expect_code 129 tperf data convert -i $f 2>err &&
	grep -x "error: nothing to do: give --to-ctf DIR, --to-json FILE or --to-pprof FILE" err &&
	test_expect_code 129 tperf data convert -i $f --to-json a.json --to-ctf b 2>err &&
	grep -x "error: give only one of --to-ctf, --to-json and --to-pprof" err &&
	test_expect_code 129 tperf data convert -i $f --to-json a.json --all 2>err &&
	grep "^error: --all is not supported with --to-json" err &&
	test_expect_code 129 tperf data convert -i $f --to-json a.json --tod 2>err &&
	grep "^error: --tod is not supported with --to-json" err &&
	test_expect_code 129 tperf data convert extra --to-json a.json 2>err &&
	grep -x "error: unexpected argument '"'"'extra'"'"'" err &&
	test_expect_code 129 tperf data 2>err &&
	grep -x "error: missing command: '"'"'tperf data convert'"'"'" err &&
	test_expect_code 129 tperf data nosuch 2>err &&
	grep "unknown command '"'"'data nosuch'"'"'" err &&
	test_path_is_missing a.json
'

test_expect_success 'a missing input says so' '
	test_expect_code 1 tperf data convert -i nosuch.data --to-json a.json 2>err &&
	grep "nosuch.data" err &&
	test_path_is_missing a.json
'

test_done
