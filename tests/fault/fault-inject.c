// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fault injection for the tests (t0482): an LD_PRELOAD library that makes
 * the calls the kernel may interrupt or cut short do so, as a signal or a
 * pipe would, so that tperf's loops around them are exercised:
 *
 *   read, write, pread, pwrite (and their 64 names), readv, writev
 *       EINTR (nothing transferred), or a short count (at least one byte)
 *   poll, ppoll, epoll_wait, select, pselect
 *   waitpid, wait4, waitid, nanosleep, clock_nanosleep
 *       EINTR
 *
 * Only descriptors where a short transfer can happen are touched: regular
 * files on ordinary file systems, pipes and sockets.  A control file of
 * tracefs, sysfs or procfs takes a write whole or refuses it, and a
 * perf_event descriptor never blocks, so they are left alone.
 *
 * Environment: FAULT_EINTR and FAULT_SHORT, the percentage of calls that
 * fail with EINTR and that are cut short (default 0); FAULT_SEED, the
 * seed of the pseudo-random choice (default 1), so a failure can be
 * replayed; FAULT_EIO_AFTER=N, a disk that fails: once N bytes went to
 * regular files, every write() and pwrite() to one fails with EIO; FAULT_LOG, a file
 * that gets one line per injected fault kind at exit, with its count (the
 * test checks faults were injected at all).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS_MAGIC_NR	0x74726163
#define DEBUGFS_MAGIC_NR	0x64626720
#define SYSFS_MAGIC_NR		0x62656572
#define PROC_MAGIC_NR		0x9fa0
#define CGROUP2_MAGIC_NR	0x63677270
#define ANON_INODE_MAGIC_NR	0x09041934

enum kind { K_EINTR, K_SHORT, K_EIO, K_NR };

static int pct[K_NR];
static atomic_ulong counts[K_NR];
static atomic_ulong state;
static int enabled = -1;
static long long eio_after = -1;	/* FAULT_EIO_AFTER, -1: none */
static atomic_llong written;		/* bytes written to regular files */

static void load_settings(void)
{
	const char *s;

	s = getenv("FAULT_EINTR");
	pct[K_EINTR] = s ? atoi(s) : 0;
	s = getenv("FAULT_SHORT");
	pct[K_SHORT] = s ? atoi(s) : 0;
	s = getenv("FAULT_SEED");
	atomic_store(&state, (s ? strtoul(s, NULL, 0) : 1) * 2654435761u + 1);
	s = getenv("FAULT_EIO_AFTER");
	eio_after = s ? strtoll(s, NULL, 0) : -1;
	enabled = pct[K_EINTR] > 0 || pct[K_SHORT] > 0 || eio_after >= 0;
}

/* xorshift on a shared state: threads may race, any value is random enough */
static unsigned int next_random(void)
{
	unsigned long x = atomic_load(&state);

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	atomic_store(&state, x);
	return (unsigned int)(x >> 11);
}

static int roll(enum kind k)
{
	if (enabled < 0)
		load_settings();
	if (!enabled || pct[k] <= 0 || (int)(next_random() % 100) >= pct[k])
		return 0;
	atomic_fetch_add(&counts[k], 1);
	return 1;
}

/* a descriptor where the kernel may interrupt or shorten a transfer */
static int fd_may_fault(int fd)
{
	struct statfs sfs;
	struct stat st;
	int saved = errno;

	if (fd < 0 || fstat(fd, &st)) {
		errno = saved;
		return 0;
	}
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		errno = saved;
		return 1;
	}
	/* (2: a regular file, where FAULT_EIO_AFTER applies) */
	if (!S_ISREG(st.st_mode) || fstatfs(fd, &sfs)) {
		errno = saved;
		return 0;
	}
	errno = saved;
	switch ((unsigned long)sfs.f_type) {
	case TRACEFS_MAGIC_NR: case DEBUGFS_MAGIC_NR: case SYSFS_MAGIC_NR:
	case PROC_MAGIC_NR: case CGROUP2_MAGIC_NR: case ANON_INODE_MAGIC_NR:
		return 0;
	default:
		return 2;
	}
}

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* EINTR before anything is done: the value the wrapper returns */
#define MAYBE_EINTR(ret) do { \
		if (roll(K_EINTR)) { errno = EINTR; return ret; } \
	} while (0)

/*
 * A write of @n bytes to a file of kind @may (fd_may_fault()): 1 when the
 * failing disk refuses it, else 0 and the bytes are counted as written.
 */
static int disk_fails(int may, size_t n)
{
	if (enabled < 0)
		load_settings();
	if (may != 2 || eio_after < 0)
		return 0;
	if (atomic_fetch_add(&written, (long long)n) + (long long)n <= eio_after)
		return 0;
	atomic_fetch_add(&counts[K_EIO], 1);
	return 1;
}

/* a count cut to a random length of at least one */
static size_t maybe_short(size_t n)
{
	if (n > 1 && roll(K_SHORT))
		return 1 + next_random() % (n - 1);
	return n;
}

ssize_t read(int fd, void *buf, size_t n)
{
	REAL(read);
	if (fd_may_fault(fd)) {
		MAYBE_EINTR(-1);
		n = maybe_short(n);
	}
	return real_read(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	int may = fd_may_fault(fd);

	REAL(write);
	if (may) {
		MAYBE_EINTR(-1);
		n = maybe_short(n);
		if (disk_fails(may, n)) {
			errno = EIO;
			return -1;
		}
	}
	return real_write(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	REAL(pread);
	if (fd_may_fault(fd)) {
		MAYBE_EINTR(-1);
		n = maybe_short(n);
	}
	return real_pread(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	int may = fd_may_fault(fd);

	REAL(pwrite);
	if (may) {
		MAYBE_EINTR(-1);
		n = maybe_short(n);
		if (disk_fails(may, n)) {
			errno = EIO;
			return -1;
		}
	}
	return real_pwrite(fd, buf, n, off);
}

/* the same functions under their other names (off_t is 64 bits here) */
ssize_t pread64(int fd, void *buf, size_t n, off_t off) __attribute__((alias("pread")));
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) __attribute__((alias("pwrite")));

/* a short vector transfer: the first iovecs up to a random byte count */
static int short_iov(const struct iovec *iov, int cnt, struct iovec *out)
{
	size_t total = 0, want;
	int i;

	if (cnt > 64)
		cnt = 64;
	for (i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	want = maybe_short(total);
	for (i = 0; i < cnt && want; i++) {
		out[i] = iov[i];
		if (out[i].iov_len > want)
			out[i].iov_len = want;
		want -= out[i].iov_len;
	}
	return i ? i : cnt;
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
	struct iovec v[64];

	REAL(readv);
	if (fd_may_fault(fd) && cnt > 0 && cnt <= 64) {
		MAYBE_EINTR(-1);
		cnt = short_iov(iov, cnt, v);
		iov = v;
	}
	return real_readv(fd, iov, cnt);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	struct iovec v[64];

	REAL(writev);
	if (fd_may_fault(fd) && cnt > 0 && cnt <= 64) {
		MAYBE_EINTR(-1);
		cnt = short_iov(iov, cnt, v);
		iov = v;
	}
	return real_writev(fd, iov, cnt);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	REAL(poll);
	MAYBE_EINTR(-1);
	return real_poll(fds, n, timeout);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *mask)
{
	REAL(ppoll);
	MAYBE_EINTR(-1);
	return real_ppoll(fds, n, t, mask);
}

int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout)
{
	REAL(epoll_wait);
	MAYBE_EINTR(-1);
	return real_epoll_wait(epfd, ev, max, timeout);
}

int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t)
{
	REAL(select);
	MAYBE_EINTR(-1);
	return real_select(n, r, w, e, t);
}

int pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *t,
	    const sigset_t *mask)
{
	REAL(pselect);
	MAYBE_EINTR(-1);
	return real_pselect(n, r, w, e, t, mask);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	REAL(waitpid);
	if (!(options & WNOHANG))
		MAYBE_EINTR(-1);
	return real_waitpid(pid, status, options);
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	REAL(wait4);
	if (!(options & WNOHANG))
		MAYBE_EINTR(-1);
	return real_wait4(pid, status, options, ru);
}

int waitid(idtype_t type, id_t id, siginfo_t *info, int options)
{
	REAL(waitid);
	if (!(options & WNOHANG))
		MAYBE_EINTR(-1);
	return real_waitid(type, id, info, options);
}

/* an interrupted sleep says what was left: all of it */
int nanosleep(const struct timespec *req, struct timespec *rem)
{
	REAL(nanosleep);
	if (roll(K_EINTR)) {
		if (rem)
			*rem = *req;
		errno = EINTR;
		return -1;
	}
	return real_nanosleep(req, rem);
}

int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	REAL(clock_nanosleep);
	if (roll(K_EINTR)) {
		if (rem && !(flags & TIMER_ABSTIME))
			*rem = *req;
		return EINTR;		/* it returns the error, errno untouched */
	}
	return real_clock_nanosleep(clk, flags, req, rem);
}

__attribute__((destructor)) static void write_log(void)
{
	const char *path = getenv("FAULT_LOG");
	static const char *const names[K_NR] = { "eintr", "short", "eio" };
	char line[64];
	int fd;

	if (!path || enabled <= 0)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	for (int k = 0; k < K_NR; k++) {
		int len = snprintf(line, sizeof(line), "%s %lu\n", names[k],
				   atomic_load(&counts[k]));
		/* the real write: this one must not be cut */
		REAL(write);
		if (real_write(fd, line, len) != len)
			break;
	}
	close(fd);
}
