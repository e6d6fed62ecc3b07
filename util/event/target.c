// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target checks.  As in perf, a process or thread target wins over -a and
 * -C: the CPU options are dropped with a warning, not refused.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>

#include "util/event/target.h"

/* "N[,N...]" with positive decimal numbers. */
static bool id_list_ok(const char *s)
{
	if (!*s)
		return false;
	for (;;) {
		if (!isdigit((unsigned char)*s) || *s == '0')
			return false;
		while (isdigit((unsigned char)*s))
			s++;
		if (!*s)
			return true;
		if (*s++ != ',' || !*s)
			return false;
	}
}

/* "0-3,6": digits, ',' and '-' only (cpu_map__new checks the ranges). */
static bool cpu_list_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != ',' && *s != '-')
			return false;
	return true;
}

/**
 * target__validate - check a target and resolve overrides the way perf does
 * @t: the target; -a / -C are cleared when -p or -t is given
 * @buf: receives a warning to print when something was overridden ("" when
 *       not), or the error message
 * @size: size of @buf
 *
 * Return: 0 (maybe with a warning in @buf) or -EINVAL with the message.
 */
int target__validate(struct target *t, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	if (t->pid && !id_list_ok(t->pid)) {
		snprintf(buf, size, "invalid process id list '%s': expected PID[,PID...]", t->pid);
		return -EINVAL;
	}
	if (t->tid && !id_list_ok(t->tid)) {
		snprintf(buf, size, "invalid thread id list '%s': expected TID[,TID...]", t->tid);
		return -EINVAL;
	}
	if (t->cpu_list && !cpu_list_ok(t->cpu_list)) {
		snprintf(buf, size, "invalid CPU list '%s': expected a list such as '0-3,6'",
			 t->cpu_list);
		return -EINVAL;
	}
	if (target__has_task(t) && t->cpu_list) {
		t->cpu_list = NULL;
		snprintf(buf, size, "-p/-t given: ignoring the CPU list of -C");
	}
	if (target__has_task(t) && t->system_wide) {
		t->system_wide = false;
		snprintf(buf, size, "-p/-t given: ignoring -a (counting the given %s only)",
			 t->pid ? "processes" : "threads");
	}
	return 0;
}
