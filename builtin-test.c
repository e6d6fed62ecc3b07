// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf test: the built-in self tests.  Lists, selects (by number or by a
 * substring of the description or name) and runs each test in a forked
 * child, printing Ok, Skip (reason) or FAILED.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "tests/tests.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/parse-options.h"

extern const struct tperf_test __start_tperf_tests[], __stop_tperf_tests[];

#define SKIP_REASON_SIZE 256
static char *skip_reason;	/* shared with the child */

int test_skip(const char *fmt, ...)
{
	va_list ap;

	if (skip_reason) {
		va_start(ap, fmt);
		vsnprintf(skip_reason, SKIP_REASON_SIZE, fmt, ap);
		va_end(ap);
	}
	return TEST_SKIP;
}

int test_missing_fixture(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fixture missing: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (set TPERF_TEST_DATA to the source tree's tests/data)\n");
	return TEST_FAIL;
}

/* The source tree this binary was built from (the Makefile sets it). */
#ifndef TPERF_SRCDIR
#define TPERF_SRCDIR "."
#endif

const char *test_data_path(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("TPERF_TEST_DATA");

	if (dir && *dir)
		snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	else
		snprintf(buf, sizeof(buf), "%s/tests/data/%s", TPERF_SRCDIR, name);
	return buf;
}

static int cmp_tests(const void *a, const void *b)
{
	const struct tperf_test *const *x = a, *const *y = b;
	int r = strcmp((*x)->file, (*y)->file);

	return r ? r : (*x)->line - (*y)->line;
}

static int selected(int num, const struct tperf_test *t, int argc, const char **argv)
{
	if (!argc)
		return 1;
	for (int i = 0; i < argc; i++) {
		char *end;
		long n = strtol(argv[i], &end, 10);

		if (!*end && end != argv[i]) {
			if (n == num)
				return 1;
			continue;
		}
		if (strcasestr(t->desc, argv[i]) || strstr(t->name, argv[i]))
			return 1;
	}
	return 0;
}

/* Copy what a failed test printed (kept in @fd) to stderr, indented. */
static void show_output(int fd)
{
	char buf[4096];
	FILE *f;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	f = fdopen(dup(fd), "r");
	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f))
		fprintf(stderr, "    %s%s", buf, strchr(buf, '\n') ? "" : "\n");
	fclose(f);
}

static int run_one(const struct tperf_test *t, int timeout, bool fork_tests, int *outp)
{
	int status, out = -1, r;
	pid_t pid;

	skip_reason[0] = '\0';
	if (!fork_tests)
		return t->func();
	/* without -v, the child's output is kept and shown only on failure */
	if (tperf_config.verbose < 1)
		out = memfd_create("tperf-test-output", 0);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (!pid) {
		alarm(timeout);
		if (out >= 0) {
			dup2(out, STDOUT_FILENO);
			dup2(out, STDERR_FILENO);
		}
		r = t->func();
		fflush(NULL);
		_exit(r == TEST_OK ? 0 : r == TEST_SKIP ? 2 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFSIGNALED(status)) {
		dprintf(out >= 0 ? out : STDERR_FILENO, "test child killed by signal %d (%s)\n", WTERMSIG(status),
			WTERMSIG(status) == SIGALRM ? "timeout" : strsignal(WTERMSIG(status)));
		r = TEST_FAIL;
	} else {
		r = WEXITSTATUS(status) == 0 ? TEST_OK : WEXITSTATUS(status) == 2 ? TEST_SKIP :
									    TEST_FAIL;
	}
	*outp = out;
	return r;
}

int cmd_test(int argc, const char **argv)
{
	bool list = false, dont_fork = false;
	int timeout = 120, width = 0, n = 0, ok = 0, failed = 0, skipped = 0;
	const struct option options[] = {
		OPT_BOOLEAN('l', "list", &list, "list the tests"),
		OPT_INCR('v', "verbose", &tperf_config.verbose, "show the output of each test"),
		OPT_BOOLEAN('F', "dont-fork", &dont_fork, "run the tests in this process"),
		OPT_INTEGER(0, "timeout", &timeout, "seconds a test may run (default 120)"),
		OPT_END()
	};
	const char *const usage[] = { "tperf test [<options>] [{<number>|<substring>} ...]", NULL };
	const struct tperf_test **tests;
	size_t nr = (size_t)(__stop_tperf_tests - __start_tperf_tests);

	argc = parse_options(argc, argv, options, usage, 0);
	skip_reason = mmap(NULL, SKIP_REASON_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (skip_reason == MAP_FAILED) {
		ui__error("cannot map memory for the test runner");
		return 1;
	}
	tests = calloc(nr ? nr : 1, sizeof(*tests));
	if (!tests)
		return 1;
	for (size_t i = 0; i < nr; i++)
		tests[i] = &__start_tperf_tests[i];
	qsort(tests, nr, sizeof(*tests), cmp_tests);
	for (size_t i = 0; i < nr; i++) {
		int l = (int)strlen(tests[i]->desc);

		if (l > width)
			width = l;
	}

	for (size_t i = 0; i < nr; i++) {
		const struct tperf_test *t = tests[i];
		int num = (int)i + 1, r, out = -1;

		if (!selected(num, t, argc, argv))
			continue;
		n++;
		printf("%3d: %-*s :", num, width, t->desc);
		if (list) {
			printf(" %s\n", t->name);
			continue;
		}
		fflush(stdout);
		if (tperf_config.verbose)
			putchar('\n');
		r = run_one(t, timeout, !dont_fork, &out);
		switch (r) {
		case TEST_OK:
			printf(" Ok\n");
			ok++;
			break;
		case TEST_SKIP:
			printf(" Skip (%s)\n", skip_reason[0] ? skip_reason : "no reason given");
			skipped++;
			break;
		default:
			printf(" FAILED!\n");
			fflush(stdout);
			if (out >= 0)
				show_output(out);
			failed++;
		}
		if (out >= 0)
			close(out);
		fflush(stdout);
	}
	free(tests);
	if (!list && argc && !n) {
		ui__error("no test matches '%s'; see 'tperf test --list'", argv[0]);
		return 1;
	}
	return failed ? 1 : 0;
}
