#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf data convert --to-pprof: Go's pprof (built from Debian's
# golang-go and golang-github-google-pprof-dev, once, into
# $TMPDIR/tperf-go-pprof) reads the profile and its -top shows every
# resolved function with the self percentage of `perf report --no-children
# --sort sym` on the same file; -traces shows the thread labels; the
# sample types, build-ids and errors.
. "$(dirname "$0")/lib.sh"

GOSRC=/usr/share/gocode/src/github.com/google/pprof
PPROF=${TMPDIR:-/tmp}/tperf-go-pprof/pprof
test_lazy_prereq GOPPROF "command -v go && test -d $GOSRC" \
	'Go pprof cannot be built: install golang-go and golang-github-google-pprof-dev'

# Go's pprof, built the first time (about a minute) and kept for the next runs
build_pprof() {
	test -x "$PPROF" && return 0
	mkdir -p "$(dirname "$PPROF")" &&
	GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$(dirname "$PPROF")/cache" \
		go build -o "$PPROF.new" github.com/google/pprof >go.log 2>&1 &&
	mv "$PPROF.new" "$PPROF" || { cat go.log; return 1; }
}

# "PERCENT NAME" of each resolved function: perf's report, pprof's -top
# (every node: -nodefraction=0), percentages with two decimals, names
# perf lists more than once (the "@plt" of several PLTs: pprof sums by
# name) left out of both
perf_top() {
	perf report -i "$1" --no-children --sort sym --stdio -g none 2>/dev/null |
		awk '$1 ~ /%$/ && $2 ~ /^\[.\]$/ && $3 !~ /^0x/ { printf "%.2f %s\n", $1, $3 }' |
		sort -k2 >perf-top.all &&
	awk '{ n[$2]++ } END { for (k in n) if (n[k] > 1) print k }' perf-top.all >perf-top.dups &&
	awk 'FILENAME == ARGV[1] { d[$1] = 1; next } !($2 in d)' perf-top.dups perf-top.all | sort
}
pprof_top() {
	"$PPROF" -top -nodecount=100000 -nodefraction=0 "$1" 2>/dev/null |
		awk '$2 ~ /%$/ && $1 != "0" && NF == 6 && $6 !~ /^[[<]/ && $6 !~ /^0x/ {
			printf "%.2f %s\n", $2, $6 }' |
		awk 'FILENAME == ARGV[1] { d[$1] = 1; next } !($2 in d)' perf-top.dups - | sort
}

workload='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls / >/dev/null'

test_expect_success PERF,GOPPROF 'pprof -top: the functions and self percentages of report --no-children' '
	build_pprof &&
	perf record -q -e task-clock -c 50000 -g -o cc.data -- sh -c "$workload" 2>/dev/null &&
	tperf data convert -i cc.data --to-pprof cc.pb.gz 2>err || { cat err; exit 1; }
	gzip -t cc.pb.gz &&
	perf_top cc.data >expect &&
	pprof_top cc.pb.gz >actual &&
	test_cmp expect actual &&
	test $(wc -l <actual) -ge 5 || { echo "too few functions: $(wc -l <actual)"; exit 1; }
	"$PPROF" -top cc.pb.gz 2>/dev/null | sed -n "s/^Type: //p" >type &&
	echo task-clock >expect &&
	test_cmp expect type
'

test_expect_success PERF,GOPPROF 'two events, a tperf recording, the fixtures' '
	build_pprof &&
	perf record -q -e cpu-clock,task-clock -c 100000 -o two.data -- sh -c "$workload" 2>/dev/null &&
	tperf data convert -i two.data --to-pprof two.pb.gz 2>/dev/null &&
	"$PPROF" -sample_index=cpu-clock -top two.pb.gz >/dev/null 2>&1 &&
	"$PPROF" -raw two.pb.gz 2>/dev/null | sed -n "/^Samples:/,/^ *[0-9]/p" | head -2 >actual &&
	printf "Samples:\nsamples/count cpu-clock/nanoseconds[dflt] task-clock/nanoseconds\n" >expect &&
	test_cmp expect actual &&
	tperf record -q -e task-clock -c 100000 -g -o t.data -- sh -c "$workload" 2>/dev/null &&
	tperf data convert -i t.data --to-pprof t.pb.gz 2>/dev/null &&
	perf_top t.data >expect && pprof_top t.pb.gz >actual && test_cmp expect actual &&
	for f in pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 kdab-dwarf-unwind-x86_64/perf.data; do
		rm -f f.pb.gz &&
		tperf data convert -i "$DATA_DIR/$f" --to-pprof f.pb.gz 2>/dev/null &&
		perf_top "$DATA_DIR/$f" >expect && pprof_top f.pb.gz >actual &&
		test_cmp expect actual || exit 1
	done
'

test_expect_success PERF,GOPPROF 'pprof -traces: the thread labels and the build-id of the mappings' '
	build_pprof &&
	tperf data convert -i "$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8" \
		--to-pprof fp.pb.gz 2>/dev/null &&
	"$PPROF" -traces fp.pb.gz 2>/dev/null >traces &&
	grep -m3 -E "^ +(comm|pid|tid): " traces | sed "s/[0-9][0-9]*/N/; s/  */ /g" >actual &&
	printf " comm: %s\n pid: N\n tid: N\n" "$(grep -m1 "^ *comm: " traces | sed "s/.*: *//")" >expect &&
	test_cmp expect actual &&
	"$PPROF" -raw fp.pb.gz 2>/dev/null | sed -n "/^Mappings/,\$p" | grep -c "[0-9a-f]\{40\}" >n &&
	test $(cat n) -ge 1
'

test_expect_success 'errors: an existing file, pipe mode, --all and --tod' '
	f=$DATA_DIR/lost-records/perf.data &&
	echo old >p.gz &&
	test_expect_code 1 tperf data convert -i $f --to-pprof p.gz 2>err &&
	echo "tperf: cannot write '"'"'p.gz'"'"': the file exists; use -f/--force to overwrite it" >expect &&
	test_cmp expect err &&
	tperf data convert -f -i $f --to-pprof p.gz 2>/dev/null &&
	gzip -t p.gz &&
	test_expect_code 1 tperf data convert -i "$DATA_DIR/kdab-uprobe-tracepoint/probe.data.stream" \
		--to-pprof pipe.gz 2>err &&
	grep -q "^tperf: cannot convert the pipe-mode data of .* to pprof" err &&
	test_path_is_missing pipe.gz &&
	test_expect_code 129 tperf data convert -i $f --to-pprof a.gz --all 2>err &&
	grep -q "^error: --all is not supported with --to-pprof" err &&
	test_expect_code 129 tperf data convert -i $f --to-pprof a.gz --to-json b.json 2>err &&
	grep -qx "error: give only one of --to-ctf, --to-json and --to-pprof" err
'

test_done
