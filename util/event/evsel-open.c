// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evsel: opening, reading, enabling and closing counters, and explaining
 * why an open failed.  One fd per (cpu, thread) slot, laid out as
 * [cpu_idx * threads->nr + thread_idx] in evsel->fd, ->id and ->counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/lib/cap.h"
#include "util/lib/config.h"
#include "util/event/cpumap.h"
#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/lib/fs.h"
#include "util/event/powercap.h"
#include "util/lib/rlimit.h"
#include "util/event/threadmap.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static bool evsel__cpu_bound(const struct evsel *evsel)
{
	return evsel->own_cpus || evsel->requires_cpu;
}

static bool cpus_any(const struct cpu_map *m)
{
	return m->nr == 1 && m->map[0] == -1;
}

static bool threads_any(const struct thread_map *m)
{
	return m->nr == 1 && m->map[0] == -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/**
 * evsel__config_read_format - the read_format stat uses
 * @evsel: the event; its leader's nr_members decides whether it reads a group
 */
void evsel__config_read_format(struct evsel *evsel)
{
	evsel->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (evsel->leader->nr_members > 1)
		evsel->attr.read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
}

/* The first online CPU of @package, or -1. */
static int package_first_cpu(const struct cpu_map *online, int package)
{
	for (int i = 0; online && package >= 0 && i < online->nr; i++)
		if (cpu__get_socket_id(online->map[i]) == package)
			return online->map[i];
	return -1;
}

/*
 * Each zone of a powercap event stands at the first CPU of its package, as
 * the power PMU's cpumask puts it (CPU0, CPU16 on two sockets), so -A and
 * --per-socket rows come out right; zone indexes when the topology is
 * unknown.  evsel->powercap_zone[cpu_idx] is the zone read for that slot.
 */
static struct cpu_map *powercap_zone_map(struct evsel *evsel)
{
	int n = powercap_event__nr_zones(evsel->powercap), pos = 0, *rep;
	struct cpu_map *online = cpu_map__new_online(), *m = NULL;
	char list[1024];
	bool ok = true;

	rep = calloc(n > 0 ? (size_t)n : 1, sizeof(*rep));
	evsel->powercap_zone = calloc(n > 0 ? (size_t)n : 1, sizeof(int));
	if (n <= 0 || !rep || !evsel->powercap_zone)
		goto out;
	for (int z = 0; z < n; z++) {
		int package = powercap_event__zone_package(evsel->powercap, z);

		rep[z] = package_first_cpu(online, package);
		for (int y = 0; y < z; y++)
			ok &= rep[y] != rep[z];
		ok &= rep[z] >= 0;
	}
	for (int z = 0; z < n; z++) {
		if (!ok)
			rep[z] = z;
		pos += snprintf(list + pos, sizeof(list) - (size_t)pos, "%s%d", z ? "," : "",
				rep[z]);
		if ((size_t)pos >= sizeof(list))
			goto out;
	}
	m = cpu_map__new(list);
	for (int z = 0; m && z < n; z++)
		evsel->powercap_zone[cpu_map__idx(m, rep[z])] = z;
out:
	cpu_map__put(online);
	free(rep);
	return m;
}

/* CPUs of an event that counts per CPU only: own_cpus and/or the target's. */
static struct cpu_map *cpu_bound_map(struct evsel *evsel, struct cpu_map *cpus)
{
	if (!cpus_any(cpus))
		return evsel->own_cpus ? cpu_map__intersect(evsel->own_cpus, cpus)
				       : cpu_map__get(cpus);
	return evsel->own_cpus ? cpu_map__get(evsel->own_cpus) : cpu_map__new_online();
}

/*
 * Decide where @evsel is opened and store it in evsel->cpus/threads (kept
 * after a failure, for the message).  0 or -errno.
 */
static int evsel__set_maps(struct evsel *evsel, struct cpu_map *cpus,
			   struct thread_map *threads)
{
	struct evsel *leader = evsel->leader;
	bool workload = evsel->evlist && evsel->evlist->workload_pid > 0;
	struct cpu_map *c;
	struct thread_map *t;

	if (leader != evsel && leader->fd) {
		c = cpu_map__get(leader->cpus);
		t = thread_map__get(leader->threads);
	} else if (evsel->powercap) {
		c = powercap_zone_map(evsel);
		t = thread_map__new_any();
	} else if (evsel__cpu_bound(evsel) && cpus_any(cpus) && !threads_any(threads) &&
		   !workload) {
		c = cpu_map__get(cpus);
		t = thread_map__get(threads);
		evsel->cpus = c;
		evsel->threads = t;
		return -EINVAL;
	} else if (evsel__cpu_bound(evsel)) {
		c = cpu_bound_map(evsel, cpus);
		t = thread_map__new_any();
		/* enable_on_exec never fires on a CPU-wide event: count from now */
		if (evsel->attr.enable_on_exec && cpus_any(cpus)) {
			evsel->attr.enable_on_exec = 0;
			evsel->attr.disabled = 0;
		}
	} else {
		c = cpu_map__get(cpus);
		t = thread_map__get(threads);
	}
	evsel->cpus = c;
	evsel->threads = t;
	if (!c || !t)
		return -ENOMEM;
	return c->nr ? 0 : -ENXIO;
}

static int evsel__alloc_slots(struct evsel *evsel)
{
	size_t n = (size_t)evsel__nr_slots(evsel);

	evsel->fd = malloc(n * sizeof(*evsel->fd));
	evsel->id = calloc(n, sizeof(*evsel->id));
	evsel->counts = calloc(n, sizeof(*evsel->counts));
	if (!evsel->fd || !evsel->id || !evsel->counts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		evsel->fd[i] = -1;
	return 0;
}

/* One sys_perf_event_open, printed with -vv the way perf prints it. */
static int evsel__open_fd(struct evsel *evsel, pid_t pid, int cpu, int group_fd,
			  unsigned long flags)
{
	struct perf_event_attr saved = evsel->attr;
	int fd, err;

	for (;;) {
		if (tperf_config.verbose >= 2 &&
		    (!tperf_config.quiet || tperf_config.debug_stderr))
			perf_event_attr__fprintf(stderr, &evsel->attr);
		pr_debug2("sys_perf_event_open: pid %d  cpu %d  group_fd %d  flags %#lx",
			  (int)pid, cpu, group_fd, flags);
		fd = sys_perf_event_open(&evsel->attr, pid, cpu, group_fd, flags);
		if (fd >= 0) {
			pr_debug2(" = %d\n", fd);
			return fd;
		}
		err = errno;
		pr_debug2("\nsys_perf_event_open failed, error %d\n", -err);
		/* PMUs such as msr refuse exclude_guest/host: perf retries without */
		if (err != EINVAL || !(evsel->attr.exclude_guest || evsel->attr.exclude_host)) {
			evsel->attr = saved;	/* the retry did not help */
			return -err;
		}
		pr_debug2("switching off exclude_guest, exclude_host\n");
		evsel->attr.exclude_guest = 0;
		evsel->attr.exclude_host = 0;
	}
}

/* Open slot @i; 0, 1 when the slot is skipped (its thread is gone), -errno. */
static int evsel__open_slot(struct evsel *evsel, int ci, int ti)
{
	int i = ci * evsel->threads->nr + ti, group_fd = -1, fd;
	pid_t pid = evsel->threads->map[ti];
	int cpu = evsel->cpus->map[ci];
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;

	if (evsel->leader != evsel) {
		group_fd = evsel->leader->fd ? evsel->leader->fd[i] : -1;
		if (group_fd < 0)
			return evsel->leader->fd ? 1 : -EBADF;
	}
	if (evsel->cgroup_fd >= 0) {
		/* the cgroup's folder stands for the pid (system-wide: pid -1) */
		pid = evsel->cgroup_fd;
		flags |= PERF_FLAG_PID_CGROUP;
	}
	fd = evsel__open_fd(evsel, pid, cpu, group_fd, flags);
	if (fd == -ESRCH && evsel->threads->nr > 1 && pid > 0)
		return 1;	/* one thread of a process exited meanwhile */
	if (fd < 0) {
		evsel->open_err_cpu = cpu;
		evsel->open_err_pid = pid;
		return fd;
	}
	evsel->fd[i] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &evsel->id[i]))
		evsel->id[i] = 0;
	return 0;
}

static int evsel__open_powercap(struct evsel *evsel)
{
	int err = powercap_event__start(evsel->powercap);

	evsel->powercap_t0 = now_ns();
	evsel->powercap_stopped = false;
	return err;
}

/**
 * evsel__open_prepare - first step of evsel__open(): maps and slots
 * @evsel: the event (closed first)
 * @cpus: the target's CPUs
 * @threads: the target's threads
 *
 * Decides where @evsel opens (->cpus, ->threads) and allocates its slots;
 * a powercap event starts here.  Then evsel__open_cpu() for each CPU index
 * and evsel__open_finish() with the first error.
 *
 * Return: 0 or -errno (pass it to evsel__open_finish()).
 */
int evsel__open_prepare(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads)
{
	int err;

	evsel__close(evsel);
	evsel->supported = false;
	evsel->open_err = 0;
	evsel->open_err_cpu = -1;
	evsel->open_err_pid = -1;
	if (!cpus || !threads || !cpus->nr || !threads->nr)
		return -EINVAL;
	err = evsel__set_maps(evsel, cpus, threads);
	if (!err)
		err = evsel__alloc_slots(evsel);
	if (!err && evsel->powercap)
		err = evsel__open_powercap(evsel);
	return err;
}

/**
 * evsel__open_cpu - open every thread of @evsel on its CPU index @cpu_idx
 * @evsel: a prepared event
 * @cpu_idx: index in evsel->cpus
 *
 * Threads that exited meanwhile are skipped (their slots stay -1).
 *
 * Return: 0 or -errno.
 */
int evsel__open_cpu(struct evsel *evsel, int cpu_idx)
{
	if (evsel->powercap)
		return 0;
	for (int ti = 0; ti < evsel->threads->nr; ti++) {
		int err = evsel__open_slot(evsel, cpu_idx, ti);

		if (err < 0)
			return err;
	}
	return 0;
}

/**
 * evsel__open_finish - last step of evsel__open()
 * @evsel: the event
 * @err: the first error of the steps before, or 0
 *
 * On error closes what was opened (the maps stay for
 * evsel__open_strerror()) and sets ->open_err; -ESRCH when no slot could
 * be opened because every thread had exited.
 *
 * Return: 0 or -errno.
 */
int evsel__open_finish(struct evsel *evsel, int err)
{
	bool opened = evsel->powercap != NULL;

	for (int i = 0; !err && !opened && i < evsel__nr_slots(evsel); i++)
		opened = evsel->fd[i] >= 0;
	if (!err && !opened)
		err = -ESRCH;
	if (err) {
		/* the maps stay until evsel__close(), for evsel__open_strerror() */
		evsel__free_slots(evsel);
		free(evsel->counts);
		evsel->counts = NULL;
		evsel->open_err = -err;
		return err;
	}
	evsel->supported = true;
	return 0;
}

/**
 * evsel__open - open @evsel on @cpus x @threads
 * @evsel: the event; a member of a group opens on its leader's fds
 * @cpus: the target's CPUs ({-1}: follow the threads)
 * @threads: the target's threads ({-1}: every thread, per CPU)
 *
 * Sets ->fd, ->id, ->counts, ->cpus, ->threads and ->supported; on failure
 * ->open_err, ->open_err_cpu and ->open_err_pid say what and where (see
 * evsel.h for per-CPU-only and powercap events).
 *
 * Return: 0 or -errno.
 */
int evsel__open(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads)
{
	int err = evsel__open_prepare(evsel, cpus, threads);

	for (int ci = 0; !err && ci < evsel->cpus->nr; ci++)
		err = evsel__open_cpu(evsel, ci);
	return evsel__open_finish(evsel, err);
}

/* The member after @e in @e's group (members follow their leader), or NULL. */
static struct evsel *group_next(struct evsel *e)
{
	struct evsel *next;

	if (!e->evlist || e->node.next == &e->evlist->entries)
		return NULL;
	next = list_entry(e->node.next, struct evsel, node);
	return next->leader == e->leader && next != next->leader ? next : NULL;
}

/* The evsel of @leader's group with kernel id @id in @slot, or NULL. */
static struct evsel *group_member_by_id(struct evsel *leader, int slot, uint64_t id)
{
	for (struct evsel *e = leader; e; e = group_next(e))
		if (e->fd && e->id[slot] == id)
			return e;
	return NULL;
}

/* The @n-th open member of the group (the leader is 0), or NULL. */
static struct evsel *group_member_nth(struct evsel *leader, int n)
{
	for (struct evsel *e = leader; e; e = group_next(e))
		if (e->fd && n-- == 0)
			return e;
	return NULL;
}

static int read_fd(int fd, uint64_t *buf, size_t size)
{
	ssize_t r;

	do
		r = read(fd, buf, size);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return r < (ssize_t)sizeof(uint64_t) ? -EIO : 0;
}

static int evsel__read_single(struct evsel *evsel, int slot)
{
	uint64_t rf = evsel->attr.read_format, buf[5] = { 0 };
	struct counts_values *c = &evsel->counts[slot];
	int i = 1, err = read_fd(evsel->fd[slot], buf, sizeof(buf));

	if (err)
		return err;
	c->val = buf[0];
	c->ena = rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? buf[i++] : 0;
	c->run = rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? buf[i++] : 0;
	return 0;
}

static int evsel__read_group(struct evsel *evsel, int slot)
{
	uint64_t rf = evsel->attr.read_format, *buf, nr, ena = 0, run = 0;
	struct evsel *leader = evsel->leader;
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t size = (3 + per * (size_t)leader->nr_members) * sizeof(uint64_t), i = 1;
	int err;

	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	err = read_fd(evsel->fd[slot], buf, size);
	nr = buf[0];
	if (!err && nr > (uint64_t)leader->nr_members)
		err = -EIO;
	if (!err && rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		ena = buf[i++];
	if (!err && rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		run = buf[i++];
	for (uint64_t n = 0; !err && n < nr; n++, i += per) {
		struct evsel *m = rf & PERF_FORMAT_ID ? group_member_by_id(leader, slot, buf[i + 1])
						      : group_member_nth(leader, (int)n);

		if (m && m->counts)
			m->counts[slot] = (struct counts_values){ buf[i], ena, run };
	}
	free(buf);
	return err;
}

static int evsel__read_powercap(struct evsel *evsel)
{
	uint64_t t;

	if (evsel->powercap_stopped)
		return 0;
	t = now_ns() - evsel->powercap_t0;
	for (int z = 0; z < evsel->cpus->nr; z++) {
		uint64_t uj;
		int err = powercap_event__read(evsel->powercap, evsel->powercap_zone[z], &uj);

		if (err)
			return err;
		evsel->counts[z] = (struct counts_values){ uj, t, t };
	}
	return 0;
}

/**
 * evsel__read - read every fd of @evsel into ->counts (raw values)
 * @evsel: an open event; with PERF_FORMAT_GROUP its whole group is filled
 *
 * Return: 0 or -errno (-EBADF when not open).
 */
int evsel__read(struct evsel *evsel)
{
	int n = evsel__nr_slots(evsel);

	if (!evsel->counts)
		return -EBADF;
	if (evsel->powercap)
		return evsel__read_powercap(evsel);
	for (int i = 0; i < n; i++) {
		int err;

		if (evsel->fd[i] < 0)
			continue;
		if (evsel->attr.read_format & PERF_FORMAT_GROUP)
			err = evsel__read_group(evsel, i);
		else
			err = evsel__read_single(evsel, i);
		if (err)
			return err;
	}
	return 0;
}

static int evsel__ioctl(struct evsel *evsel, unsigned long req, const void *arg)
{
	int n = evsel__nr_slots(evsel);

	if (!evsel->counts)
		return -EBADF;
	for (int i = 0; evsel->fd && i < n; i++)
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], req, arg))
			return -errno;
	return 0;
}

/**
 * evsel__apply_filter - set a tracepoint filter on every fd of @evsel
 * @evsel: an open event
 * @filter: the filter expression (the kernel's tracepoint filter syntax)
 *
 * Return: 0 or the -errno of the first fd that refused it.
 */
int evsel__apply_filter(struct evsel *evsel, const char *filter)
{
	int n = evsel__nr_slots(evsel);

	if (!evsel->counts)
		return -EBADF;
	for (int i = 0; evsel->fd && i < n; i++)
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_FILTER, filter))
			return -errno;
	return 0;
}

/**
 * evsel__enable - start counting (PERF_EVENT_IOC_ENABLE on every fd)
 * @evsel: an open event; a powercap event restarts from zero
 *
 * Return: 0 or -errno.
 */
int evsel__enable(struct evsel *evsel)
{
	if (evsel->powercap && evsel->counts)
		return evsel__open_powercap(evsel);
	return evsel__ioctl(evsel, PERF_EVENT_IOC_ENABLE, NULL);
}

/**
 * evsel__disable - stop counting (PERF_EVENT_IOC_DISABLE on every fd)
 * @evsel: an open event; a powercap event is read once and then frozen
 *
 * Return: 0 or -errno.
 */
int evsel__disable(struct evsel *evsel)
{
	if (evsel->powercap && evsel->counts) {
		int err = evsel__read_powercap(evsel);

		evsel->powercap_stopped = true;
		return err;
	}
	return evsel__ioctl(evsel, PERF_EVENT_IOC_DISABLE, NULL);
}

static bool is_cycles(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE &&
	       (attr->config & 0xffffffffULL) == PERF_COUNT_HW_CPU_CYCLES;
}

static int paranoid_level(void)
{
	int v;

	return procfs__read_int("sys/kernel/perf_event_paranoid", &v) ? 2 : v;
}

/*
 * The modifiers perf derives from an attr when it names an event anew:
 * k/u/h for what is counted when something is excluded, one p per
 * precise_ip level, then H/G when exclude_host is set or exclude_guest has
 * its default (set with k/u/h or p modifiers).  Checked against perf 6.1:
 * cycles:u -> cpu-clock:uH, cycles:P -> cpu-clock:ppp, cycles:uG -> :uG.
 */
static void attr_modifiers(const struct perf_event_attr *a, char *buf)
{
	bool guest_default = false;
	int n = 0;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			buf[n++] = 'k';
		if (!a->exclude_user)
			buf[n++] = 'u';
		if (!a->exclude_hv)
			buf[n++] = 'h';
		guest_default = true;
	}
	for (unsigned int i = 0; i < a->precise_ip && i < 3; i++)
		buf[n++] = 'p';
	if (a->precise_ip)
		guest_default = true;
	if (a->exclude_host || (bool)a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			buf[n++] = 'H';
		if (!a->exclude_guest)
			buf[n++] = 'G';
	}
	buf[n] = '\0';
}

/* "cycles" -> "cycles:u", "cycles:k" -> "cycles:ku", "cpu/x/" -> "cpu/x/u". */
static int evsel__add_user_modifier(struct evsel *evsel)
{
	const char *name = evsel__name(evsel);
	const char *sep = strchr(name, ':') || strchr(name, '/') ? "" : ":";
	char *n;
	int err;

	if (asprintf(&n, "%s%su", name, sep) < 0)
		return -ENOMEM;
	err = evsel__set_name(evsel, n);
	free(n);
	return err;
}

/**
 * evsel__fallback - turn a failed event into one that can be opened here
 * @evsel: the event that failed to open
 * @err: the errno of the failure (positive or negative)
 * @msg: receives a one-line note for the user
 * @size: size of @msg
 *
 * cycles (also with modifiers) on a machine without a PMU becomes the
 * cpu-clock software event; an event that counts the kernel, refused by
 * perf_event_paranoid for a process without CAP_PERFMON (nor CAP_SYS_ADMIN),
 * counts user space only.
 *
 * Return: true when @evsel changed and the open should be retried.
 */
bool evsel__fallback(struct evsel *evsel, int err, char *msg, size_t size)
{
	char old[128];
	int paranoid;

	err = err < 0 ? -err : err;
	snprintf(old, sizeof(old), "%s", evsel__name(evsel));
	if ((err == ENOENT || err == EOPNOTSUPP || err == ENODEV) && is_cycles(&evsel->attr)) {
		char mods[16], name[32];

		evsel->attr.type = PERF_TYPE_SOFTWARE;
		evsel->attr.config = PERF_COUNT_SW_CPU_CLOCK;
		attr_modifiers(&evsel->attr, mods);
		snprintf(name, sizeof(name), "cpu-clock%s%s", *mods ? ":" : "", mods);
		if (evsel__set_name(evsel, name))
			return false;
		snprintf(msg, size, "the '%s' event is not supported here (no hardware PMU): "
			 "falling back to '%s'", old, name);
		return true;
	}
	paranoid = paranoid_level();
	if ((err == EACCES || err == EPERM) && !evsel->attr.exclude_kernel &&
	    !evsel->attr.exclude_user && paranoid > 1 && !cap__perfmon()) {
		evsel->attr.exclude_kernel = 1;
		evsel->attr.exclude_hv = 1;
		if (evsel__add_user_modifier(evsel))
			return false;
		snprintf(msg, size, "kernel counting is not allowed (perf_event_paranoid is %d): "
			 "counting '%s' in user space only, as '%s'", paranoid, old,
			 evsel__name(evsel));
		return true;
	}
	return false;
}

static bool have_cpu_pmu(void)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0" };
	char path[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", sysfs__mountpoint(),
			 names[i]);
		if (!access(path, F_OK))
			return true;
	}
	return false;
}

static bool is_hw_type(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
	       attr->type == PERF_TYPE_RAW;
}

static bool is_sampling(const struct perf_event_attr *attr)
{
	return attr->sample_period != 0;
}

static const char *strerror_perm(struct evsel *evsel, char *why, size_t size)
{
	int paranoid = paranoid_level();
	bool cpu_wide = evsel->open_err_pid == -1;
	bool raw = evsel->attr.type == PERF_TYPE_TRACEPOINT &&
		   (evsel->attr.sample_type & PERF_SAMPLE_RAW);
	int need = raw ? -1 : cpu_wide ? 0 : !evsel->attr.exclude_kernel ? 1 : 2;
	const char *what = raw ? "raw tracepoint data" : cpu_wide ? "per-CPU (-a, -C)" :
			   !evsel->attr.exclude_kernel ? "the kernel" : "user space";

	/* perf_event_paranoid does not apply to CAP_PERFMON: root's, unless taken away */
	if (cap__perfmon()) {
		const char *who = geteuid() == 0 ? "also to root" :
				  "despite CAP_PERFMON or CAP_SYS_ADMIN";

		if (evsel->attr.type == PERF_TYPE_TRACEPOINT &&
		    !strcmp(evsel__name(evsel), "ftrace:function"))
			snprintf(why, size, "permission denied %s: this kernel does not allow "
				 "function tracing", who);
		else
			snprintf(why, size, "permission denied %s: the kernel refuses this event "
				 "(a security policy such as lockdown or SELinux, or a restricted "
				 "event)", who);
		return why;
	}
	if (evsel->open_err_pid > 0 && paranoid <= need) {
		snprintf(why, size, "permission denied: thread %d is not yours to observe (another "
			 "user's, or not traceable); run as root or as its owner",
			 (int)evsel->open_err_pid);
		return why;
	}
	snprintf(why, size,
		 "permission denied: /proc/sys/kernel/perf_event_paranoid is %d and counting %s "
		 "needs %d or lower; %s set it with 'sysctl kernel.perf_event_paranoid=%d'%s",
		 paranoid, what, need,
		 geteuid() == 0 ? "this root process lacks CAP_PERFMON and CAP_SYS_ADMIN (a "
				  "container's?): give it CAP_PERFMON, or" : "run as root or",
		 need, need == 1 ? ", or count user space only with ':u'" : "");
	return why;
}

static size_t evsel__fds_open(struct evsel *evsel)
{
	size_t n = 0;

	for (int i = 0; evsel->fd && i < evsel__nr_slots(evsel); i++)
		n += evsel->fd[i] >= 0;
	return n;
}

/* Descriptors the whole command needs: the events' plus the others open now. */
static size_t evsel__fds_wanted(struct evsel *evsel)
{
	size_t need = (size_t)evsel__nr_slots(evsel), open_now = evsel__fds_open(evsel);
	struct evsel *e;

	if (evsel->evlist) {
		need = evlist__nr_fds(evsel->evlist);
		open_now = 0;
		evlist__for_each_entry(evsel->evlist, e)
			open_now += evsel__fds_open(e);
	}
	return need + (rlimit__nr_open_fds() - open_now) + NOFILE_SLACK;
}

static const char *strerror_emfile(struct evsel *evsel, char *why, size_t size)
{
	rlimit__nofile_strerror(evsel__fds_wanted(evsel), why, size);
	return why;
}

static const char *strerror_notsup(struct evsel *evsel, int err, char *why, size_t size)
{
	if (err == EOPNOTSUPP && (evsel->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)) {
		if (!have_cpu_pmu())
			return "branch stacks (-b, -j, --call-graph lbr, branch_type=) need the "
			       "CPU's last branch record (LBR) and this machine has no PMU (no "
			       "LBR here); record without them, or use --call-graph fp or dwarf";
		return "this event or CPU cannot sample branch stacks (-b, -j, --call-graph "
		       "lbr, branch_type=): they need a hardware event on a CPU with a last "
		       "branch record (LBR); record without them, or use --call-graph fp or dwarf";
	}
	if (is_hw_type(&evsel->attr) && !have_cpu_pmu())
		return "hardware events are not supported on this machine (no PMU); "
		       "try -e cpu-clock";
	if (is_hw_type(&evsel->attr))
		return "the CPU's PMU does not support this event; see 'tperf list'";
	if (err == EOPNOTSUPP && is_sampling(&evsel->attr))
		return "sampling is not supported by this event (it can only be counted); "
		       "use 'tperf stat', or sample another event";
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
		return "no such tracepoint in this kernel; see 'tperf list tracepoint'";
	snprintf(why, size, "the event is not supported by this kernel (%s); see 'tperf list'",
		 strerror(err));
	return why;
}

static const char *strerror_einval(struct evsel *evsel, char *why, size_t size)
{
	if (evsel__cpu_bound(evsel) && evsel->threads && !threads_any(evsel->threads))
		return "it counts whole CPUs, not threads; use -a or -C CPU-LIST";
	if (evsel->attr.precise_ip)
		return "invalid attributes: precise_ip (the :p modifiers) is not supported "
		       "for this event; remove the :p";
	snprintf(why, size, "invalid event attributes (%s); check the event's terms and "
		 "modifiers, and -vv shows the attr", strerror(EINVAL));
	return why;
}

static const char *strerror_enxio(struct evsel *evsel, char *why, size_t size)
{
	char cpus[64] = "";

	if (!evsel->own_cpus)
		return "no CPU to count on";
	cpu_map__snprint(evsel->own_cpus, cpus, sizeof(cpus));
	snprintf(why, size, "its PMU counts on CPU(s) %s only, none of them selected; "
		 "include one of them in -C", cpus);
	return why;
}

/* The reason part of the message; @why is scratch space. */
static const char *evsel__strerror_why(struct evsel *evsel, int err, char *why, size_t size)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return strerror_perm(evsel, why, size);
	case EMFILE:
		return strerror_emfile(evsel, why, size);
	case ESRCH:
		snprintf(why, size, "no such process (thread %d); check the -p/-t list",
			 (int)evsel->open_err_pid);
		return why;
	case ENOENT:
	case EOPNOTSUPP:
		return strerror_notsup(evsel, err, why, size);
	case ENODEV:
		if (evsel->open_err_cpu >= 0) {
			snprintf(why, size, "CPU %d is offline or does not exist; "
				 "check -C against /sys/devices/system/cpu/online",
				 evsel->open_err_cpu);
			return why;
		}
		return strerror_notsup(evsel, err, why, size);
	case ENXIO:
		return strerror_enxio(evsel, why, size);
	case EINVAL:
		return strerror_einval(evsel, why, size);
	case EBUSY:
		return "the PMU is busy: another tool holds its counters exclusively; "
		       "try again when it is done";
	case ENOSPC:
		if (evsel->attr.type == PERF_TYPE_BREAKPOINT)
			return "no free hardware breakpoint register (x86 has 4, shared with "
			       "debuggers); watch fewer addresses";
		return "no space left for the event in the PMU; count fewer events at once";
	case E2BIG:
		return "the kernel does not know this perf_event_attr size; tperf is newer "
		       "than the kernel";
	default:
		snprintf(why, size, "%s", strerror(err));
		return why;
	}
}

/**
 * evsel__open_strerror - explain a failed open, with context and a remedy
 * @evsel: the event (open_err_cpu/pid say where it failed)
 * @err: the errno (positive or negative)
 * @buf: receives "cannot open event 'NAME': REASON; WHAT TO DO"
 * @size: size of @buf
 *
 * Return: the length of the message.
 */
int evsel__open_strerror(struct evsel *evsel, int err, char *buf, size_t size)
{
	char why[512];

	err = err < 0 ? -err : err;
	return snprintf(buf, size, "cannot open event '%s': %s", evsel__name(evsel),
			evsel__strerror_why(evsel, err, why, sizeof(why)));
}
