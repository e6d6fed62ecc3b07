// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A context-switch-heavy workload: two processes pinned to CPU 0 pass one
 * byte back and forth over two pipes for SECONDS (default 1), so every
 * round trip is two sched_switch and two sched_wakeup events.  Prints the
 * number of round trips on stderr.  Usage: pingpong [SECONDS]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void echo_loop(int in, int out)
{
	char c;

	while (read(in, &c, 1) == 1)
		if (write(out, &c, 1) != 1)
			break;
	_exit(0);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, end;
	int a[2], b[2];
	unsigned long n = 0;
	cpu_set_t set;
	char c = 'x';
	pid_t pid;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (pipe(a) || pipe(b)) {
		perror("pingpong: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		echo_loop(a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	for (end = now() + secs; now() < end; n++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			break;
	close(a[1]);
	waitpid(pid, NULL, 0);
	fprintf(stderr, "pingpong: %lu round trips\n", n);
	return 0;
}
