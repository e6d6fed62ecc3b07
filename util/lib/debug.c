// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/parse-options.h"

struct tperf_config tperf_config = { .demangle = true };

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fputs("tperf: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ui__error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
}

void ui__warning(const char *fmt, ...)
{
	va_list ap;

	if (tperf_config.quiet)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void ui__note(const char *fmt, ...)
{
	va_list ap;

	if (tperf_config.quiet)
		return;
	va_start(ap, fmt);
	vmsg("note: ", fmt, ap);
	va_end(ap);
}

void say(say_fn *fn, enum say_level level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(level, msg);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
	exit(PARSE_OPT_USAGE_EXIT);
}

int eprintf(int level, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (tperf_config.verbose < level || (tperf_config.quiet && !tperf_config.debug_stderr))
		return 0;
	va_start(ap, fmt);
	r = vfprintf(stderr, fmt, ap);
	va_end(ap);
	return r;
}

static const struct debug_var {
	const char *name;
	int *ptr;
	bool *flag;
} debug_vars[] = {
	{ "verbose", &tperf_config.verbose, NULL },
	{ "ordered-events", &tperf_config.debug_ordered_events, NULL },
	{ "stderr", NULL, &tperf_config.debug_stderr },
};

int debug_parse_var(const char *str)
{
	const char *eq = strchr(str, '=');
	size_t len = eq ? (size_t)(eq - str) : strlen(str);
	char *end;
	long v = 1;

	if (eq) {
		v = strtol(eq + 1, &end, 10);
		if (!eq[1] || *end || v < 0 || v > 10) {
			ui__error("bad value in '--debug %s': expected a number from 0 to 10", str);
			return -1;
		}
	}
	for (size_t i = 0; i < sizeof(debug_vars) / sizeof(debug_vars[0]); i++) {
		const struct debug_var *d = &debug_vars[i];

		if (strlen(d->name) != len || strncmp(d->name, str, len))
			continue;
		if (d->ptr)
			*d->ptr = (int)v;
		else
			*d->flag = v != 0;
		return 0;
	}
	ui__error("unknown debug variable '%.*s'; valid: verbose, ordered-events, stderr", (int)len, str);
	return -1;
}
