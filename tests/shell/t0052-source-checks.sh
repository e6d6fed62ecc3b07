#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The checks STYLE.md asks of every source file: no trailing whitespace and
# no space before a tab in the indent (git diff --check), codespell clean,
# and each util/ header says what it is for before its first declaration.
# Words codespell must accept go in .codespellrc (ignore-words-list = ...).
. "$(dirname "$0")/lib.sh"

# the sources: tracked and new files (not ignored ones), but not test data
# or fuzz corpora, whose bytes are what they must be
sources() {
	if git -C "$SRC_DIR" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$SRC_DIR" ls-files -co --exclude-standard -- "$@"
	else
		(cd "$SRC_DIR" && find . -type f | sed 's|^\./||')
	fi | grep -Ev '^(tests/data/|tests/fuzz/corpus/|build/)' | sort -u |
		while read -r f; do [ -f "$SRC_DIR/$f" ] && echo "$f"; done
}
PATTERNS=("*.c" "*.h" "*.sh" "*.txt" "*.md" "*.py" "*.awk" "Makefile" "*.mk")

test_expect_success 'there are sources to check' '
	sources "${PATTERNS[@]}" >files &&
	grep -qx perf.c files &&
	grep -qx Makefile files
'

test_expect_success 'no trailing whitespace' '
	sources "${PATTERNS[@]}" >files &&
	(cd "$SRC_DIR" && xargs -d "\n" grep -nE "[[:space:]]+$" -- <"$TRASH/t$test_count/files") >bad
	test_cmp /dev/null bad
'

test_expect_success 'no space before a tab in the indent' '
	sources "${PATTERNS[@]}" >files &&
	(cd "$SRC_DIR" && xargs -d "\n" grep -nP "^\t* +\t" -- <"$TRASH/t$test_count/files") >bad
	test_cmp /dev/null bad
'

test_expect_success 'no blank line at the end of a file' '
	sources "${PATTERNS[@]}" >files &&
	while read -r f; do
		[ -s "$SRC_DIR/$f" ] || continue
		[ -z "$(tail -c1 "$SRC_DIR/$f")" ] || { echo "$f: no newline at end of file"; continue; }
		[ -n "$(tail -n1 "$SRC_DIR/$f")" ] || echo "$f: blank line at end of file"
	done <files >bad &&
	test_cmp /dev/null bad
'

test_expect_success 'codespell finds no misspelling' '
	command -v codespell >/dev/null || { echo "codespell missing: run scripts/install-deps.sh"; exit 1; }
	sources "*.c" "*.h" "*.txt" "*.md" >files &&
	(cd "$SRC_DIR" && xargs -d "\n" codespell -- <"$TRASH/t$test_count/files") >bad 2>&1
	test_cmp /dev/null bad
'

test_expect_success 'each util/ header describes itself before its first declaration' '
	sources "util/*.h" "arch/*.h" >files &&
	test -s files &&
	while read -r f; do
		awk -v f="$f" "
			FNR == 1 && /SPDX-License-Identifier/ { next }
			/^[ \t]*(\\/\\*|\\*|\\/\\/)/ { found = 1; exit }
			/^[ \t]*(#|$)/ { next }
			{ exit }
			END { if (!found) print f \": no comment before the first declaration\" }
		" "$SRC_DIR/$f"
	done <files >bad &&
	test_cmp /dev/null bad
'

test_done
