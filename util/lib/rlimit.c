// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RLIMIT_NOFILE: one event fd per event, CPU and thread adds up quickly
 * (200 events on 64 CPUs is 12800), so the soft limit is raised before
 * opening, up to the hard limit only CAP_SYS_RESOURCE could lift (root's,
 * unless a container took it away).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/lib/cap.h"
#include "util/lib/fs.h"
#include "util/lib/rlimit.h"

/* Descriptors kept free for files the command opens itself. */

/*
 * Count by probing descriptors when none is left to list them: up to the
 * soft limit, and at least 4096 (inherited fds may sit above a lowered one).
 */
static size_t nr_open_fds_probe(void)
{
	struct rlimit rl;
	size_t n = 0;
	int max = 4096;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur > 4096)
		max = rl.rlim_cur > 65536 ? 65536 : (int)rl.rlim_cur;
	for (int fd = 0; fd < max; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

/**
 * rlimit__nr_open_fds - descriptors open in this process now
 *
 * Return: the count (without the one used to list them).
 */
size_t rlimit__nr_open_fds(void)
{
	char path[PATH_MAX];
	struct dirent *d;
	size_t n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/self/fd", procfs__mountpoint());
	dir = opendir(path);
	if (!dir)
		return nr_open_fds_probe();
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			n++;
	closedir(dir);
	return n ? n - 1 : 0;
}

/**
 * rlimit__nofile_strerror - explain that @want descriptors do not fit
 * @want: descriptors the process needs in all
 * @buf: receives the message
 * @size: size of @buf
 *
 * Return: the length of the message.
 */
int rlimit__nofile_strerror(size_t want, char *buf, size_t size)
{
	struct rlimit rl = { 0, 0 };
	int n;

	getrlimit(RLIMIT_NOFILE, &rl);
	n = snprintf(buf, size, "too many open files: %zu descriptors are needed but the limit "
		     "(RLIMIT_NOFILE) is %llu, hard limit %llu; ", want,
		     (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
	if (n < 0 || (size_t)n >= size)
		return n;
	/* past the hard limit only with CAP_SYS_RESOURCE, which root may lack too */
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want)
		n += snprintf(buf + n, size - n, "raise it with 'ulimit -n %zu'", want);
	else if (cap__effective(CAP_SYS_RESOURCE))
		n += snprintf(buf + n, size - n, "raise it with 'ulimit -n %zu' (past the hard "
			      "limit: with CAP_SYS_RESOURCE, as root)", want);
	else
		n += snprintf(buf + n, size - n, "passing the hard limit takes CAP_SYS_RESOURCE, "
			      "which this process lacks%s: raise the hard limit where it is set "
			      "(limits.conf, systemd's LimitNOFILE=, the container's ulimits)",
			      geteuid() == 0 ? " (also as root)" : "");
	if ((size_t)n >= size)
		return n;
	return n + snprintf(buf + n, size - n, ", or count fewer events or CPUs");
}

/**
 * rlimit__ensure_nofile - make room for @needed more descriptors
 * @needed: descriptors about to be opened
 * @buf: receives the message on failure
 * @size: size of @buf
 *
 * Return: 0 or -EMFILE (the hard limit is too low) with the message.
 */
int rlimit__ensure_nofile(size_t needed, char *buf, size_t size)
{
	size_t now = rlimit__nr_open_fds();
	size_t want = now + needed + NOFILE_SLACK;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want) {
		/*
		 * The slack is room to spare, not a need: what fits with the
		 * few files of the command's own (perf opens as long as the
		 * kernel lets it) is opened under the hard limit.
		 */
		if (rl.rlim_max < now + needed + NOFILE_MIN_SLACK) {
			rlimit__nofile_strerror(want, buf, size);
			return -EMFILE;
		}
		want = rl.rlim_max;
		if (rl.rlim_cur >= want)
			return 0;
	}
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		snprintf(buf, size, "cannot raise the open-files limit (RLIMIT_NOFILE) to %zu: %m",
			 want);
		return -EMFILE;
	}
	return 0;
}
