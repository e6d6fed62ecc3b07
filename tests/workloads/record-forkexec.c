// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fork/exec storm: argv[1] children (default 50), each exec'ing this
 * program again with "child", which spins briefly in child_work.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

void child_work(void)
{
	for (unsigned long i = 0; i < 2000000; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50;

	if (argc > 1 && !strcmp(argv[1], "child")) {
		child_work();
		return 0;
	}
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "child", (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	return 0;
}
