// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Locations of sysfs, procfs and tracefs, and small file readers.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/lib/fs.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

static const char *root_from_env(const char *var, const char *dflt)
{
	const char *v = getenv(var);

	return v && *v ? v : dflt;
}

const char *sysfs__mountpoint(void)
{
	return root_from_env("TPERF_SYSFS", "/sys");
}

const char *procfs__mountpoint(void)
{
	return root_from_env("TPERF_PROCFS", "/proc");
}

static bool is_tracefs(const char *path)
{
	struct statfs st;

	return statfs(path, &st) == 0 && (unsigned long)st.f_type == TRACEFS_MAGIC;
}

/* The first tracefs mount listed in /proc/mounts, into @buf. */
static int find_tracefs_mount(char *buf, size_t size)
{
	char path[PATH_MAX], line[1024];
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/mounts", procfs__mountpoint());
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[PATH_MAX], type[64];

		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "tracefs")) {
			snprintf(buf, size, "%s", dir);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* where tracefs is mounted, once found; the errno of a mount that failed */
static char tracefs_mnt[PATH_MAX];
static int tracefs_err;

const char *tracefs__mountpoint(void)
{
	const char *env = getenv("TPERF_TRACEFS");

	if (env && *env)
		return env;
	if (tracefs_mnt[0])
		return tracefs_mnt;
	if (find_tracefs_mount(tracefs_mnt, sizeof(tracefs_mnt)) == 0)
		return tracefs_mnt;
	tracefs_mnt[0] = '\0';
	if (is_tracefs("/sys/kernel/tracing")) {
		snprintf(tracefs_mnt, sizeof(tracefs_mnt), "/sys/kernel/tracing");
		return tracefs_mnt;
	}
	errno = tracefs_err ? tracefs_err : ENOENT;
	return NULL;
}

const char *tracefs__mount(bool *mounted)
{
	const char *path = tracefs__mountpoint();

	if (path || tracefs_err)
		return path;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL)) {
		tracefs_err = errno;
		return NULL;
	}
	if (mounted)
		*mounted = true;
	snprintf(tracefs_mnt, sizeof(tracefs_mnt), "/sys/kernel/tracing");
	return tracefs_mnt;
}

int filename__read_str(const char *path, char **buf, size_t *len)
{
	size_t size = 4096, n = 0;
	char *b = malloc(size + 1), *nb;
	int fd, err = 0;

	if (!b)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(b);
		return err;
	}
	for (;;) {
		ssize_t r = read(fd, b + n, size - n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == size) {
			size *= 2;
			nb = realloc(b, size + 1);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			b = nb;
		}
	}
	close(fd);
	if (err) {
		free(b);
		return err;
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

int filename__read_u64(const char *path, uint64_t *val)
{
	char *buf, *end;
	size_t len;
	int err = filename__read_str(path, &buf, &len);

	if (err)
		return err;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (end == buf || errno || (*end && *end != '\n'))
		err = -EINVAL;
	free(buf);
	return err;
}

static int rel_path(char *buf, size_t size, const char *root, const char *rel)
{
	if ((size_t)snprintf(buf, size, "%s/%s", root, rel) >= size)
		return -ENAMETOOLONG;
	return 0;
}

int sysfs__read_str(const char *rel, char **buf, size_t *len)
{
	char path[PATH_MAX];
	int err = rel_path(path, sizeof(path), sysfs__mountpoint(), rel);

	return err ? err : filename__read_str(path, buf, len);
}

static int read_int(const char *path, int *val)
{
	char *buf, *end;
	int err = filename__read_str(path, &buf, NULL);
	long v;

	if (err)
		return err;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (end == buf || errno || v < INT_MIN || v > INT_MAX || (*end && *end != '\n'))
		err = -EINVAL;
	else
		*val = (int)v;
	free(buf);
	return err;
}

int sysfs__read_int(const char *rel, int *val)
{
	char path[PATH_MAX];
	int err = rel_path(path, sizeof(path), sysfs__mountpoint(), rel);

	return err ? err : read_int(path, val);
}

int procfs__read_str(const char *rel, char **buf, size_t *len)
{
	char path[PATH_MAX];
	int err = rel_path(path, sizeof(path), procfs__mountpoint(), rel);

	return err ? err : filename__read_str(path, buf, len);
}

int procfs__read_int(const char *rel, int *val)
{
	char path[PATH_MAX];
	int err = rel_path(path, sizeof(path), procfs__mountpoint(), rel);

	return err ? err : read_int(path, val);
}
