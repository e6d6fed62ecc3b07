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

# A fresh machine, imitated: pkg-config finds no library, dpkg-query knows
# no package, and apt-get is a stub that logs its calls.
fresh_machine() {
	mkdir -p stub empty &&
	printf "#!/bin/sh\necho \"STUB apt-get \$*\" >&2\necho \"\$*\" >>\"$PWD/apt.log\"\n" >stub/apt-get &&
	printf "#!/bin/sh\nexit 1\n" >stub/dpkg-query &&
	chmod +x stub/apt-get stub/dpkg-query
}

for target in demo check check-full; do
	test_expect_success ROOT "make $target installs the packages before it checks the libraries" '
		fresh_machine &&
		PATH="$PWD/stub:$PATH" PKG_CONFIG_LIBDIR=$PWD/empty PKG_CONFIG_PATH= \
			test_expect_code 2 make -C "$SRC_DIR" O="$PWD/b" '"$target"' >out 2>&1 &&
		cat out &&
		grep -q "^install -y .* libtraceevent-dev .*linux-perf" apt.log &&
		inst=$(grep -n "^STUB apt-get install" out | cut -d: -f1) &&
		miss=$(grep -n "missing library libtraceevent: install the Debian package libtraceevent-dev" out | cut -d: -f1) &&
		test -n "$inst" && test -n "$miss" && test "$inst" -lt "$miss"
	'
done

test_expect_success 'plain make on a machine without the libraries does not call apt' '
	fresh_machine &&
	PATH="$PWD/stub:$PATH" PKG_CONFIG_LIBDIR=$PWD/empty PKG_CONFIG_PATH= \
		test_expect_code 2 make -C "$SRC_DIR" O="$PWD/b" >out 2>&1 &&
	grep -q "missing library libtraceevent" out &&
	test_path_is_missing apt.log
'

test_expect_success 'install-deps does not call apt when every package is there' '
	fresh_machine &&
	rm stub/dpkg-query &&
	PATH="$PWD/stub:$PATH" sh "$SRC_DIR/scripts/install-deps.sh" >out 2>&1 &&
	test_cmp /dev/null out &&
	test_path_is_missing apt.log
'

test_expect_success 'libtperf-internal.a holds util/ and the binary links it' '
	lib=$(dirname "$TPERF")/libtperf-internal.a &&
	test -f "$lib" &&
	nm "$lib" >syms &&
	grep -q " T parse_events$" syms &&
	grep -q " T evlist__open$" syms &&
	grep -q " T perf_session__new$" syms &&
	! grep -q " T main$" syms
'

test_done
