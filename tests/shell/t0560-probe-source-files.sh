#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf probe reads a program's source (-L, and the lazy patterns
# FUNC;PATTERN) under the folder -s/--source names, a line at a time: only
# a regular file, and lines of at most 1 MiB.  A source that is /dev/zero
# was read as one endless line until memory ran out, a FIFO blocked for
# ever.  Each run has a 500 MB memory limit and a timeout (test_limit_memory).
. "$(dirname "$0")/lib.sh"
test_lazy_prereq CC 'command -v cc'

limited() { test_limit_memory 500 "$@"; }

test_expect_success CC 'setup: a program and its source' '
	mkdir "$TRASH/src" "$TRASH/zero" "$TRASH/fifo" &&
	printf "int main(void)\n{\n\treturn 0;\n}\n" >"$TRASH/src/s.c" &&
	(cd "$TRASH/src" && cc -g -O0 -o ../prog s.c) &&
	ln -s /dev/zero "$TRASH/zero/s.c" &&
	mkfifo "$TRASH/fifo/s.c" &&
	limited "$TPERF" probe -x "$TRASH/prog" -s "$TRASH/src" -L main >out &&
	grep -q "return 0;" out
'

for kind in zero fifo; do
	test_expect_success CC "-L with a source that is a $kind: not a regular file" '
		test_expect_code 1 limited "$TPERF" probe -x "$TRASH/prog" -s "$TRASH/$kind" -L main \
			>out 2>err &&
		echo "tperf: cannot read the source '"'"'$TRASH/$kind//s.c'"'"': not a regular file" \
			>expect &&
		test_cmp expect err
	'

	test_expect_success CC "a lazy pattern in a source that is a $kind: not a regular file" '
		test_expect_code 234 limited "$TPERF" probe -x "$TRASH/prog" -s "$TRASH/$kind" \
			-D "main;return*" >out 2>err &&
		echo "tperf: cannot read the source '"'"'$TRASH/$kind//s.c'"'"' for the pattern '"'"'return*'"'"': not a regular file" \
			>expect &&
		test_cmp expect err
	'
done

test_expect_success CC 'a source line longer than 1 MiB: an error naming the line' '
	mkdir long &&
	{ printf "int main(void)\n/* " && head -c 1100000 /dev/zero | tr "\0" x &&
	  printf " */\n{\n\treturn 0;\n}\n"; } >long/s.c &&
	test_expect_code 1 limited "$TPERF" probe -x "$TRASH/prog" -s long -L main >out 2>err &&
	echo "tperf: line 2 of the source '"'"'long//s.c'"'"' is longer than 1 MiB" >expect &&
	test_cmp expect err
'

test_done
