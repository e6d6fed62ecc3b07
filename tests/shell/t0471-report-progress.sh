#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Progress while a large perf.data is read: on stderr when it is a terminal
# (a pty from util-linux's script(1) here), never in a pipe or with -q.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq PTY "command -v script"

# A valid file with one cpu-clock attr and @2 FINISHED_ROUND records.
mkdata() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
n = int(sys.argv[2])
attr = bytearray(128)
struct.pack_into('<IIQQQQQ', attr, 0, 1, 128, 0, 4000, 0x107, 0, 0)
sec = bytes(attr) + struct.pack('<QQ', 0, 0)
data = struct.pack('<IHH', 68, 0, 8) * n
with open(sys.argv[1], 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, len(sec), 104, len(sec),
                                      104 + len(sec), len(data), 0, 0))
    f.write(bytes(32) + sec + data)
PY
}

test_expect_success PTY 'a 40 MB file shows its progress on the terminal, then erases it' '
	mkdata big.data 5000000 &&
	script -qec "$TPERF report -i big.data --stdio >out" /dev/null >tty &&
	tr "\r" "\n" <tty >lines &&
	grep -q "^Processing events...   1%$" lines &&
	grep -q "^Processing events...  99%$" lines &&
	test "$(grep -c "^Processing events" lines)" -ge 50 &&
	esc=$(printf "\033") &&
	grep "^Processing events" lines | tail -1 >last &&
	echo "Processing events...  99%" >expect && test_cmp expect last &&
	grep -A1 "^Processing events...  99%$" lines | tail -1 | grep -q "^$esc\[K" &&
	grep -q "^# To display the perf.data header info" out
'

test_expect_success PTY 'no progress with -q, for a small file, or when stderr is not a terminal' '
	mkdata big.data 5000000 &&
	mkdata small.data 1000 &&
	script -qec "$TPERF report -q -i big.data --stdio >out" /dev/null >tty &&
	! grep -q Processing tty &&
	script -qec "$TPERF report -i small.data --stdio >out" /dev/null >tty &&
	! grep -q Processing tty &&
	tperf report -i big.data --stdio >out 2>err &&
	! grep -q Processing err
'

test_done
