#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Truncated and corrupted perf.data files: tperf evlist ends with exit 0
# (what it could read) or 1 with a message naming the file, never a crash.
# Pipe-mode files go through the record reader (evlist reads their header
# records); the whole-file record loop is covered by `tperf test perf.data`.
. "$(dirname "$0")/lib.sh"

# Run tperf evlist on $1; fail on a crash, or on exit 1 without a message.
check() {
	tperf evlist -v -i "$1" >/dev/null 2>err
	rc=$?
	case $rc in
	0) ;;
	1) grep -q "^tperf: .*'$1'" err || { echo "exit 1 without a message naming $1:"; cat err; return 1; } ;;
	*) echo "$1: exit $rc"; cat err; return 1 ;;
	esac
}

files="kdab-lbr-callstack/perf.lbr.data
pdc-pipe-mode-6.12/perf.data.piped.header_features_aligned-6.12
lpd-aarch64-pipe-zstd/sleep.compressed.pipe.data
kdab-uprobe-tracepoint/probe.data.file
rcppthread-perf-mem-record/perf.data"

# make check takes every 4th offset of the cuts and flips, make check-full all
# (the fuzz targets go much further: tests/fuzz)
STEP=4
[ -z "${TPERF_TEST_FULL:-}" ] || STEP=1

test_expect_success 'truncated at many offsets' '
	for f in $files; do
		src=$DATA_DIR/$f
		size=$(stat -c %s "$src")
		step=$((size / (97 / STEP) + 1))
		off=0
		while [ $off -lt $size ]; do
			head -c $off "$src" >cut.data
			check cut.data || { echo "cut at $off of $f"; exit 1; }
			off=$((off + step))
		done
	done
'

test_expect_success 'a file cut inside the header records of a pipe stream warns' '
	head -c 3000 "$DATA_DIR/pdc-pipe-mode-6.12/perf.data.piped.header_features_aligned-6.12" >cut.data &&
	tperf evlist -i cut.data >out 2>err &&
	echo "tperf: warning: '"'"'cut.data'"'"': unexpected end of event stream at offset 0xa40" >expect &&
	test_cmp expect err
'

test_expect_success 'bytes flipped at many offsets' '
	for f in $files; do
		src=$DATA_DIR/$f
		size=$(stat -c %s "$src")
		lim=$((size < 4096 ? size : 4096))
		for i in $(seq 0 $STEP 150); do
			off=$(( (i * 7919) % lim ))
			cp "$src" flip.data && chmod u+w flip.data &&
			printf "\377" | dd of=flip.data bs=1 seek=$off conv=notrunc 2>/dev/null &&
			check flip.data || { echo "flip at $off of $f"; exit 1; }
		done
	done
'

test_expect_success 'a record with size 0 in a pipe stream is an error with its offset' '
	src=$DATA_DIR/pdc-pipe-mode-6.12/perf.data.piped.header_features_aligned-6.12 &&
	cp "$src" zero.data && chmod u+w zero.data &&
	printf "\000\000" | dd of=zero.data bs=1 seek=22 conv=notrunc 2>/dev/null &&
	test_expect_code 1 tperf evlist -i zero.data >out 2>err &&
	echo "tperf: '"'"'zero.data'"'"': invalid record size 0 (type 64) at offset 0x10" >expect &&
	test_cmp expect err
'

test_done
