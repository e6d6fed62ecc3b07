#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The library as another tool uses it: examples/count.c (shown in
# Documentation/libtperf.md) links libtperf.a alone and counts a command;
# libtperf.a exports the public header's functions and nothing else.
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

LIB=$(dirname "$TPERF")/libtperf.a
# the global names a program sees in libtperf.a (a sanitizer build adds its own)
exported() {
	nm -g --defined-only "$LIB" | awk 'NF == 3 { print $3 }' |
		grep -v -E '^_*(asan|ubsan|sancov|lsan|odr_asan)' | sort
}

test_expect_success 'libtperf.a exports exactly the TPERF_API functions of tperf.h' '
	sed -n "s/^TPERF_API [^(]*[ *]\(tperf_[a-z_]*\)(.*/\1/p" \
		"$SRC_DIR/include/tperf/tperf.h" | sort >expect &&
	test $(wc -l <expect) -ge 7 &&
	exported >names &&
	test_cmp expect names
'

test_expect_success 'no name libtperf.a exports is one of libc'"'"'s' '
	libc=$(${CC:-cc} -print-file-name=libc.so.6) &&
	nm -D --defined-only "$libc" | awk "{ print \$3 }" | sed "s/@.*//" | sort -u >libc &&
	test $(wc -l <libc) -gt 1000 &&
	grep -q -x error libc &&
	exported >names &&
	comm -12 libc names >both &&
	test_cmp /dev/null both
'

test_expect_success 'a function outside the public API does not link' '
	cat >internal.c <<-\EOF &&
	struct evlist;
	struct evlist *evlist__new(void);
	int main(void) { return evlist__new() != 0; }
	EOF
	test_must_fail ${CC:-cc} -o internal internal.c "$LIB" 2>err &&
	grep -q "undefined reference to .evlist__new" err
'

test_done
