# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the script tests t0460..t0467 (sourced after lib.sh).

nosym="--symfs=/nonexistent --kallsyms=/dev/null"

# perf's and tperf's `script -i $1` with the options that follow
same_as_perf() {
	f=$1; shift
	perf script -i "$f" "$@" >expect 2>/dev/null &&
	tperf script -i "$f" "$@" >actual &&
	test_cmp expect actual
}

# The fixture goldens: line N of $DATA_DIR/$1-cases.txt is "FILE ARGS"; the
# first 40 lines of tperf script's output must be $DATA_DIR/$1-expected-N.txt
# (perf 6.1's); at least $2 cases.
script_golden_cases() {
	n=0
	while read -r f args; do
		n=$((n + 1))
		tperf script -i "$DATA_DIR/$f" $args $nosym >out 2>err ||
			{ echo "case $n failed: $f $args"; cat err; return 1; }
		head -40 out >actual &&
		test_cmp "$DATA_DIR/$1-expected-$n.txt" actual ||
			{ echo "case $n: $f $args"; return 1; }
	done <"$DATA_DIR/$1-cases.txt" &&
	test $n -ge "$2"
}
