// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C++ names of probe definitions (see probe-cxx.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

#include "util/symbol/probe-cxx.h"

bool probe_cxx__qualified(const char *func)
{
	return func && (strstr(func, "::") || strpbrk(func, "<("));
}

bool probe_cxx__can_demangle(void)
{
#ifdef HAVE_LIBIBERTY
	return true;
#else
	return false;
#endif
}

char *probe_cxx__demangle(const char *mangled, bool params)
{
#ifdef HAVE_LIBIBERTY
	if (!mangled || strncmp(mangled, "_Z", 2))
		return NULL;
	return cplus_demangle(mangled, params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS);
#else
	(void)mangled;
	(void)params;
	return NULL;
#endif
}

/* @s without its spaces, in place. */
static void squeeze(char *s)
{
	char *d = s;

	for (; *s; s++)
		if (*s != ' ')
			*d++ = *s;
	*d = '\0';
}

/* Does @name end with @pat, at the start of @name or after a "::"? */
static bool tail_matches(const char *name, const char *pat)
{
	size_t ln = strlen(name), lp = strlen(pat);

	if (lp > ln || strcmp(name + ln - lp, pat))
		return false;
	return lp == ln || (ln - lp >= 2 && !strncmp(name + ln - lp - 2, "::", 2));
}

/*
 * "NAME(PARAMS)[ const]" of @mangled: the name as demangled without
 * parameters (no return type of a template), then its parameter list.
 */
static char *name_with_params(const char *mangled)
{
	char *name = probe_cxx__demangle(mangled, false);
	char *full = probe_cxx__demangle(mangled, true), *out = NULL;
	const char *close = full ? strrchr(full, ')') : NULL, *p = close;
	int depth = 0;

	while (p && p > full) {	/* back to the '(' of the last ')' */
		if (*p == ')')
			depth++;
		else if (*p == '(' && !--depth)
			break;
		p--;
	}
	if (name && p && *p == '(' && asprintf(&out, "%s%s", name, p) < 0)
		out = NULL;
	free(name);
	free(full);
	return out;
}

bool probe_cxx__match(const char *pattern, const char *mangled)
{
	char *name = strchr(pattern, '(') ? name_with_params(mangled) :
		     probe_cxx__demangle(mangled, false);
	char *pat = strdup(pattern);
	bool ret = false;

	if (name && pat) {
		squeeze(name);
		squeeze(pat);
		ret = tail_matches(name, pat);
	}
	free(name);
	free(pat);
	return ret;
}

void probe_cxx__event_name(const char *func, char *buf, size_t size)
{
	const char *start = func, *p;
	size_t n = 0;
	int depth = 0;

	/* the last "::" outside template arguments and parameters */
	for (p = func; *p; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':')
			start = p + 2;
	}
	for (p = start; *p && *p != '<' && *p != '(' && n + 1 < size; p++)
		buf[n++] = isalnum((unsigned char)*p) ? *p : '_';
	if (size)
		buf[n] = '\0';
}
