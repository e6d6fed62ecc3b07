// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exec-time: run a command N times (stdout and stderr to /dev/null) and
 * print the median, minimum and mean wall-clock time of one run, in
 * microseconds: "median_us min_us mean_us".  With a second command after
 * "---", the two run alternately (so drifts in machine load hit both
 * alike) and a second line gives the second command's times.
 *
 * Usage: exec-time N command [args...] [--- command2 [args...]]
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Run @argv once; its wall-clock time in microseconds, or -1. */
static double run_once(char **argv, const posix_spawn_file_actions_t *fa)
{
	double start = now_us();
	int status;
	pid_t pid;

	if (posix_spawnp(&pid, argv[0], fa, NULL, argv, environ)) {
		fprintf(stderr, "exec-time: cannot run '%s'\n", argv[0]);
		return -1;
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "exec-time: '%s' failed\n", argv[0]);
		return -1;
	}
	return now_us() - start;
}

static void report(double *t, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += t[i];
	qsort(t, n, sizeof(*t), cmp_double);
	printf("%.0f %.0f %.0f\n", n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, t[0],
	       sum / n);
}

int main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	char **cmd[2] = { argv + 2, NULL };
	double *t[2];
	int n, ncmd = 1;

	if (argc < 3 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: exec-time N command [args...] [--- command2 [args...]]\n");
		return 129;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "---") && i + 1 < argc) {
			argv[i] = NULL;
			cmd[1] = argv + i + 1;
			ncmd = 2;
			break;
		}
	}
	t[0] = calloc(n, sizeof(double));
	t[1] = calloc(n, sizeof(double));
	if (!t[0] || !t[1])
		return 1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < ncmd; c++) {
			t[c][i] = run_once(cmd[c], &fa);
			if (t[c][i] < 0)
				return 1;
		}
	}
	for (int c = 0; c < ncmd; c++)
		report(t[c], n);
	free(t[0]);
	free(t[1]);
	return 0;
}
