// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What several commands share at the command line: the -e, --filter and
 * --exclude-perf option callbacks over util/event's parser, and the notes
 * of work util/ did on the machine for them (mounting tracefs).  Like
 * every builtin, these print; util/ returns the errors and leaves the
 * messages in the objects (Documentation/design.md, "Messages").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "builtin.h"
#include "util/event/evlist.h"
#include "util/event/parse-events.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/fs.h"
#include "util/lib/parse-options.h"

int parse_events_option(const struct option *opt, const char *str, int unset)
{
	struct evlist **evlist = opt->value;
	struct parse_events_error err;
	int ret;

	if (unset || !str)
		return 0;
	if (!*evlist) {
		*evlist = evlist__new();
		if (!*evlist) {
			ui__error("out of memory parsing events '%s'", str);
			return -1;
		}
	}
	ret = parse_events(*evlist, str, &err);
	builtin__note_tracefs((*evlist)->parse.tracefs_mounted);
	(*evlist)->parse.tracefs_mounted = false;
	if (ret) {
		if (err.msg)
			parse_events_error__print(&err, stderr);
		else
			ui__error("cannot parse events '%s': %s", str, strerror(-ret));
		parse_events_error__exit(&err);
		return -1;
	}
	parse_events__end_option(*evlist);
	return 0;
}

int parse_tp_filter_option(const struct option *opt, const char *str, int unset)
{
	char msg[512];

	if (unset || !str)
		return 0;
	if (parse_events__filter_last(*(struct evlist **)opt->value, str, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

int parse_exclude_perf_option(const struct option *opt, const char *str, int unset)
{
	char msg[512];

	if (unset)
		return 0;
	if (parse_events__exclude_perf_last(*(struct evlist **)opt->value, msg, sizeof(msg))) {
		ui__error("%s", msg);
		return -1;
	}
	return 0;
}

void builtin__say(enum say_level level, const char *msg)
{
	switch (level) {
	case SAY_NOTE:
		ui__note("%s", msg);
		break;
	case SAY_WARNING:
		ui__warning("%s", msg);
		break;
	case SAY_PROGRESS:	/* on one line, rewritten; "" erases it */
		if (*msg)
			fprintf(stderr, "\r%s", msg);
		else
			fputs("\r\033[K", stderr);
		break;
	}
}

say_fn *builtin__progress(void)
{
	return !tperf_config.quiet && isatty(STDERR_FILENO) ? builtin__say : NULL;
}

void builtin__note_tracefs(bool mounted)
{
	if (mounted)
		ui__note("tracefs was not mounted: mounted it at %s", tracefs__mountpoint());
}

const char *builtin__tracefs_strerror(int err)
{
	if (geteuid() != 0 && err == EACCES)
		return "Permission denied: tracefs is root's: run tperf as root (e.g. with sudo)";
	if (geteuid() != 0 && err == EPERM)
		return "Operation not permitted: tracefs is root's: run tperf as root (e.g. with sudo)";
	return strerror(err);
}

/* /dev/null: an empty file (--kallsyms=/dev/null: no kernel symbols, as in perf) */
static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

int builtin__check_text_file(const char *opt, const char *path)
{
	struct stat st;

	if (access(path, R_OK) || stat(path, &st)) {
		ui__error("cannot read the %s file '%s': %s", opt, path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !is_dev_null(&st)) {
		ui__error("the %s file '%s' is not a regular file", opt, path);
		return -1;
	}
	return 0;
}
