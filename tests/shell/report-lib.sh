# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the report tests t0451..t0459 (sourced after lib.sh): build the
# workloads with debug info, record them with perf, compare tperf's report
# with perf's on the same file.

W=$TESTS_DIR/workloads
test_lazy_prereq CC 'command -v cc'

# perf's tip line is random; its "[...]" remainder node of fractal graphs is
# an uninitialised symbol whose "inlined" bit may show " (inlined)"
notip() { grep -av '^# (Tip: ' "$@" | sed 's/--\[\.\.\.\] (inlined)$/--[...]/'; }

# perf's and tperf's `report --stdio` of $1 with the options that follow
same_as_perf() {
	f=$1; shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | notip >expect &&
	tperf report -i "$f" --stdio "$@" | notip >actual &&
	test_cmp expect actual
}

# $TRASH/calltree: main -> run -> work_one/two/four -> spin, with -g
build_calltree() {
	cc -O0 -g -fno-omit-frame-pointer -o "$TRASH/calltree" "$W/record-calltree.c"
}

# record "$@" with perf into $TRASH/$1.data (the rest: perf record options, --, command)
perf_rec() {
	name=$1; shift
	perf record -q -o "$TRASH/$name.data" "$@" >/dev/null 2>&1 && test -s "$TRASH/$name.data"
}
