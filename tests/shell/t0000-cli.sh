#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tperf command line: dispatch, help, version, usage errors.
. "$(dirname "$0")/lib.sh"

test_expect_success 'tperf --version prints the version line' '
	tperf --version >out &&
	grep -Eq "^tperf version [0-9]+\.[0-9]+\.[0-9]+$" out &&
	test $(wc -l <out) = 1
'

test_expect_success 'version --build-options lists every library' '
	tperf version --build-options >out &&
	for l in libtraceevent libtracefs libdw libelf zlib zstd capstone libunwind libdeflate libbabeltrace; do
		grep -Eq "^ *$l: \[ (on |OFF) \]" out || { echo "missing $l"; exit 1; }
	done
'

test_expect_success 'an unknown command is a usage error with a suggestion' '
	test_expect_code 129 tperf verison 2>err &&
	echo "tperf: '"'"'verison'"'"' is not a tperf command; did you mean '"'"'version'"'"'? (perf: '"'"'verison'"'"' is not a perf-command)" >expect &&
	test_cmp expect err
'

test_expect_success 'an unknown option is a usage error with a suggestion' '
	test_expect_code 129 tperf version --build-option=1 2>err &&
	head -1 err >first &&
	echo "error: option '"'"'--build-options'"'"' takes no value" >expect &&
	test_cmp expect first &&
	test_expect_code 129 tperf test --lsit 2>err &&
	head -1 err >first &&
	echo "error: unknown option '"'"'--lsit'"'"'; did you mean '"'"'--list'"'"'?" >expect &&
	test_cmp expect first
'

test_expect_success 'an unknown global option is a usage error' '
	test_expect_code 129 tperf --frobnicate version 2>err &&
	grep -q "unknown option '"'"'--frobnicate'"'"'" err
'

test_expect_success 'no command lists the commands and exits 129' '
	test_expect_code 129 tperf >out &&
	grep -q "^   version  *Display the version of tperf$" out
'

test_expect_success 'tperf help lists every command with a summary' '
	tperf help >out &&
	for c in $(tperf --list-cmds); do
		grep -Eq "^   $c +[A-Z]" out || { echo "no line for $c"; exit 1; }
	done
'

test_expect_success 'CMD -h prints the usage from the option table and exits 129' '
	test_expect_code 129 tperf version -h >out &&
	grep -q "^ Usage: tperf version \[<options>\]$" out &&
	grep -q "^        --build-options   display the optional libraries compiled in$" out
'

test_expect_success 'help CMD without a man page prints the usage and succeeds' '
	TPERF_HELP_MAN= tperf help version >out &&
	grep -q "Usage: tperf version" out
'

test_expect_success MAN 'help CMD shows the manual page when one exists' '
	TPERF_HELP_MAN=1 MANPAGER=cat MANWIDTH=80 tperf help version >out 2>&1 &&
	grep -q "tperf-version - display the version of tperf" out
'

test_expect_success 'help of an unknown command suggests the closest' '
	test_expect_code 129 tperf help tset 2>err &&
	grep -q "did you mean '"'"'test'"'"'" err
'

test_expect_success 'every command has a builtin, a manual page and documented options' '
	for c in $(tperf --list-cmds); do
		doc=$SRC_DIR/Documentation/tperf-$c.txt
		test -f "$doc" || { echo "no $doc"; exit 1; }
		# each usage line of CMD -h appears in the SYNOPSIS
		tperf $c -h 2>/dev/null | sed -n "s/^ *\(Usage\|or\): //p" >usage
		sed -n "/^SYNOPSIS/,/^DESCRIPTION/p" "$doc" >synopsis
		while read -r line; do
			grep -qxF "$line" synopsis || { echo "$c: usage line not in SYNOPSIS: $line"; exit 1; }
		done <usage
		for o in $(tperf $c --list-opts 2>/dev/null); do
			grep -Eq -- "^$o(=|::| |\[)" "$doc" || { echo "$c: option $o not documented"; exit 1; }
		done
	done
'

test_expect_success '--debug takes known variables only' '
	tperf --debug verbose=2 version >/dev/null &&
	test_expect_code 129 tperf --debug nosuch version 2>err &&
	grep -q "unknown debug variable '"'"'nosuch'"'"'" err
'

test_expect_success 'output to a full device is an error' '
	test_must_fail tperf help >/dev/full 2>err &&
	grep -q "cannot write output" err
'

test_done
