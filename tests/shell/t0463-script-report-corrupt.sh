#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Truncated and bit-flipped callchain recordings through the whole replay:
# tperf script (also -D) and tperf report end with exit 0, or exit 1 and a
# message naming the file; never a signal or a hang (t0301 does the same
# for the header reader through tperf evlist).
. "$(dirname "$0")/lib.sh"

# Run "tperf $@ -i $f"; fail on a crash, a hang, or exit 1 without a message.
check() {
	f=$1; shift
	timeout 10 "$TPERF" "$@" -i "$f" --symfs=/nonexistent --kallsyms=/dev/null >/dev/null 2>err
	rc=$?
	case $rc in
	0) ;;
	1) grep -q "^tperf: .*'$f'" err || grep -q "^tperf: out of memory" err ||
		{ echo "exit 1 without a message naming $f:"; cat err; return 1; } ;;
	124) echo "$* on $f: hang"; return 1 ;;
	*) echo "$* on $f: exit $rc"; cat err; return 1 ;;
	esac
	cat err >>"$TRASH/all-errors"
}

src=$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8

# make check takes every 4th offset of each loop, make check-full all
# (the fuzz targets go much further: tests/fuzz)
STEP=4
[ -z "${TPERF_TEST_FULL:-}" ] || STEP=1

# Byte @2 of file @1 xor @3 (decimal).
flip() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d " ")
	printf "$(printf '\\%03o' $(( (b ^ $3) & 255 )))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

test_expect_success 'truncated at 100 offsets (25 in make check): script, script -D, report' '
	size=$(stat -c %s "$src") &&
	for i in $(seq 0 $STEP 99); do
		off=$(( (i * 104729) % size )) &&
		head -c $off "$src" >cut.data &&
		check cut.data script || { echo "cut at $off"; exit 1; }
		check cut.data script -D || { echo "cut at $off"; exit 1; }
		check cut.data report --stdio || { echo "cut at $off"; exit 1; }
	done
'

test_expect_success 'a file cut inside a record: the samples before are printed, then a warning with the offset' '
	head -c 200000 "$src" >cut.data &&
	tperf script -i cut.data --symfs=/nonexistent --kallsyms=/dev/null >out 2>err &&
	test -s out &&
	grep "^tperf: warning: .*'"'"'cut.data'"'"': truncated record at offset 0x[0-9a-f]*: the file ends inside it" err
'

test_expect_success 'bits flipped at 200 offsets (50 in make check): script, report' '
	size=$(stat -c %s "$src") &&
	for i in $(seq 0 $STEP 199); do
		off=$(( (i * 7919 + i * i * 13) % size )) &&
		cp "$src" flip.data && chmod u+w flip.data &&
		flip flip.data $off $(( 1 << ((i + i / 8) % 8) )) &&
		check flip.data script || { echo "flip at $off"; exit 1; }
		check flip.data report --stdio || { echo "flip at $off"; exit 1; }
	done
'

test_expect_success 'record headers (sizes, types) set to 0xff at 100 offsets in the first 8 KiB (25 in make check): script -D' '
	for i in $(seq 0 $STEP 99); do
		off=$(( (i * 331) % 8192 )) &&
		cp "$src" flip.data && chmod u+w flip.data &&
		flip flip.data $off 255 &&
		check flip.data script -D || { echo "flip at $off"; exit 1; }
	done
'

test_expect_success 'errors inside the records name the offset' '
	test -s "$TRASH/all-errors" &&
	{ grep -E "corrupt|(truncated|unknown|invalid) record" "$TRASH/all-errors" |
		grep -v "offset 0x" >bad || :; } &&
	{ test ! -s bad || { head -5 bad; false; }; }
'

test_expect_success PERF 'a perf-recorded -g file: flips in its data, script and report' '
	perf record -q -F 999 -g -o "$TRASH/g.data" -- sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done" 2>/dev/null &&
	size=$(stat -c %s "$TRASH/g.data") &&
	for i in $(seq 0 $STEP 59); do
		off=$(( (i * 7919) % size )) &&
		cp "$TRASH/g.data" flip.data &&
		flip flip.data $off $(( 1 << ((i + i / 8) % 8) )) &&
		check flip.data script || { echo "flip at $off"; exit 1; }
		check flip.data report --stdio || { echo "flip at $off"; exit 1; }
	done
'

test_done
