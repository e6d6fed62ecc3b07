// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Private tracefs instance and its restore list (see tracefs-instance.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/trace/tracefs-instance.h"

#define TRACEFS_MAGIC_NR 0x74726163
#define MAX_RESTORE 64

static char inst_dir[512];
static int inst_created;
static volatile sig_atomic_t *stop_flag;

/* Saved values, replayed in reverse order (before the rmdir). */
static struct restore {
	char path[512];
	char val[256];
	int len;
} restores[MAX_RESTORE];
static volatile int nr_restores;

const char *tracefs_instance__mount_point(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct statfs fs;

	for (int i = 0; i < 2; i++)
		if (!statfs(dirs[i], &fs) && fs.f_type == TRACEFS_MAGIC_NR)
			return dirs[i];
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL))
		return dirs[0];
	return NULL;
}

const char *tracefs_instance__path(const char *file, char *buf, size_t size)
{
	size_t a = strlen(inst_dir), b = strlen(file);

	if (a + b + 2 > size)
		a = b = 0;
	memcpy(buf, inst_dir, a);
	buf[a] = '/';
	memcpy(buf + a + 1, file, b);
	buf[a + 1 + b] = 0;
	return buf;
}

static void write_raw(const char *path, const char *val, int len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, val, len) < 0) {
		/* nothing more can be done while restoring */
	}
	close(fd);
}

void tracefs_instance__remove(void)
{
	while (nr_restores > 0) {
		struct restore *r = &restores[--nr_restores];

		write_raw(r->path, r->val, r->len);
	}
	if (inst_created) {
		char path[600];
		int n = 0;

		/* Stop recording first: rmdir is refused while the buffer is busy. */
		tracefs_instance__path("tracing_on", path, sizeof(path));
		write_raw(path, "0", 1);
		while (rmdir(inst_dir) && errno == EBUSY && n++ < 50)
			usleep(20000);
		inst_created = 0;
	}
}

static void on_signal(int sig)
{
	if (stop_flag) {
		*stop_flag = sig;
		return;
	}
	tracefs_instance__remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

void tracefs_instance__on_signal(volatile sig_atomic_t *flag)
{
	struct sigaction sa = { .sa_handler = on_signal };

	stop_flag = flag;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int tracefs_instance__create(const char *name)
{
	const char *mnt = tracefs_instance__mount_point();
	static int registered;

	if (!mnt)
		return -ENODEV;
	if (!registered) {
		atexit(tracefs_instance__remove);
		registered = 1;
	}
	if (!stop_flag)
		tracefs_instance__on_signal(NULL);
	snprintf(inst_dir, sizeof(inst_dir), "%s/instances/%s", mnt, name);
	if (mkdir(inst_dir, 0755))
		return -errno;
	inst_created = 1;
	return 0;
}

int tracefs_instance__read(const char *file, char *buf, size_t size)
{
	char path[600];
	int fd = open(tracefs_instance__path(file, path, sizeof(path)), O_RDONLY | O_CLOEXEC);
	ssize_t n, len = 0;

	if (fd < 0)
		return -errno;
	while ((size_t)len + 1 < size && (n = read(fd, buf + len, size - len - 1)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

static int do_write(const char *file, const char *val, int flags)
{
	char path[600];
	int fd = open(tracefs_instance__path(file, path, sizeof(path)), flags | O_CLOEXEC);
	size_t len = strlen(val);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

int tracefs_instance__write(const char *file, const char *val)
{
	if (nr_restores < MAX_RESTORE) {
		struct restore *r = &restores[nr_restores];
		int len = tracefs_instance__read(file, r->val, sizeof(r->val));

		if (len >= 0) {
			tracefs_instance__path(file, r->path, sizeof(r->path));
			r->len = len;
			nr_restores++;
		}
	}
	return do_write(file, val, O_WRONLY | O_TRUNC);
}

int tracefs_instance__append(const char *file, const char *val)
{
	return do_write(file, val, O_WRONLY | O_APPEND);
}
