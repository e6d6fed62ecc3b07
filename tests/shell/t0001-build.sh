#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The build: a missing library is named with its Debian package; the
# library and the binary are laid out as documented.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a missing required library stops the build with its package name' '
	PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= \
		test_expect_code 2 make -s -n -C "$SRC_DIR" O="$TRASH/b" 2>err &&
	grep -F "missing library libtraceevent: install the Debian package libtraceevent-dev" err &&
	test $(grep -c "missing library" err) = 1
'

test_expect_success 'libtperf.a holds util/ and the binary links it' '
	lib=$(dirname "$TPERF")/libtperf.a &&
	test -f "$lib" &&
	nm "$lib" >syms &&
	grep -q " T parse_events$" syms &&
	grep -q " T evlist__open$" syms &&
	grep -q " T perf_session__new$" syms &&
	! grep -q " T main$" syms
'

test_done
