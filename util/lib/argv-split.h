/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A command line given as one string (an option's value) split into words
 * as sh would without expansions: blanks separate words, '...' keeps
 * everything, "..." keeps everything but \" and \\ (and \$, \`), a
 * backslash outside quotes keeps the next character.
 */
#ifndef TPERF_ARGV_SPLIT_H
#define TPERF_ARGV_SPLIT_H

/*
 * The words of @s in *@argv, NULL-terminated (one allocation: free(*argv)
 * frees it all).  Return: the number of words, -EINVAL for an unclosed
 * quote or a trailing backslash, -ENOMEM.
 */
int argv_split(const char *s, char ***argv);

#endif
