// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU readers of trace_pipe_raw (see ftrace-record.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/lib/io.h"
#include "util/trace/ftrace-record.h"
#include "util/trace/tracefs-instance.h"

struct ftrace_reader {
	struct ftrace_recorder *r;
	int cpu, raw_fd, out_fd;
	pthread_t thread;
	int started, err;
};

/* Read whatever is left, partial pages included. */
static int drain(struct ftrace_reader *rd, char *page)
{
	for (;;) {
		ssize_t n = read(rd->raw_fd, page, rd->r->page_size);
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		err = io__write_all(rd->out_fd, page, n);
		if (err)
			return err;
	}
}

static int move_spliced(int from, int to, ssize_t n)
{
	while (n > 0) {
		ssize_t m = splice(from, NULL, to, NULL, n, SPLICE_F_MOVE);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0)
			return m < 0 ? -errno : -EIO;
		n -= m;
	}
	return 0;
}

static void *reader_main(void *arg)
{
	struct ftrace_reader *rd = arg;
	int pfd[2] = { -1, -1 }, use_read = 0;
	char *page = malloc(rd->r->page_size);

	if (!page || pipe2(pfd, O_CLOEXEC)) {
		rd->err = -ENOMEM;
		use_read = 1;
	}
	/* A 1 MiB pipe: one splice moves up to 256 pages. */
	if (!use_read)
		fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20);
	while (!rd->r->stop && !rd->err) {
		struct pollfd p = { .fd = rd->raw_fd, .events = POLLIN };
		ssize_t n;

		if (use_read) {
			rd->err = page ? drain(rd, page) : -ENOMEM;
			poll(&p, 1, 100);
			continue;
		}
		n = splice(rd->raw_fd, NULL, pfd[1], NULL, 1 << 20,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0) {
			rd->err = move_spliced(pfd[0], rd->out_fd, n);
		} else if (n < 0 && errno == EAGAIN) {
			if (poll(&p, 1, 100) > 0)
				usleep(1000);	/* data, but no full page yet */
		} else if (n < 0 && errno != EINTR) {
			use_read = 1;
		}
	}
	if (page && !rd->err)
		rd->err = drain(rd, page);
	if (pfd[0] >= 0) {
		close(pfd[0]);
		close(pfd[1]);
	}
	free(page);
	return NULL;
}

static int open_tmp(const char *dir)
{
	char path[4096];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "%s/.tperf-ftrace-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

static int start_reader(struct ftrace_recorder *r, struct ftrace_reader *rd, int cpu)
{
	char file[64], path[600];

	rd->r = r;
	rd->cpu = cpu;
	rd->out_fd = r->tmp_fds[cpu];
	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	rd->raw_fd = open(tracefs_instance__path(file, path, sizeof(path)),
			  O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rd->raw_fd < 0)
		return -errno;
	if (pthread_create(&rd->thread, NULL, reader_main, rd))
		return -EAGAIN;
	rd->started = 1;
	return 0;
}

int ftrace_recorder__start(struct ftrace_recorder *r, const int *cpus, int nr,
			   const char *tmpdir)
{
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->page_size = sysconf(_SC_PAGESIZE);
	r->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	r->tmp_fds = malloc(r->nr_cpus * sizeof(int));
	r->readers = calloc(r->nr_cpus, sizeof(*r->readers));
	if (!r->tmp_fds || !r->readers)
		return -ENOMEM;
	for (int i = 0; i < r->nr_cpus; i++)
		r->tmp_fds[i] = -1;
	for (int i = 0; i < r->nr_cpus; i++) {
		r->tmp_fds[i] = open_tmp(tmpdir);
		if (r->tmp_fds[i] < 0)
			return r->tmp_fds[i];
	}
	for (int i = 0; i < (cpus ? nr : r->nr_cpus) && !ret; i++) {
		int cpu = cpus ? cpus[i] : i;

		if (cpu < 0 || cpu >= r->nr_cpus)
			continue;
		r->readers[r->nr_readers].raw_fd = -1;
		ret = start_reader(r, &r->readers[r->nr_readers++], cpu);
	}
	return ret;
}

int ftrace_recorder__stop(struct ftrace_recorder *r)
{
	int ret = 0;

	r->stop = 1;
	for (int i = 0; i < r->nr_readers; i++) {
		struct ftrace_reader *rd = &r->readers[i];

		if (rd->started)
			pthread_join(rd->thread, NULL);
		rd->started = 0;
		if (rd->raw_fd >= 0)
			close(rd->raw_fd);
		rd->raw_fd = -1;
		if (!ret)
			ret = rd->err;
	}
	return ret;
}

void ftrace_recorder__exit(struct ftrace_recorder *r)
{
	ftrace_recorder__stop(r);
	for (int i = 0; r->tmp_fds && i < r->nr_cpus; i++)
		if (r->tmp_fds[i] >= 0)
			close(r->tmp_fds[i]);
	free(r->tmp_fds);
	free(r->readers);
	memset(r, 0, sizeof(*r));
}
