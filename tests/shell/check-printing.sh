#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Who prints (Documentation/design.md, "Messages"): below the commands only
# util/lib (the message functions, usage, the pager) writes to the
# terminal.  Any other util/ file that calls error()/warning()/note() (or
# ui__*), die_usage(), pr_err/pr_warning/pr_info, printf/puts/perror, or
# names stdout or stderr, outside a comment, must be on
# tests/shell/printing.allow: FILE TEXT REASON, where TEXT (no spaces) is a
# part of each line allowed, or * for the whole file (an output module).
# Prints FILE:LINE: what for each other one; exits 1 then.
#
# Usage: tests/shell/check-printing.sh [SRCDIR [ALLOWLIST]]
src=${1:-$(dirname "$0")/../..}
allow=${2:-$(dirname "$0")/printing.allow}
[ -f "$allow" ] || { echo "$allow: no such file"; exit 1; }
allow=$(cd "$(dirname "$allow")" && pwd)/$(basename "$allow")
cd "$src" || exit 1
out=$(grep -Hn -E '(error|warning|note|die_usage|pr_err|pr_warning|pr_info|printf|puts|putchar|perror)\(|std(out|err)' \
	util/*/*.c util/*/*.h 2>/dev/null | grep -v '^util/lib/' |
	awk -v allow="$allow" '
	BEGIN {
		while ((getline line < allow) > 0) {
			if (line ~ /^[[:space:]]*(#|$)/)
				continue
			split(line, w, /[ \t]+/)
			n++; file[n] = w[1]; text[n] = w[2]
		}
		re = "(^|[^A-Za-z0-9_])((ui__)?(error|warning|note)|die_usage|pr_(err|warning|info)|printf|puts|putchar|perror)\\(|(^|[^A-Za-z0-9_])std(out|err)($|[^A-Za-z0-9_])"
	}
	{
		f = $0; sub(/:.*/, "", f)
		rest = $0; sub(/^[^:]*:[0-9]+:/, "", rest)
		# code only: not a comment line, nor a comment after the code
		if (rest ~ /^[[:space:]]*(\/?\*|\/\/)/)
			next
		sub(/\/\*.*/, "", rest); sub(/\/\/.*/, "", rest)
		if (rest !~ re)
			next
		ok = 0
		for (i = 1; i <= n; i++)
			if (file[i] == f && (text[i] == "*" || index(rest, text[i])))
				ok = 1
		if (!ok) {
			l = $0; sub(/^[^:]*:/, "", l); sub(/:.*/, "", l)
			print f ":" l ": prints below the commands (return the error, or say() through the object'"'"'s hook)"
		}
	}')
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
