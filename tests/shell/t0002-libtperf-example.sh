#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The library as another tool uses it: examples/count.c (shown in
# Documentation/libtperf.md) links libtperf.a alone and counts a command.
. "$(dirname "$0")/lib.sh"

COUNT=$(dirname "$TPERF")/examples/count
[ -x "$COUNT" ] || fail_all "examples/count is not built (make all builds it)"

test_expect_success 'the documented example is the one in examples/' '
	sed -n "/^\`\`\`c$/,/^\`\`\`$/p" "$SRC_DIR/Documentation/libtperf.md" | sed "1d;\$d" >doc.c &&
	test_cmp "$SRC_DIR/examples/count.c" doc.c
'

test_expect_success 'count: events of a command, its exit status, unsupported events' '
	test_expect_code 3 "$COUNT" "page-faults,cycles" sh -c "exit 3" >out &&
	sed -n 1p out | grep -Eq "^page-faults: [1-9][0-9]*$" &&
	sed -n 2p out | grep -qx "cycles: not supported"
'

test_expect_success 'count: a bad event string gets the parser message' '
	test_expect_code 129 "$COUNT" "cpu-clock:z" true 2>err &&
	grep -q "unknown modifier" err
'

test_done
