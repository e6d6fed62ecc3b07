// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Splitting a command line string into words, for options that take a
 * command to exec (stat --compare-with) rather than to give to sh -c, so
 * that no shell is counted with the command.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/argv-split.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * One pass over @s: the words' bytes, each ended by a NUL, into @out
 * (when not NULL); the number of words in *@nr.  Returns the bytes
 * written, or -EINVAL.
 */
static long split_pass(const char *s, char *out, int *nr)
{
	long len = 0;
	int words = 0;

	while (*s) {
		char quote = 0;

		while (is_blank(*s))
			s++;
		if (!*s)
			break;
		for (; *s && (quote || !is_blank(*s)); s++) {
			char c = *s;

			if (quote == '\'') {
				if (c == '\'') {
					quote = 0;
					continue;
				}
			} else if (c == '\'' || c == '"') {
				if (!quote) {
					quote = c;
					continue;
				}
				if (c == quote) {
					quote = 0;
					continue;
				}
			} else if (c == '\\') {
				/* in "...", only these lose their backslash (as sh) */
				if (!s[1])
					return -EINVAL;
				if (!quote || strchr("\"\\$`", s[1]))
					c = *++s;
			}
			if (out)
				out[len] = c;
			len++;
		}
		if (quote)
			return -EINVAL;
		if (out)
			out[len] = '\0';
		len++;
		words++;
	}
	*nr = words;
	return len;
}

/**
 * argv_split - the words of a command line string
 * @s: the string
 * @argv: receives the NULL-ended words, in one allocation
 *
 * Return: the number of words, -EINVAL (an unclosed quote, a trailing
 * backslash) or -ENOMEM.
 */
int argv_split(const char *s, char ***argv)
{
	long len;
	int nr;
	char **v, *p;

	*argv = NULL;
	len = split_pass(s, NULL, &nr);
	if (len < 0)
		return (int)len;
	v = malloc((nr + 1) * sizeof(*v) + len + 1);
	if (!v)
		return -ENOMEM;
	p = (char *)(v + nr + 1);
	split_pass(s, p, &nr);
	for (int i = 0; i < nr; i++) {
		v[i] = p;
		p += strlen(p) + 1;
	}
	v[nr] = NULL;
	*argv = v;
	return nr;
}
