#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ftrace show and report map the trace.dat -i names: a device or a FIFO
# is refused with its name before a byte is read (a FIFO used to block in
# open(), /dev/zero to pass for an empty file).
. "$(dirname "$0")/lib.sh"

mkfifo "$TRASH/fifo" || fail_all "cannot make a FIFO"

for cmd in show report; do
	for f in /dev/zero "$TRASH/fifo"; do
		test_expect_success "ftrace $cmd -i $(basename $f): not a regular file" '
			test_expect_code 1 timeout 20 "$TPERF" ftrace $cmd -i "$f" >out 2>err &&
			echo "tperf: '"'"'$f'"'"' is not a regular file" >expect &&
			test_cmp expect err &&
			test ! -s out
		'
	done
done

test_done
