// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening, reading and closing counters on this machine: software events
 * on ourselves, groups, per-CPU counting, the msr PMU, hardware events that
 * do not exist here (messages and fallback), the open-files limit, powercap
 * on a fake tree, and the maps of targets.
 */
#include <errno.h>
#include <linux/capability.h>
#include <linux/hw_breakpoint.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/lib/cap.h"
#include "util/lib/config.h"
#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/lib/fs.h"
#include "util/event/powercap.h"
#include "util/lib/rlimit.h"
#include "util/event/target.h"
#include "util/event/threadmap.h"

static struct evsel *new_event(uint32_t type, uint64_t config, const char *name)
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct evsel *evsel = evsel__new(&attr);

	if (evsel && evsel__set_name(evsel, name)) {
		evsel__delete(evsel);
		return NULL;
	}
	if (evsel)
		evsel__config_read_format(evsel);
	return evsel;
}

static struct evsel *new_sw(uint64_t config, const char *name)
{
	return new_event(PERF_TYPE_SOFTWARE, config, name);
}

/* Work that takes CPU time and faults in fresh pages. */
/*
 * Touch 16384 small pages (so at least that many page faults: huge pages
 * are refused for the region, as THP would otherwise fault 2 MiB at a
 * time) and spin a while.
 */
static void do_work(void)
{
	size_t size = 64 << 20;
	char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile char *p = m == MAP_FAILED ? NULL : m;
	volatile unsigned long x = 0;

	if (p)
		madvise(m, size, MADV_NOHUGEPAGE);
	for (size_t i = 0; p && i < size; i += 4096)
		p[i] = (char)i;
	for (unsigned long i = 0; i < 20000000; i++)
		x += i;
	if (p)
		munmap(m, size);
}

static struct evlist *evlist_of(struct evsel **ev, int n, bool group)
{
	struct evlist *evlist = evlist__new();

	for (int i = 0; i < n; i++) {
		evlist__add(evlist, ev[i]);
		if (group)
			ev[i]->leader = ev[0];
	}
	if (group) {
		ev[0]->nr_members = n;
		evlist->nr_groups = 1;
		for (int i = 0; i < n; i++)
			evsel__config_read_format(ev[i]);
	}
	return evlist;
}

TPERF_TEST(evsel_open_self, "evsel: software events on this thread count work")
{
	static const struct { uint64_t config; const char *name; } evs[] = {
		{ PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
		{ PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" },
		{ PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
	};
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();

	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct evsel *e = new_sw(evs[i].config, evs[i].name);
		uint64_t before;

		TEST_ASSERT_EQUAL(evs[i].name, evsel__open(e, any, self), 0);
		TEST_ASSERT_VAL("supported", e->supported && e->fd[0] >= 0);
		TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
		before = e->counts[0].val;
		do_work();
		TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
		TEST_ASSERT_VAL(evs[i].name, e->counts[0].val > before);
		TEST_ASSERT_VAL("enabled > 0", e->counts[0].ena > 0);
		TEST_ASSERT_VAL("running <= enabled", e->counts[0].run <= e->counts[0].ena);
		TEST_ASSERT_VAL("running > 0", e->counts[0].run > 0);
		evsel__close(e);
		TEST_ASSERT_VAL("closed", !e->fd && !e->counts);
		evsel__delete(e);
	}
	cpu_map__put(any);
	thread_map__put(self);
	return TEST_OK;
}

TPERF_TEST(evsel_disable_enable, "evsel: disabled events count nothing until enabled")
{
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();
	struct evsel *e = new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");

	e->attr.disabled = 1;
	TEST_ASSERT_EQUAL("open", evsel__open(e, any, self), 0);
	do_work();
	TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
	TEST_ASSERT_EQUAL("nothing while disabled", e->counts[0].val, 0);
	TEST_ASSERT_EQUAL("enable", evsel__enable(e), 0);
	do_work();
	TEST_ASSERT_EQUAL("disable", evsel__disable(e), 0);
	TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
	TEST_ASSERT_VAL("counted once enabled", e->counts[0].val > 0);
	evsel__delete(e);
	cpu_map__put(any);
	thread_map__put(self);
	return TEST_OK;
}

TPERF_TEST(evsel_group_read, "evsel: a group read with PERF_FORMAT_GROUP fills each member")
{
	struct evsel *ev[2] = { new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"),
				new_sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults") };
	struct evlist *evlist = evlist_of(ev, 2, true);
	struct target target = { .tid = NULL };
	char buf[512], tid[16];

	snprintf(tid, sizeof(tid), "%d", getpid());
	target.tid = tid;
	TEST_ASSERT_VAL("read_format", ev[1]->attr.read_format & PERF_FORMAT_GROUP);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &target, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("member's group fd", ev[1]->fd[0] >= 0 && ev[1]->id[0] != ev[0]->id[0]);
	do_work();
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	TEST_ASSERT_VAL("task-clock", ev[0]->counts[0].val > 1000);
	/*
	 * The leader was asked to count from the open: evlist__open() holds
	 * it until page-faults has joined, or the member would count nothing
	 * until this thread is next scheduled in.
	 */
	TEST_ASSERT_VAL("leader's attr as set", !ev[0]->attr.disabled);
	TEST_ASSERT_VAL("page-faults", ev[1]->counts[0].val > 1000);
	TEST_ASSERT_VAL("page-faults are not ns", ev[1]->counts[0].val < ev[0]->counts[0].val);
	TEST_ASSERT_EQUAL("same enabled time", ev[1]->counts[0].ena, ev[0]->counts[0].ena);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(evsel_per_cpu, "evsel: a software event on every CPU, system-wide")
{
	struct evsel *e = new_sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	struct evlist *evlist = evlist_of(&e, 1, false);
	struct target target = { .system_wide = true };
	char buf[512];

	if (geteuid())
		return test_skip("needs root");
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &target, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("one fd per CPU", evlist__nr_fds(evlist), (size_t)evlist->cpus->nr);
	do_work();
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	for (int i = 0; i < e->cpus->nr; i++) {
		TEST_ASSERT_VAL("per-thread slot is any", e->threads->map[0] == -1);
		TEST_ASSERT_VAL("CPU counted", e->counts[i].val > 0 && e->counts[i].ena > 0);
	}
	evlist__delete(evlist);
	return TEST_OK;
}

static struct evsel *new_msr_tsc(void)
{
	int type;
	struct evsel *e;

	if (sysfs__read_int("bus/event_source/devices/msr/type", &type))
		return NULL;
	e = new_event((uint32_t)type, 0, "msr/tsc/");
	e->requires_cpu = true;
	e->attr.exclude_guest = 1;	/* as event parsing sets it: msr refuses it */
	return e;
}

TPERF_TEST(evsel_msr_tsc, "evsel: msr/tsc/ counts per CPU and refuses threads")
{
	struct evsel *e = new_msr_tsc();
	struct cpu_map *online = cpu_map__new_online(), *any = cpu_map__new_any();
	struct thread_map *all = thread_map__new_any();
	struct thread_map *self = thread_map__new_by_tid(getpid());
	char buf[512];

	if (!e)
		return test_skip("no msr PMU");
	TEST_ASSERT_EQUAL("per-thread", evsel__open(e, any, self), -EINVAL);
	evsel__open_strerror(e, e->open_err, buf, sizeof(buf));
	TEST_ASSERT_STR("message", buf,
			"cannot open event 'msr/tsc/': it counts whole CPUs, not threads; "
			"use -a or -C CPU-LIST");
	if (geteuid())
		return test_skip("system-wide needs root");
	TEST_ASSERT_EQUAL("system-wide", evsel__open(e, online, all), 0);
	do_work();
	TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
	for (int i = 0; i < online->nr; i++)
		TEST_ASSERT_VAL("tsc ticks", e->counts[i].val > 1000);
	evsel__delete(e);
	cpu_map__put(online);
	cpu_map__put(any);
	thread_map__put(all);
	thread_map__put(self);
	return TEST_OK;
}

static bool have_cpu_pmu(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu", sysfs__mountpoint());
	return access(path, F_OK) == 0;
}

TPERF_TEST(evsel_cycles_fallback, "evsel: cycles without a PMU: message, then cpu-clock")
{
	struct evsel *e = new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles");
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();
	char buf[512];
	int err;

	if (have_cpu_pmu())
		return test_skip("this machine has a CPU PMU");
	e->attr.exclude_guest = 1;	/* as event parsing sets it */
	err = evsel__open(e, any, self);
	TEST_ASSERT_EQUAL("open cycles", err, -ENOENT);
	TEST_ASSERT_VAL("unsupported", !e->supported && e->open_err == ENOENT);
	evsel__open_strerror(e, err, buf, sizeof(buf));
	TEST_ASSERT_STR("message", buf,
			"cannot open event 'cycles': hardware events are not supported on this "
			"machine (no PMU); try -e cpu-clock");
	TEST_ASSERT_VAL("EACCES is no reason to change", !evsel__fallback(e, EPERM, buf, 8) ||
			!geteuid());
	TEST_ASSERT_VAL("fallback", evsel__fallback(e, err, buf, sizeof(buf)));
	TEST_ASSERT_STR("note", buf,
			"the 'cycles' event is not supported here (no hardware PMU): falling "
			"back to 'cpu-clock'");
	TEST_ASSERT_STR("renamed", evsel__name(e), "cpu-clock");
	TEST_ASSERT_EQUAL("type", e->attr.type, PERF_TYPE_SOFTWARE);
	TEST_ASSERT_EQUAL("reopen", evsel__open(e, any, self), 0);
	TEST_ASSERT_VAL("no second fallback", !evsel__fallback(e, ENOENT, buf, sizeof(buf)));
	evsel__delete(e);
	cpu_map__put(any);
	thread_map__put(self);
	return TEST_OK;
}

TPERF_TEST(evsel_strerror_hw, "evsel: instructions, cache and raw events say there is no PMU")
{
	static const struct { uint32_t type; uint64_t config; const char *name; } evs[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
		{ PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
		  PERF_COUNT_HW_CACHE_RESULT_MISS << 16, "L1-dcache-load-misses" },
		{ PERF_TYPE_RAW, 0x1a8, "r1a8" },
	};
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();
	char buf[512], want[512];

	if (have_cpu_pmu())
		return test_skip("this machine has a CPU PMU");
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct evsel *e = new_event(evs[i].type, evs[i].config, evs[i].name);
		int err = evsel__open(e, any, self);

		TEST_ASSERT_EQUAL(evs[i].name, err, -ENOENT);
		evsel__open_strerror(e, err, buf, sizeof(buf));
		snprintf(want, sizeof(want), "cannot open event '%s': hardware events are not "
			 "supported on this machine (no PMU); try -e cpu-clock", evs[i].name);
		TEST_ASSERT_STR(evs[i].name, buf, want);
		TEST_ASSERT_VAL("only cycles falls back",
				!evsel__fallback(e, err, buf, sizeof(buf)));
		evsel__delete(e);
	}
	cpu_map__put(any);
	thread_map__put(self);
	return TEST_OK;
}

TPERF_TEST(evsel_strerror_misc, "evsel: messages for ESRCH, ENODEV, EBUSY, EINVAL, EOPNOTSUPP")
{
	struct evsel *e = new_sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	char buf[512];

	e->open_err_pid = 4242;
	evsel__open_strerror(e, -ESRCH, buf, sizeof(buf));
	TEST_ASSERT_STR("ESRCH", buf, "cannot open event 'cpu-clock': no such process "
			"(thread 4242); check the -p/-t list");
	e->open_err_cpu = 7;
	evsel__open_strerror(e, ENODEV, buf, sizeof(buf));
	TEST_ASSERT_STR("ENODEV", buf, "cannot open event 'cpu-clock': CPU 7 is offline or does "
			"not exist; check -C against /sys/devices/system/cpu/online");
	TEST_ASSERT_EQUAL("no maps", evsel__open(e, NULL, NULL), -EINVAL);
	e->attr.type = PERF_TYPE_BREAKPOINT;
	evsel__open_strerror(e, ENOSPC, buf, sizeof(buf));
	TEST_ASSERT_STR("ENOSPC", buf, "cannot open event 'cpu-clock': no free hardware "
			"breakpoint register (x86 has 4, shared with debuggers); watch fewer "
			"addresses");
	e->attr.type = PERF_TYPE_SOFTWARE;
	evsel__open_strerror(e, EBUSY, buf, sizeof(buf));
	TEST_ASSERT_STR("EBUSY", buf, "cannot open event 'cpu-clock': the PMU is busy: another "
			"tool holds its counters exclusively; try again when it is done");
	e->attr.precise_ip = 2;
	evsel__open_strerror(e, EINVAL, buf, sizeof(buf));
	TEST_ASSERT_STR("EINVAL", buf, "cannot open event 'cpu-clock': invalid attributes: "
			"precise_ip (the :p modifiers) is not supported for this event; remove "
			"the :p");
	e->attr.sample_period = 1000;
	evsel__open_strerror(e, EOPNOTSUPP, buf, sizeof(buf));
	TEST_ASSERT_STR("EOPNOTSUPP", buf, "cannot open event 'cpu-clock': sampling is not "
			"supported by this event (it can only be counted); use 'tperf stat', or "
			"sample another event");
	evsel__delete(e);
	return TEST_OK;
}

/* In the (forked) test process: become an unprivileged user. */
static int drop_root(void)
{
	return setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534) ? -1 : 0;
}

TPERF_TEST(evsel_paranoid, "evsel: perf_event_paranoid: message and user-only fallback")
{
	struct evsel *e = new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();
	char buf[512], want[512];
	int paranoid, err;

	if (procfs__read_int("sys/kernel/perf_event_paranoid", &paranoid) || paranoid < 2)
		return test_skip("perf_event_paranoid allows kernel counting");
	if (geteuid() == 0 && drop_root())
		return test_skip("cannot drop root");
	err = evsel__open(e, any, self);
	TEST_ASSERT_EQUAL("kernel counting refused", err, -EACCES);
	evsel__open_strerror(e, err, buf, sizeof(buf));
	snprintf(want, sizeof(want), "cannot open event 'task-clock': permission denied: "
		 "/proc/sys/kernel/perf_event_paranoid is %d and counting the kernel needs 1 or "
		 "lower; run as root or set it with 'sysctl kernel.perf_event_paranoid=1', or "
		 "count user space only with ':u'", paranoid);
	TEST_ASSERT_STR("message", buf, want);
	e->open_err_pid = -1;
	evsel__open_strerror(e, err, buf, sizeof(buf));
	snprintf(want, sizeof(want), "cannot open event 'task-clock': permission denied: "
		 "/proc/sys/kernel/perf_event_paranoid is %d and counting per-CPU (-a, -C) needs 0 "
		 "or lower; run as root or set it with 'sysctl kernel.perf_event_paranoid=0'",
		 paranoid);
	TEST_ASSERT_STR("per-CPU message", buf, want);
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.sample_type = PERF_SAMPLE_RAW;
	evsel__open_strerror(e, EPERM, buf, sizeof(buf));
	snprintf(want, sizeof(want), "cannot open event 'task-clock': permission denied: "
		 "/proc/sys/kernel/perf_event_paranoid is %d and counting raw tracepoint data "
		 "needs -1 or lower; run as root or set it with "
		 "'sysctl kernel.perf_event_paranoid=-1'", paranoid);
	TEST_ASSERT_STR("raw tracepoint message", buf, want);
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.sample_type = 0;
	e->open_err_pid = getpid();
	if (paranoid > 2)
		return test_skip("perf_event_paranoid %d forbids user counting too", paranoid);
	TEST_ASSERT_VAL("fallback", evsel__fallback(e, err, buf, sizeof(buf)));
	snprintf(want, sizeof(want), "kernel counting is not allowed (perf_event_paranoid is "
		 "%d): counting 'task-clock' in user space only, as 'task-clock:u'", paranoid);
	TEST_ASSERT_STR("note", buf, want);
	TEST_ASSERT_VAL("exclude_kernel", e->attr.exclude_kernel && e->attr.exclude_hv);
	TEST_ASSERT_EQUAL("reopen", evsel__open(e, any, self), 0);
	evsel__delete(e);
	cpu_map__put(any);
	thread_map__put(self);
	{
		/* user space of another user's process: paranoid allows it, ptrace not */
		struct thread_map *init = thread_map__new_by_tid(1);

		e = new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
		e->attr.exclude_kernel = e->attr.exclude_hv = 1;
		any = cpu_map__new_any();
		err = evsel__open(e, any, init);
		TEST_ASSERT_EQUAL("pid 1 refused", err, -EACCES);
		evsel__open_strerror(e, err, buf, sizeof(buf));
		TEST_ASSERT_STR("another user's", buf, "cannot open event 'task-clock': permission "
				"denied: thread 1 is not yours to observe (another user's, or not "
				"traceable); run as root or as its owner");
		evsel__delete(e);
		cpu_map__put(any);
		thread_map__put(init);
	}
	return TEST_OK;
}

/* In the (forked) test process: drop CAP_PERFMON and CAP_SYS_ADMIN, stay root. */
static int drop_perfmon(void)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &head, data))
		return -1;
	data[CAP_PERFMON / 32].effective &= ~(1u << (CAP_PERFMON % 32));
	data[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
	return syscall(SYS_capset, &head, data) ? -1 : 0;
}

TPERF_TEST(evsel_perm_root_nocap, "evsel: root without CAP_PERFMON is told of perf_event_paranoid")
{
	struct evsel *e = new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	char buf[512], want[512];
	int paranoid;

	if (geteuid() != 0)
		return test_skip("not root");
	if (procfs__read_int("sys/kernel/perf_event_paranoid", &paranoid) || paranoid < 1)
		return test_skip("perf_event_paranoid allows per-CPU counting");
	if (drop_perfmon() || cap__perfmon())
		return test_skip("cannot drop CAP_PERFMON and CAP_SYS_ADMIN");
	/* root's uid does not pass perf_event_paranoid: the capabilities do */
	e->open_err_pid = -1;
	evsel__open_strerror(e, EACCES, buf, sizeof(buf));
	snprintf(want, sizeof(want), "cannot open event 'task-clock': permission denied: "
		 "/proc/sys/kernel/perf_event_paranoid is %d and counting per-CPU (-a, -C) needs 0 "
		 "or lower; this root process lacks CAP_PERFMON and CAP_SYS_ADMIN (a container's?): "
		 "give it CAP_PERFMON, or set it with 'sysctl kernel.perf_event_paranoid=0'",
		 paranoid);
	TEST_ASSERT_STR("message", buf, want);
	if (paranoid > 1) {
		e->open_err_pid = getpid();
		TEST_ASSERT_VAL("user-only fallback", evsel__fallback(e, EACCES, buf, sizeof(buf)));
		TEST_ASSERT_VAL("exclude_kernel", e->attr.exclude_kernel);
	}
	evsel__delete(e);
	return TEST_OK;
}

TPERF_TEST(evsel_perm_root, "evsel: a refusal to root does not blame perf_event_paranoid")
{
	struct evsel *e = new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	char buf[512];

	if (geteuid() != 0 || !cap__perfmon())
		return test_skip("not root, or root without CAP_PERFMON and CAP_SYS_ADMIN");
	e->open_err_pid = getpid();
	evsel__open_strerror(e, EACCES, buf, sizeof(buf));
	TEST_ASSERT_STR("root", buf, "cannot open event 'task-clock': permission denied also to "
			"root: the kernel refuses this event (a security policy such as lockdown or "
			"SELinux, or a restricted event)");
	evsel__delete(e);
	e = new_sw(PERF_COUNT_SW_TASK_CLOCK, "ftrace:function");
	e->attr.type = PERF_TYPE_TRACEPOINT;
	evsel__open_strerror(e, EPERM, buf, sizeof(buf));
	TEST_ASSERT_STR("function", buf, "cannot open event 'ftrace:function': permission denied "
			"also to root: this kernel does not allow function tracing");
	evsel__delete(e);
	return TEST_OK;
}

static struct evlist *many_events(int n, const char *tid)
{
	struct evlist *evlist = evlist__new();
	struct target target = { .tid = tid };
	char buf[256];

	for (int i = 0; i < n; i++)
		evlist__add(evlist, new_sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock"));
	if (evlist__create_maps(evlist, &target, buf, sizeof(buf))) {
		evlist__delete(evlist);
		return NULL;
	}
	return evlist;
}

TPERF_TEST(evsel_rlimit_nofile, "evsel: the open-files limit is raised, or explained")
{
	struct rlimit rl = { 20, 500 };
	char tid[16], buf[512], want[512], how[256];
	struct evlist *evlist;
	struct evsel *e;
	size_t need;
	int err = 0;

	snprintf(tid, sizeof(tid), "%d", getpid());
	evlist = many_events(40, tid);
	TEST_ASSERT_VAL("evlist", evlist);
	TEST_ASSERT_EQUAL("nr_fds", evlist__nr_fds(evlist), 40);
	need = rlimit__nr_open_fds() + 40 + NOFILE_SLACK;

	/* soft limit too low, hard limit high enough: raised */
	TEST_ASSERT_EQUAL("setrlimit", setrlimit(RLIMIT_NOFILE, &rl), 0);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("getrlimit", getrlimit(RLIMIT_NOFILE, &rl), 0);
	TEST_ASSERT_EQUAL("soft limit raised", rl.rlim_cur, need);
	evlist__close(evlist);

	/* the hard limit is too low: explained */
	rl.rlim_cur = rl.rlim_max = 20;
	TEST_ASSERT_EQUAL("setrlimit", setrlimit(RLIMIT_NOFILE, &rl), 0);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), -EMFILE);
	/* past the hard limit: CAP_SYS_RESOURCE, which root may lack (a container) */
	if (cap__effective(CAP_SYS_RESOURCE))
		snprintf(how, sizeof(how), "raise it with 'ulimit -n %zu' (past the hard limit: "
			 "with CAP_SYS_RESOURCE, as root)", need);
	else
		snprintf(how, sizeof(how), "passing the hard limit takes CAP_SYS_RESOURCE, which "
			 "this process lacks%s: raise the hard limit where it is set (limits.conf, "
			 "systemd's LimitNOFILE=, the container's ulimits)",
			 geteuid() == 0 ? " (also as root)" : "");
	snprintf(want, sizeof(want), "too many open files: %zu descriptors are needed but the "
		 "limit (RLIMIT_NOFILE) is 20, hard limit 20; %s, or count fewer events or CPUs",
		 need, how);
	TEST_ASSERT_STR("message", buf, want);

	/* the kernel's EMFILE, opening one by one without the check */
	evlist__for_each_entry(evlist, e)
		if (!err)
			err = evsel__open(e, evlist->cpus, evlist->threads);
	TEST_ASSERT_EQUAL("EMFILE", err, -EMFILE);
	evlist__for_each_entry(evlist, e) {
		if (e->open_err) {
			evsel__open_strerror(e, e->open_err, buf, sizeof(buf));
			break;
		}
	}
	snprintf(want, sizeof(want), "cannot open event 'cpu-clock': too many open files: %zu "
		 "descriptors are needed but the limit (RLIMIT_NOFILE) is 20, hard limit 20; %s, "
		 "or count fewer events or CPUs", need, how);
	TEST_ASSERT_STR("explained", buf, want);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(evsel_powercap, "evsel: powercap energy counted per zone on a fake tree")
{
	char *dir = test_mkdtemp();
	struct cpu_map *online = cpu_map__new("0"), *any = cpu_map__new_any();
	struct thread_map *all = thread_map__new_any();
	struct evsel *e = new_event(PERF_TYPE_SOFTWARE, 0, "power/energy-pkg/");
	int err;

	TEST_ASSERT_VAL("tmp", dir);
	test_write_file(dir, "class/powercap/intel-rapl:0/name", "package-0\n");
	test_write_file(dir, "class/powercap/intel-rapl:0/energy_uj", "1000\n");
	test_write_file(dir, "class/powercap/intel-rapl:0/max_energy_range_uj", "100000\n");
	test_write_file(dir, "class/powercap/intel-rapl:1/name", "package-1\n");
	test_write_file(dir, "class/powercap/intel-rapl:1/energy_uj", "99000\n");
	test_write_file(dir, "class/powercap/intel-rapl:1/max_energy_range_uj", "100000\n");
	setenv("TPERF_SYSFS", dir, 1);
	e->powercap = powercap__find("energy-pkg");
	TEST_ASSERT_VAL("zones", e->powercap);
	e->requires_cpu = true;
	TEST_ASSERT_EQUAL("open", evsel__open(e, online, all), 0);
	TEST_ASSERT_EQUAL("one slot per zone", e->cpus->nr, 2);
	TEST_ASSERT_VAL("no fd", e->fd[0] == -1);
	test_write_file(dir, "class/powercap/intel-rapl:0/energy_uj", "3500\n");
	test_write_file(dir, "class/powercap/intel-rapl:1/energy_uj", "500\n");
	TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
	TEST_ASSERT_EQUAL("zone 0", e->counts[0].val, 2500);
	TEST_ASSERT_EQUAL("zone 1 wrapped", e->counts[1].val, 1500);
	TEST_ASSERT_VAL("times", e->counts[1].ena > 0 && e->counts[1].ena == e->counts[1].run);
	TEST_ASSERT_EQUAL("disable", evsel__disable(e), 0);
	test_write_file(dir, "class/powercap/intel-rapl:0/energy_uj", "9000\n");
	TEST_ASSERT_EQUAL("read frozen", evsel__read(e), 0);
	TEST_ASSERT_EQUAL("zone 0 frozen", e->counts[0].val, 2500);
	err = evsel__enable(e);
	TEST_ASSERT_EQUAL("enable restarts", err, 0);
	TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
	TEST_ASSERT_EQUAL("zone 0 from zero", e->counts[0].val, 0);
	evsel__close(e);
	powercap_event__delete(e->powercap);
	e->powercap = NULL;
	evsel__delete(e);
	test_rm_rf(dir);
	cpu_map__put(online);
	cpu_map__put(any);
	thread_map__put(all);
	return TEST_OK;
}

static int pipe_fds[2];

static void *idle_thread(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

/* A child with 4 threads; its pid, or -1. */
static pid_t spawn_threads(void)
{
	pid_t pid;
	char c;

	if (pipe(pipe_fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		for (int i = 0; i < 3; i++)
			pthread_create(&t, NULL, idle_thread, NULL);
		if (write(pipe_fds[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	if (pid < 0 || read(pipe_fds[0], &c, 1) != 1)
		return -1;
	return pid;
}

static void kill_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}

TPERF_TEST(threadmap_process, "threadmap: every thread of a process, from procfs")
{
	pid_t pid = spawn_threads();
	struct thread_map *m;
	char list[64];
	bool has_main = false;

	TEST_ASSERT_VAL("child", pid > 0);
	snprintf(list, sizeof(list), "%d", pid);
	m = thread_map__new_by_pid_str(list);
	TEST_ASSERT_VAL("map", m);
	TEST_ASSERT_EQUAL("threads", m->nr, 4);
	for (int i = 0; i < m->nr; i++)
		has_main |= m->map[i] == pid;
	TEST_ASSERT_VAL("main thread", has_main);
	thread_map__put(m);
	/* the same process twice, and ourselves: no duplicates */
	snprintf(list, sizeof(list), "%d,%d,%d", pid, pid, getpid());
	m = thread_map__new_by_pid_str(list);
	TEST_ASSERT_EQUAL("threads of two processes", m ? m->nr : -1, 5);
	thread_map__put(m);
	kill_child(pid);
	return TEST_OK;
}

TPERF_TEST(threadmap_errors, "threadmap: bad lists and missing processes")
{
	static const char *const bad[] = { "", "abc", "1,", ",1", "1;2", "-1", "0", "1 2" };
	char list[32];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		TEST_ASSERT_VAL(bad[i], !thread_map__new_by_pid_str(bad[i]) && errno == EINVAL);
		errno = 0;
		TEST_ASSERT_VAL(bad[i], !thread_map__new_by_tid_str(bad[i]) && errno == EINVAL);
	}
	errno = 0;
	TEST_ASSERT_VAL("no such pid", !thread_map__new_by_pid_str("2147483646") &&
			errno == ESRCH);
	errno = 0;
	TEST_ASSERT_VAL("no such tid", !thread_map__new_by_tid_str("2147483646") &&
			errno == ESRCH);
	snprintf(list, sizeof(list), "%d", getpid());
	{
		struct thread_map *m = thread_map__new_by_tid_str(list);

		TEST_ASSERT_VAL("tid", m && m->nr == 1 && m->map[0] == getpid());
		thread_map__put(m);
	}
	return TEST_OK;
}

TPERF_TEST(target_validate, "target: -p/-t override -a and -C with a warning, bad lists")
{
	static const struct {
		struct target t;
		int ret;
		const char *msg;
	} cases[] = {
		{ { .pid = "1" }, 0, "" },
		{ { .system_wide = true, .cpu_list = "0" }, 0, "" },
		{ { .pid = "1", .system_wide = true }, 0,
		  "-p/-t given: ignoring -a (counting the given processes only)" },
		{ { .tid = "1", .system_wide = true }, 0,
		  "-p/-t given: ignoring -a (counting the given threads only)" },
		{ { .pid = "1", .cpu_list = "0" }, 0, "-p/-t given: ignoring the CPU list of -C" },
		{ { .pid = "1x" }, -EINVAL, "invalid process id list '1x': expected PID[,PID...]" },
		{ { .tid = "1,,2" }, -EINVAL,
		  "invalid thread id list '1,,2': expected TID[,TID...]" },
		{ { .cpu_list = "0:1" }, -EINVAL,
		  "invalid CPU list '0:1': expected a list such as '0-3,6'" },
	};
	char buf[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct target t = cases[i].t;

		TEST_ASSERT_EQUAL(cases[i].msg, target__validate(&t, buf, sizeof(buf)),
				  cases[i].ret);
		TEST_ASSERT_STR("message", buf, cases[i].msg);
		if (cases[i].t.pid || cases[i].t.tid)
			TEST_ASSERT_VAL("no CPU target left", !target__has_cpu(&t));
	}
	return TEST_OK;
}

TPERF_TEST(evlist_create_maps, "evlist: CPUs and threads of -a, -C, -p, -t and a workload")
{
	struct evlist *evlist = evlist__new();
	struct cpu_map *online = cpu_map__new_online();
	struct target t = { .system_wide = true };
	char buf[256], want[256], on[64], list[32];

	TEST_ASSERT_EQUAL("-a", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("-a: CPUs", evlist->cpus->nr, online->nr);
	TEST_ASSERT_EQUAL("-a: any thread", evlist->threads->map[0], -1);
	t = (struct target){ .cpu_list = "0" };
	TEST_ASSERT_EQUAL("-C 0", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("-C 0: CPU 0", evlist->cpus->nr == 1 && evlist->cpus->map[0] == 0);
	t = (struct target){ .cpu_list = "4095" };
	TEST_ASSERT_EQUAL("-C offline", evlist__create_maps(evlist, &t, buf, sizeof(buf)),
			  -ENODEV);
	cpu_map__snprint(online, on, sizeof(on));
	snprintf(want, sizeof(want), "CPU 4095 in '4095' is not online (online CPUs: %s); "
		 "choose CPUs among those", on);
	TEST_ASSERT_STR("-C offline", buf, want);
	t = (struct target){ .cpu_list = "5-1" };
	TEST_ASSERT_EQUAL("-C bad", evlist__create_maps(evlist, &t, buf, sizeof(buf)), -EINVAL);
	TEST_ASSERT_STR("-C bad", buf, "invalid CPU list '5-1': expected a list such as '0-3,6'");
	snprintf(list, sizeof(list), "%d", getpid());
	t = (struct target){ .pid = list };
	TEST_ASSERT_EQUAL("-p", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("-p: any CPU", evlist->cpus->nr == 1 && evlist->cpus->map[0] == -1);
	TEST_ASSERT_EQUAL("-p: our thread", evlist->threads->map[0], getpid());
	t = (struct target){ .pid = "2147483646" };
	TEST_ASSERT_EQUAL("-p gone", evlist__create_maps(evlist, &t, buf, sizeof(buf)), -ESRCH);
	TEST_ASSERT_STR("-p gone", buf, "cannot find process '2147483646': no such process; "
			"check the ids with 'ps'");
	t = (struct target){ .tid = "2147483646" };
	TEST_ASSERT_EQUAL("-t gone", evlist__create_maps(evlist, &t, buf, sizeof(buf)), -ESRCH);
	TEST_ASSERT_STR("-t gone", buf, "cannot find thread '2147483646': no such process; "
			"check the ids with 'ps'");
	t = (struct target){ 0 };
	TEST_ASSERT_EQUAL("workload", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("threads come later", !evlist->threads);
	evlist__set_workload_pid(evlist, 4242);
	TEST_ASSERT_VAL("workload thread", evlist->threads->nr == 1 &&
			evlist->threads->map[0] == 4242 && evlist->workload_pid == 4242);
	t = (struct target){ .system_wide = true };
	TEST_ASSERT_EQUAL("-a", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	evlist__set_workload_pid(evlist, 4243);
	TEST_ASSERT_VAL("-a with a workload stays system-wide", evlist->threads->nr == 1 &&
			evlist->threads->map[0] == -1 && evlist->cpus->nr == online->nr &&
			evlist->workload_pid == 4243);
	cpu_map__put(online);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(evlist_open_process, "evlist: -p counts every thread of a process")
{
	pid_t pid = spawn_threads();
	struct evsel *e = new_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches");
	struct evlist *evlist = evlist_of(&e, 1, false);
	char list[32], buf[512];
	struct target t = { .pid = list };

	TEST_ASSERT_VAL("child", pid > 0);
	snprintf(list, sizeof(list), "%d", pid);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("one fd per thread", evlist__nr_fds(evlist), 4);
	for (int i = 0; i < 4; i++)
		TEST_ASSERT_VAL("fd", e->fd[i] >= 0);
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	kill_child(pid);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(evlist_open_unsupported, "evlist: unsupported events kept, fatal ones explained")
{
	struct evsel *ev[3] = { new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles"),
				new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"),
				new_sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults") };
	struct evlist *evlist = evlist_of(ev, 3, false);
	struct target t = { 0 };
	char buf[512];

	if (have_cpu_pmu())
		return test_skip("this machine has a CPU PMU");
	ev[0]->attr.exclude_guest = 1;
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	evlist__set_workload_pid(evlist, getpid());
	TEST_ASSERT_EQUAL("fatal", evlist__open(evlist, 0, buf, sizeof(buf)), -ENOENT);
	TEST_ASSERT_STR("message", buf, "cannot open event 'cycles': hardware events are not "
			"supported on this machine (no PMU); try -e cpu-clock");
	TEST_ASSERT_VAL("all closed", !ev[1]->fd && !ev[2]->fd);
	TEST_ASSERT_EQUAL("kept", evlist__open(evlist, EVLIST_OPEN_KEEP_UNSUPPORTED, buf,
					       sizeof(buf)), 0);
	TEST_ASSERT_VAL("cycles unsupported", !ev[0]->supported && ev[0]->open_err == ENOENT);
	TEST_ASSERT_VAL("others open", ev[1]->supported && ev[2]->supported);
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	tperf_config.quiet = true;	/* the note goes to stderr */
	TEST_ASSERT_EQUAL("fallback", evlist__open(evlist, EVLIST_OPEN_FALLBACK, buf,
						   sizeof(buf)), 0);
	TEST_ASSERT_VAL("cycles is cpu-clock", ev[0]->supported &&
			!strcmp(evsel__name(ev[0]), "cpu-clock"));
	evlist__delete(evlist);
	return TEST_OK;
}

/* Make the group {@leader,@member} two single events. */
static void ungroup(struct evsel *leader, struct evsel *member)
{
	member->leader = member;
	leader->nr_members = 1;
	evsel__config_read_format(leader);
	evsel__config_read_format(member);
}

TPERF_TEST(evlist_open_groups, "evlist: an unsupported group leader is fatal; weak groups split")
{
	struct evsel *ev[4] = { new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles"),
				new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"),
				new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"),
				new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
					  "instructions") };
	struct evlist *evlist = evlist_of(ev, 4, false);
	struct target t = { 0 };
	char buf[512];

	if (have_cpu_pmu())
		return test_skip("this machine has a CPU PMU");
	ev[1]->leader = ev[0];
	ev[0]->nr_members = 2;
	ev[3]->leader = ev[2];
	ev[2]->nr_members = 2;
	ev[2]->weak_group = true;
	for (int i = 0; i < 4; i++)
		evsel__config_read_format(ev[i]);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	evlist__set_workload_pid(evlist, getpid());
	/* as perf stat: the unsupported leader of a group is fatal */
	TEST_ASSERT_EQUAL("group leader", evlist__open(evlist, EVLIST_OPEN_KEEP_UNSUPPORTED, buf,
						       sizeof(buf)), -ENOENT);
	TEST_ASSERT_STR("message", buf, "cannot open event 'cycles': hardware events are not "
			"supported on this machine (no PMU); try -e cpu-clock");
	TEST_ASSERT_VAL("all closed", !ev[1]->counts && !ev[2]->counts);
	ungroup(ev[0], ev[1]);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, EVLIST_OPEN_KEEP_UNSUPPORTED, buf,
					       sizeof(buf)), 0);
	TEST_ASSERT_VAL("a lone leader is kept", !ev[0]->supported && ev[1]->supported);
	TEST_ASSERT_VAL("weak group split", ev[3]->leader == ev[3] && ev[2]->nr_members == 1);
	TEST_ASSERT_VAL("split leader opened alone", ev[2]->supported &&
			!(ev[2]->attr.read_format & PERF_FORMAT_GROUP));
	TEST_ASSERT_VAL("member unsupported", !ev[3]->supported);
	do_work();
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	TEST_ASSERT_VAL("counted", ev[2]->counts[0].val > 0);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(evsel_verbose_open, "evsel: -vv prints each sys_perf_event_open as perf does")
{
	struct evsel *e = new_sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();
	char path[] = "/tmp/tperf-vv.XXXXXX", want[256], *out, *line;
	int fd = mkstemp(path), saved = dup(2), ev_fd;

	TEST_ASSERT_VAL("tmp", fd >= 0 && saved >= 0);
	dup2(fd, 2);
	tperf_config.verbose = 2;
	TEST_ASSERT_EQUAL("open", evsel__open(e, any, self), 0);
	ev_fd = e->fd[0];
	e->attr.type = PERF_TYPE_HARDWARE;
	evsel__close(e);
	TEST_ASSERT_EQUAL("open fails", evsel__open(e, any, self), -ENOENT);
	tperf_config.verbose = 0;
	dup2(saved, 2);
	TEST_ASSERT_EQUAL("output", filename__read_str(path, &out, NULL), 0);
	unlink(path);
	line = strstr(out, "sys_perf_event_open: ");
	TEST_ASSERT_VAL("attr first", line && line > out && strstr(out, "perf_event_attr:") < line);
	snprintf(want, sizeof(want), "sys_perf_event_open: pid %d  cpu -1  group_fd -1  flags "
		 "0x8 = %d\n", getpid(), ev_fd);
	TEST_ASSERT_VAL("syscall line", !strncmp(line, want, strlen(want)) ||
			(fprintf(stderr, "got %.120s\nwant %s", line, want), false));
	snprintf(want, sizeof(want), "sys_perf_event_open: pid %d  cpu -1  group_fd -1  flags "
		 "0x8\nsys_perf_event_open failed, error -2\n", getpid());
	TEST_ASSERT_VAL("failure line", strstr(out, want));
	free(out);
	evsel__delete(e);
	cpu_map__put(any);
	thread_map__put(self);
	return TEST_OK;
}

TPERF_TEST(evsel_thread_gone, "evsel: a thread that exited is skipped, no thread at all is ESRCH")
{
	struct thread_map *threads = thread_map__new_by_tid_str("1,1");
	struct cpu_map *any = cpu_map__new_any();
	struct evsel *ev[2] = { new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"),
				new_sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults") };
	struct evlist *evlist = evlist_of(ev, 2, true);
	char buf[512];

	TEST_ASSERT_VAL("map", threads && threads->nr == 1);
	free(threads);
	threads = malloc(sizeof(*threads) + 2 * sizeof(pid_t));
	*threads = (struct thread_map){ .refcnt = 1, .nr = 2 };
	threads->map[0] = getpid();
	threads->map[1] = 2147483646;	/* above any pid_max: gone */
	/* event by event, as a tool does: the leader starts once the group is whole */
	ev[0]->attr.disabled = 1;
	TEST_ASSERT_EQUAL("open", evsel__open(ev[0], any, threads), 0);
	TEST_ASSERT_EQUAL("member", evsel__open(ev[1], any, threads), 0);
	TEST_ASSERT_VAL("live thread", ev[0]->fd[0] >= 0 && ev[1]->fd[0] >= 0);
	TEST_ASSERT_VAL("gone thread skipped", ev[0]->fd[1] == -1 && ev[1]->fd[1] == -1);
	TEST_ASSERT_EQUAL("enable", evsel__enable(ev[0]), 0);
	do_work();
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	TEST_ASSERT_VAL("live thread counted", ev[0]->counts[0].val > 0);
	TEST_ASSERT_VAL("live thread's page faults", ev[1]->counts[0].val > 1000);
	TEST_ASSERT_VAL("member read through the group", ev[1]->counts[0].ena > 0 &&
			ev[1]->counts[0].ena == ev[0]->counts[0].ena);
	TEST_ASSERT_EQUAL("gone thread not counted (leader)", ev[0]->counts[1].val, 0);
	TEST_ASSERT_EQUAL("gone thread not counted", ev[1]->counts[1].val, 0);
	evlist__close(evlist);
	threads->map[0] = 2147483645;
	TEST_ASSERT_EQUAL("all gone", evsel__open(ev[0], any, threads), -ESRCH);
	threads->nr = 1;
	TEST_ASSERT_EQUAL("one gone", evsel__open(ev[0], any, threads), -ESRCH);
	evsel__open_strerror(ev[0], ev[0]->open_err, buf, sizeof(buf));
	TEST_ASSERT_STR("message", buf, "cannot open event 'task-clock': no such process "
			"(thread 2147483645); check the -p/-t list");
	evlist__delete(evlist);
	cpu_map__put(any);
	thread_map__put(threads);
	return TEST_OK;
}

TPERF_TEST(evsel_group_per_cpu, "evsel: a group on every CPU uses each CPU's leader fd")
{
	struct evsel *ev[2] = { new_sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock"),
				new_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches") };
	struct evlist *evlist = evlist_of(ev, 2, true);
	struct target target = { .system_wide = true };
	char buf[512];

	if (geteuid())
		return test_skip("needs root");
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &target, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), 0);
	do_work();
	usleep(10000);
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	for (int i = 0; i < evlist->cpus->nr; i++) {
		TEST_ASSERT_VAL("cpu-clock", ev[0]->counts[i].val > 0);
		TEST_ASSERT_EQUAL("same times", ev[1]->counts[i].ena, ev[0]->counts[i].ena);
	}
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(evsel_fallback_names, "evsel: cycles with modifiers falls back with perf's names")
{
	static const struct {
		const char *name;
		struct perf_event_attr attr;
		const char *want;
	} cases[] = {
		{ "cycles", { .exclude_guest = 1 }, "cpu-clock" },
		{ "cycles:u", { .exclude_kernel = 1, .exclude_hv = 1, .exclude_guest = 1 },
		  "cpu-clock:uH" },
		{ "cycles:k", { .exclude_user = 1, .exclude_hv = 1 }, "cpu-clock:k" },
		{ "cycles:ppp", { .precise_ip = 3, .exclude_guest = 1 }, "cpu-clock:pppH" },
		{ "cycles:P", { .precise_ip = 3 }, "cpu-clock:ppp" },
		{ "cycles:uG", { .exclude_kernel = 1, .exclude_hv = 1, .exclude_host = 1 },
		  "cpu-clock:uG" },
		{ "cycles:kh", { .exclude_user = 1 }, "cpu-clock:kh" },
		{ "cycles:H", { .exclude_guest = 1 }, "cpu-clock" },
	};
	char msg[256], want[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr attr = cases[i].attr;
		struct evsel *e;

		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_CPU_CYCLES;
		e = evsel__new(&attr);
		evsel__set_name(e, cases[i].name);
		TEST_ASSERT_VAL(cases[i].name, evsel__fallback(e, -ENOENT, msg, sizeof(msg)));
		TEST_ASSERT_STR(cases[i].name, evsel__name(e), cases[i].want);
		TEST_ASSERT_EQUAL("precise_ip kept", e->attr.precise_ip, cases[i].attr.precise_ip);
		snprintf(want, sizeof(want), "the '%s' event is not supported here (no hardware "
			 "PMU): falling back to '%s'", cases[i].name, cases[i].want);
		TEST_ASSERT_STR("note", msg, want);
		evsel__delete(e);
	}
	return TEST_OK;
}

TPERF_TEST(evsel_einval_attr_kept, "evsel: a useless exclude_guest retry leaves the attr as it was")
{
	struct evsel *e = new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();
	char buf[512];

	e->attr.exclude_guest = 1;
	e->attr.read_format |= 1ULL << 20;	/* no such read_format bit */
	TEST_ASSERT_EQUAL("open", evsel__open(e, any, self), -EINVAL);
	TEST_ASSERT_VAL("exclude_guest kept", e->attr.exclude_guest);
	evsel__open_strerror(e, e->open_err, buf, sizeof(buf));
	TEST_ASSERT_STR("message", buf, "cannot open event 'task-clock': invalid event attributes "
			"(Invalid argument); check the event's terms and modifiers, and -vv shows "
			"the attr");
	evsel__delete(e);
	cpu_map__put(any);
	thread_map__put(self);
	return TEST_OK;
}

TPERF_TEST(evsel_powercap_sockets, "evsel: powercap zones sit at the first CPU of their package")
{
	char *dir = test_mkdtemp(), buf[64];
	struct cpu_map *any = cpu_map__new_any();
	struct thread_map *all = thread_map__new_any();
	struct evsel *e = new_event(PERF_TYPE_SOFTWARE, 0, "power/energy-pkg/");
	static const int pkg[] = { 1, 1, 0, 0 };

	TEST_ASSERT_VAL("tmp", dir);
	/* package 1 on CPUs 0-1 and listed first: slots must still follow the CPUs */
	test_write_file(dir, "devices/system/cpu/online", "0-3\n");
	for (int c = 0; c < 4; c++) {
		char rel[128], val[8];

		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/topology/physical_package_id", c);
		snprintf(val, sizeof(val), "%d\n", pkg[c]);
		test_write_file(dir, rel, val);
	}
	test_write_file(dir, "class/powercap/intel-rapl:0/name", "package-0\n");
	test_write_file(dir, "class/powercap/intel-rapl:0/energy_uj", "100\n");
	test_write_file(dir, "class/powercap/intel-rapl:1/name", "package-1\n");
	test_write_file(dir, "class/powercap/intel-rapl:1/energy_uj", "100\n");
	setenv("TPERF_SYSFS", dir, 1);
	e->powercap = powercap__find("energy-pkg");
	TEST_ASSERT_VAL("zones", e->powercap && powercap_event__nr_zones(e->powercap) == 2);
	TEST_ASSERT_EQUAL("open", evsel__open(e, any, all), 0);
	cpu_map__snprint(e->cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("first CPU of each package", buf, "0,2");
	/* package 0 used 200 uJ, package 1 1000 uJ */
	test_write_file(dir, "class/powercap/intel-rapl:0/energy_uj", "300\n");
	test_write_file(dir, "class/powercap/intel-rapl:1/energy_uj", "1100\n");
	TEST_ASSERT_EQUAL("read", evsel__read(e), 0);
	TEST_ASSERT_EQUAL("CPU0 slot reads package 1", e->counts[0].val, 1000);
	TEST_ASSERT_EQUAL("CPU2 slot reads package 0", e->counts[1].val, 200);
	evsel__delete(e);
	test_rm_rf(dir);
	cpu_map__put(any);
	thread_map__put(all);
	return TEST_OK;
}

TPERF_TEST(evsel_breakpoints_full, "evsel: a fifth hardware breakpoint is ENOSPC, explained")
{
	static long vars[5];
	struct thread_map *self = thread_map__new_by_tid(getpid());
	struct cpu_map *any = cpu_map__new_any();
	struct evsel *bp[5];
	char buf[512];
	int err = 0, i;

	for (i = 0; i < 5; i++) {
		bp[i] = new_event(PERF_TYPE_BREAKPOINT, 0, "mem:watch");
		bp[i]->attr.bp_type = HW_BREAKPOINT_W;
		bp[i]->attr.bp_addr = (uintptr_t)&vars[i];
		bp[i]->attr.bp_len = HW_BREAKPOINT_LEN_8;
	}
	for (i = 0; i < 5 && !err; i++)
		err = evsel__open(bp[i], any, self);
	if (err && i < 5)
		return test_skip("only %d breakpoints here", i - 1);
	TEST_ASSERT_EQUAL("fifth", err, -ENOSPC);
	evsel__open_strerror(bp[4], err, buf, sizeof(buf));
	TEST_ASSERT_STR("message", buf, "cannot open event 'mem:watch': no free hardware "
			"breakpoint register (x86 has 4, shared with debuggers); watch fewer "
			"addresses");
	for (i = 0; i < 5; i++)
		evsel__delete(bp[i]);
	cpu_map__put(any);
	thread_map__put(self);
	return TEST_OK;
}

/* The "sys_perf_event_open: ..." lines of @out, "cpu C group_fd G" each, into @buf. */
static void open_lines(const char *out, char *buf, size_t size)
{
	const char *p = out;
	size_t len = 0;

	buf[0] = '\0';
	while ((p = strstr(p, "sys_perf_event_open: pid "))) {
		int pid, cpu, gfd;

		if (sscanf(p, "sys_perf_event_open: pid %d  cpu %d  group_fd %d", &pid, &cpu,
			   &gfd) == 3 && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%d/%s", len ? " " : "",
						cpu, gfd < 0 ? "L" : "M");
		p++;
	}
}

TPERF_TEST(evlist_cpu_major, "evlist: CPU-major opens go CPU by CPU, as perf stat -vv shows")
{
	struct evsel *ev[3] = { new_sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock"),
				new_sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults"),
				new_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches") };
	struct evlist *evlist = evlist_of(ev, 3, false);
	struct target target = { .cpu_list = "0-1" };
	char path[] = "/tmp/tperf-vv.XXXXXX", buf[512], order[256], *out;
	int fd = mkstemp(path), saved = dup(2), err;

	if (geteuid())
		return test_skip("needs root");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return test_skip("needs 2 CPUs");
	ev[1]->leader = ev[0];
	ev[0]->nr_members = 2;
	for (int i = 0; i < 3; i++)
		evsel__config_read_format(ev[i]);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &target, buf, sizeof(buf)), 0);
	dup2(fd, 2);
	tperf_config.verbose = 2;
	err = evlist__open(evlist, EVLIST_OPEN_CPU_MAJOR, buf, sizeof(buf));
	tperf_config.verbose = 0;
	dup2(saved, 2);
	TEST_ASSERT_EQUAL("open", err, 0);
	TEST_ASSERT_EQUAL("output", filename__read_str(path, &out, NULL), 0);
	unlink(path);
	open_lines(out, order, sizeof(order));
	free(out);
	TEST_ASSERT_STR("order", order, "0/L 0/M 0/L 1/L 1/M 1/L");
	TEST_ASSERT_VAL("member on its leader, per CPU",
			ev[1]->fd[0] >= 0 && ev[1]->fd[1] >= 0 && ev[0]->fd[1] > ev[1]->fd[0]);
	do_work();
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	for (int i = 0; i < 2; i++)
		TEST_ASSERT_EQUAL("group times", ev[1]->counts[i].ena, ev[0]->counts[i].ena);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(evlist_cpu_major_failures, "evlist: CPU-major keeps, falls back, splits weak groups")
{
	struct evsel *ev[6] = { new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles"),
				new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"),
				new_sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"),
				new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
					  "instructions"),
				new_sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults"),
				new_event(PERF_TYPE_HW_CACHE, 0, "L1-dcache-loads") };
	struct evlist *evlist = evlist_of(ev, 6, false);
	struct target t = { .system_wide = true };
	char buf[512];
	int flags;

	if (have_cpu_pmu())
		return test_skip("this machine has a CPU PMU");
	if (geteuid())
		return test_skip("needs root");
	ev[1]->leader = ev[0];
	ev[0]->nr_members = 2;
	ev[3]->leader = ev[2];
	ev[2]->nr_members = 2;
	ev[2]->weak_group = true;
	for (int i = 0; i < 6; i++)
		evsel__config_read_format(ev[i]);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &t, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("fatal", evlist__open(evlist, EVLIST_OPEN_CPU_MAJOR, buf, sizeof(buf)),
			  -ENOENT);
	TEST_ASSERT_STR("message", buf, "cannot open event 'cycles': hardware events are not "
			"supported on this machine (no PMU); try -e cpu-clock");
	TEST_ASSERT_VAL("nothing left open", !ev[1]->counts && !ev[2]->counts && !ev[4]->counts);
	flags = EVLIST_OPEN_CPU_MAJOR | EVLIST_OPEN_KEEP_UNSUPPORTED;
	TEST_ASSERT_EQUAL("group leader", evlist__open(evlist, flags, buf, sizeof(buf)), -ENOENT);
	TEST_ASSERT_VAL("nothing open", !ev[1]->counts && !ev[2]->counts && !ev[4]->counts);
	ungroup(ev[0], ev[1]);
	TEST_ASSERT_EQUAL("kept", evlist__open(evlist, flags, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("lone leader kept", !ev[0]->supported && ev[1]->supported);
	TEST_ASSERT_VAL("weak group split", ev[3]->leader == ev[3] && ev[2]->nr_members == 1 &&
			ev[2]->supported && !ev[3]->supported);
	TEST_ASSERT_VAL("others", ev[4]->supported && !ev[5]->supported);
	do_work();
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	for (int i = 0; i < evlist->cpus->nr; i++)
		TEST_ASSERT_VAL("split leader counts", ev[2]->counts[i].ena > 0);
	tperf_config.quiet = true;
	evlist__close(evlist);
	ev[1]->leader = ev[0];
	ev[0]->nr_members = 2;
	evsel__config_read_format(ev[0]);
	evsel__config_read_format(ev[1]);
	flags = EVLIST_OPEN_CPU_MAJOR | EVLIST_OPEN_FALLBACK | EVLIST_OPEN_KEEP_UNSUPPORTED;
	TEST_ASSERT_EQUAL("fallback", evlist__open(evlist, flags, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("cycles -> cpu-clock with its member",
			ev[0]->supported && ev[1]->supported && ev[1]->fd[0] >= 0);
	evlist__delete(evlist);
	return TEST_OK;
}
