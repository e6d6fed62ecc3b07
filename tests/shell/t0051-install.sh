#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install`: PREFIX and DESTDIR, the binary runs from its new home, the
# man pages are found by man(1) and by `tperf help CMD`, a program builds
# against the installed library and header.
. "$(dirname "$0")/lib.sh"

command -v make >/dev/null 2>&1 || skip_all "make not installed"
# install what was built for $TPERF (O= is the folder holding it, relative
# when inside the tree, as the build was made) without rebuilding it
BUILD=$(cd "$(dirname "$TPERF")" && pwd)
case $BUILD in
"$SRC_DIR") O=. ;;
"$SRC_DIR"/*) O=${BUILD#"$SRC_DIR"/} ;;
*) O=$BUILD ;;
esac
test_lazy_prereq CC 'command -v cc'
install_to() {
	make -s --no-print-directory -C "$SRC_DIR" O="$O" "$@" install-files >install.log 2>&1 ||
		{ cat install.log; return 1; }
}
pages() {
	for f in "$SRC_DIR"/Documentation/tperf*.txt; do basename "$f" .txt; done
}

test_expect_success 'install PREFIX= puts the binary, every man page and the library in place' '
	install_to PREFIX="$PWD/p" &&
	test -x p/bin/tperf &&
	p/bin/tperf --version >out &&
	"$TPERF" --version >expect &&
	test_cmp expect out &&
	for pg in $(pages); do
		test -f "p/share/man/man1/$pg.1" || { echo "missing $pg.1"; exit 1; }
	done &&
	(cd p && find . -type f | sort) >files &&
	(echo ./bin/tperf; echo ./lib/libtperf.a; echo ./include/tperf/tperf.h
	 for pg in $(pages); do echo "./share/man/man1/$pg.1"; done) | sort >expect &&
	test_cmp expect files
'

test_expect_success 'install-files refuses a build that is not there' '
	test_must_fail make -s --no-print-directory -C "$SRC_DIR" O="$PWD/nobuild" \
		PREFIX="$PWD/p" install-files 2>err &&
	echo "install: '"'"'$PWD/nobuild/tperf'"'"' is not built: run make first" >expect &&
	head -1 err >first &&
	test_cmp expect first &&
	test ! -e p
'

test_expect_success 'install DESTDIR= stages under the destination' '
	install_to PREFIX=/opt/tperf DESTDIR="$PWD/stage" &&
	test -x stage/opt/tperf/bin/tperf &&
	test -f stage/opt/tperf/share/man/man1/tperf-version.1 &&
	test -f stage/opt/tperf/lib/libtperf.a &&
	test $(find stage -type f | wc -l) = $(( $(pages | wc -l) + 3 ))
'

test_expect_success CC 'the example builds against the installed library and header alone' '
	install_to PREFIX="$PWD/p" &&
	# a SANITIZE=1 build links the sanitizers'"'"' runtimes too
	san=$(nm p/lib/libtperf.a | awk "/ U __asan_/ { print 1; exit }") &&
	flags=$(make -s --no-print-directory -C "$SRC_DIR" O="$O" SANITIZE=$san print-LDFLAGS) &&
	libs=$(make -s --no-print-directory -C "$SRC_DIR" O="$O" SANITIZE=$san print-LDLIBS) &&
	${CC:-cc} $flags -I"$PWD/p/include" -o count "$SRC_DIR/examples/count.c" "$PWD/p/lib/libtperf.a" $libs &&
	./count task-clock,page-faults true >out &&
	grep -Eq "^task-clock: [1-9][0-9]*$" out &&
	grep -Eq "^page-faults: [1-9][0-9]*$" out
'

test_expect_success MAN 'man -M finds each installed page' '
	install_to PREFIX="$PWD/p" &&
	for pg in $(pages); do
		man -M "$PWD/p/share/man" -w "$pg" >where &&
		echo "$PWD/p/share/man/man1/$pg.1" >expect &&
		test_cmp expect where || exit 1
	done &&
	MANPAGER=cat MANWIDTH=80 man -M "$PWD/p/share/man" tperf-version >page 2>&1 &&
	grep -q "tperf-version - display the version of tperf" page
'

test_expect_success MAN 'help CMD of the installed binary shows the installed page' '
	install_to PREFIX="$PWD/p" &&
	sed -i "s/display the version of tperf/INSTALLED PAGE/" p/share/man/man1/tperf-version.1 &&
	TPERF_HELP_MAN=1 MANPAGER=cat MANWIDTH=80 p/bin/tperf help version >out 2>&1 &&
	grep -q "tperf-version - INSTALLED PAGE" out &&
	TPERF_HELP_MAN=1 MANPAGER=cat MANWIDTH=80 p/bin/tperf version --help >out 2>&1 &&
	grep -q "tperf-version - INSTALLED PAGE" out
'

test_done
