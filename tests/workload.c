// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload: held until released, exit status, exec failures, signals,
 * and counting that starts at exec (enable_on_exec).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/lib/fs.h"
#include "util/event/parse-events.h"
#include "util/event/target.h"
#include "util/event/threadmap.h"
#include "util/event/workload.h"

static bool no_children_left(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

TPERF_TEST(workload_exit_status, "workload: the exit status of the command comes back")
{
	const char *argv[] = { "sh", "-c", "exit 7", NULL };
	struct workload w;
	int status = 0;

	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	TEST_ASSERT_VAL("pid", w.pid > 0);
	TEST_ASSERT_EQUAL("start", workload__start(&w), 0);
	TEST_ASSERT_EQUAL("wait", workload__wait(&w, &status), 0);
	TEST_ASSERT_VAL("exited", WIFEXITED(status));
	TEST_ASSERT_EQUAL("status", WEXITSTATUS(status), 7);
	TEST_ASSERT_VAL("reaped", no_children_left());
	return TEST_OK;
}

TPERF_TEST(workload_no_such_command, "workload: a missing command is -ENOENT, no zombie")
{
	const char *argv[] = { "tperf-no-such-command", "x", NULL };
	const char *empty[] = { "", NULL };
	struct workload w;

	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	TEST_ASSERT_EQUAL("start", workload__start(&w), -ENOENT);
	TEST_ASSERT_EQUAL("pid cleared", w.pid, -1);
	TEST_ASSERT_VAL("reaped", no_children_left());
	TEST_ASSERT_EQUAL("wait after", workload__wait(&w, NULL), -ECHILD);
	TEST_ASSERT_EQUAL("empty command", workload__prepare(&w, empty), -EINVAL);
	return TEST_OK;
}

TPERF_TEST(workload_not_executable, "workload: a file that cannot be run is -EACCES")
{
	char path[] = "/tmp/tperf-noexec.XXXXXX";
	const char *argv[] = { path, NULL };
	struct workload w;
	int fd = mkstemp(path), err;

	TEST_ASSERT_VAL("mkstemp", fd >= 0);
	close(fd);
	chmod(path, 0644);
	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	err = workload__start(&w);
	unlink(path);
	TEST_ASSERT_EQUAL("start", err, -EACCES);
	TEST_ASSERT_VAL("reaped", no_children_left());
	return TEST_OK;
}

TPERF_TEST(workload_abort, "workload: a workload never started is killed and reaped")
{
	const char *argv[] = { "sh", "-c", "echo ran >&2; exit 0", NULL };
	struct workload w;

	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	workload__abort(&w);
	TEST_ASSERT_EQUAL("pid cleared", w.pid, -1);
	TEST_ASSERT_VAL("reaped", no_children_left());
	return TEST_OK;
}

TPERF_TEST(workload_comm, "workload: named perf-exec once prepared, before it runs")
{
	const char *argv[] = { "true", NULL };
	struct workload w;
	char path[64], comm[32] = "";
	FILE *f;

	/*
	 * record synthesizes the workload's COMM right after prepare: the
	 * name must already be perf's, every time (a race before)
	 */
	for (int i = 0; i < 50; i++) {
		TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)w.pid);
		f = fopen(path, "r");
		TEST_ASSERT_VAL("comm file", f);
		TEST_ASSERT_VAL("read comm", fgets(comm, sizeof(comm), f));
		fclose(f);
		workload__abort(&w);
		TEST_ASSERT_VAL("comm is perf-exec", !strcmp(comm, "perf-exec\n"));
	}
	TEST_ASSERT_VAL("reaped", no_children_left());
	return TEST_OK;
}

static void on_sigint(int sig)
{
	(void)sig;
}

TPERF_TEST(workload_signals, "workload: the child gets default signal actions")
{
	const char *argv[] = { "sh", "-c", "kill -INT $$; exit 3", NULL };
	struct sigaction sa = { .sa_handler = on_sigint };
	struct workload w;
	int status = 0;

	sigaction(SIGINT, &sa, NULL);
	signal(SIGTERM, SIG_IGN);
	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	TEST_ASSERT_EQUAL("start", workload__start(&w), 0);
	TEST_ASSERT_EQUAL("wait", workload__wait(&w, &status), 0);
	TEST_ASSERT_VAL("killed by SIGINT", WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
	return TEST_OK;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

TPERF_TEST(workload_enable_on_exec, "workload: enable_on_exec counts the command only")
{
	const char *argv[] = { "true", NULL };
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_TASK_CLOCK,
					.disabled = 1, .enable_on_exec = 1, .inherit = 1 };
	struct evlist *evlist = evlist__new();
	struct evsel *e = evsel__new(&attr);
	struct target target = { 0 };
	struct workload w;
	uint64_t t0;
	char buf[512];
	int status;

	evsel__set_name(e, "task-clock");
	evsel__config_read_format(e);
	evlist__add(evlist, e);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &target, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("no threads before the workload", !evlist->threads);
	TEST_ASSERT_EQUAL("open without workload", evlist__open(evlist, 0, buf, sizeof(buf)),
			  -EINVAL);
	TEST_ASSERT_STR("message", buf, "no target to count: give a command, -p, -t, -a or -C");
	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	evlist__set_workload_pid(evlist, w.pid);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("on the workload", e->threads->map[0], w.pid);
	/* time passes between open and start: it must not be counted */
	usleep(200000);
	TEST_ASSERT_EQUAL("read before", evlist__read(evlist), 0);
	TEST_ASSERT_EQUAL("nothing before exec", e->counts[0].ena, 0);
	t0 = now_ns();
	TEST_ASSERT_EQUAL("start", workload__start(&w), 0);
	TEST_ASSERT_EQUAL("wait", workload__wait(&w, &status), 0);
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	TEST_ASSERT_VAL("counted", e->counts[0].val > 0);
	TEST_ASSERT_VAL("only since exec", e->counts[0].ena <= now_ns() - t0);
	TEST_ASSERT_VAL("the command ran", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(workload_cpu_wide_event, "workload: a per-CPU-only event counts while it runs")
{
	const char *argv[] = { "true", NULL };
	struct evlist *evlist = evlist__new();
	struct target target = { 0 };
	struct workload w;
	struct evsel *e;
	char buf[512];
	int type, status;

	if (sysfs__read_int("bus/event_source/devices/msr/type", &type))
		return test_skip("no msr PMU");
	if (geteuid())
		return test_skip("needs root");
	e = evsel__new(&(struct perf_event_attr){ .type = (uint32_t)type, .disabled = 1,
						   .enable_on_exec = 1 });
	evsel__set_name(e, "msr/tsc/");
	e->requires_cpu = true;
	evsel__config_read_format(e);
	evlist__add(evlist, e);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &target, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	evlist__set_workload_pid(evlist, w.pid);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, 0, buf, sizeof(buf)), 0);
	TEST_ASSERT_VAL("on every CPU, all threads", e->cpus->map[0] >= 0 &&
			e->threads->map[0] == -1);
	TEST_ASSERT_EQUAL("start", workload__start(&w), 0);
	TEST_ASSERT_EQUAL("wait", workload__wait(&w, &status), 0);
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	for (int i = 0; i < e->cpus->nr; i++)
		TEST_ASSERT_VAL("counted", e->counts[i].val > 0);
	evlist__delete(evlist);
	return TEST_OK;
}

static bool have_cpu_pmu_for_test(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu", sysfs__mountpoint());
	return access(path, F_OK) == 0;
}

static struct evsel *find_event(struct evlist *evlist, const char *name)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e)
		if (!strcmp(evsel__name(e), name))
			return e;
	return NULL;
}

TPERF_TEST(workload_parsed_events, "workload: parsed events, as stat opens them, count a command")
{
	const char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done",
			       NULL };
	struct evlist *evlist = evlist__new();
	struct parse_events_error perr = { 0 };
	struct target target = { 0 };
	struct evsel *e, *tc, *pf, *tsc, *cyc;
	struct workload w;
	char buf[512];
	int status;

	TEST_ASSERT_EQUAL("parse", parse_events(evlist, "{task-clock,page-faults},cycles,msr/tsc/",
						&perr), 0);
	evlist__for_each_entry(evlist, e) {
		evsel__config_read_format(e);
		e->attr.inherit = 1;
		if (evsel__is_group_leader(e)) {
			e->attr.disabled = 1;
			e->attr.enable_on_exec = 1;
		}
	}
	tc = find_event(evlist, "task-clock");
	pf = find_event(evlist, "page-faults");
	cyc = find_event(evlist, "cycles");
	tsc = find_event(evlist, "msr/tsc/");
	TEST_ASSERT_VAL("events", tc && pf && cyc);
	TEST_ASSERT_EQUAL("maps", evlist__create_maps(evlist, &target, buf, sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	evlist__set_workload_pid(evlist, w.pid);
	TEST_ASSERT_EQUAL("open", evlist__open(evlist, EVLIST_OPEN_KEEP_UNSUPPORTED, buf,
					       sizeof(buf)), 0);
	TEST_ASSERT_EQUAL("start", workload__start(&w), 0);
	TEST_ASSERT_EQUAL("wait", workload__wait(&w, &status), 0);
	TEST_ASSERT_EQUAL("read", evlist__read(evlist), 0);
	TEST_ASSERT_VAL("task-clock", tc->counts[0].val > 0 && tc->counts[0].run > 0);
	TEST_ASSERT_VAL("page-faults", pf->counts[0].val > 0);
	TEST_ASSERT_EQUAL("grouped times", pf->counts[0].ena, tc->counts[0].ena);
	if (!have_cpu_pmu_for_test())
		TEST_ASSERT_VAL("cycles <not supported>", !cyc->supported);
	/* msr has no cpumask: counted per thread as perf does (exclude_guest retried) */
	if (tsc)
		TEST_ASSERT_VAL("msr/tsc/", tsc->supported && tsc->counts[0].val > 0 &&
				!tsc->attr.exclude_guest);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(workload_died_before_start, "workload: releasing a dead child is EPIPE, not SIGPIPE")
{
	const char *argv[] = { "true", NULL };
	struct workload w;
	siginfo_t info;
	int err;

	TEST_ASSERT_EQUAL("prepare", workload__prepare(&w, argv), 0);
	kill(w.pid, SIGKILL);
	TEST_ASSERT_EQUAL("dead", waitid(P_PID, (id_t)w.pid, &info, WEXITED | WNOWAIT), 0);
	err = workload__start(&w);
	TEST_ASSERT_VAL("EPIPE or ECONNRESET", err == -EPIPE || err == -ECONNRESET);
	TEST_ASSERT_EQUAL("pid cleared", w.pid, -1);
	TEST_ASSERT_VAL("reaped", no_children_left());
	return TEST_OK;
}
