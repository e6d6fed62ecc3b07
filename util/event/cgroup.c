// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroups as event targets: where the hierarchy is mounted and the
 * descriptor of one cgroup's folder.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/event/cgroup.h"
#include "util/lib/fs.h"

/* Whether the comma-separated mount options @opts hold @word. */
static bool has_option(const char *opts, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/*
 * The mount point of the perf_event v1 hierarchy, else of cgroup2, from
 * the mount table: 0 or -ENOENT.
 */
static int cgroup__mountpoint(char *buf, size_t size)
{
	char *text, *line, *save = NULL;
	bool found_v1 = false, found = false;
	size_t len;

	if (procfs__read_str("self/mounts", &text, &len))
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); line && !found_v1;
	     line = strtok_r(NULL, "\n", &save)) {
		char dir[PATH_MAX], type[64], opts[1024];

		if (sscanf(line, "%*s %4095s %63s %1023s", dir, type, opts) != 3)
			continue;
		if (!strcmp(type, "cgroup") && has_option(opts, "perf_event")) {
			snprintf(buf, size, "%s", dir);
			found = found_v1 = true;
		} else if (!strcmp(type, "cgroup2") && !found) {
			snprintf(buf, size, "%s", dir);
			found = true;
		}
	}
	free(text);
	return found ? 0 : -ENOENT;
}

/**
 * cgroup__open - the descriptor of a cgroup's folder, for perf_event_open()
 * @name: the cgroup, relative to the hierarchy's root ("/" is the root)
 * @msg: receives the error
 * @size: its size
 *
 * Return: the descriptor (close-on-exec), or -errno with @msg filled
 * (perf's "no access to cgroup PATH").
 */
int cgroup__open(const char *name, char *msg, size_t size)
{
	char mnt[PATH_MAX], path[PATH_MAX + 256];
	int fd;

	if (cgroup__mountpoint(mnt, sizeof(mnt))) {
		snprintf(msg, size, "no cgroup file system mounted (neither cgroup2 nor the perf_event controller of cgroup v1)");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s", mnt, *name == '/' ? name + 1 : name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		snprintf(msg, size, "no access to cgroup %s: %s", path, strerror(err));
		return -err;
	}
	return fd;
}
