// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Count events for a command with libtperf, the way `tperf stat` does at
 * its core: examples/count 'task-clock,page-faults' ls -l
 * It includes only the public header and links libtperf.a.  Built and run
 * by tests/shell/t0002-libtperf-example.sh; shown in Documentation/libtperf.md.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>

#include <tperf/tperf.h>

int main(int argc, const char **argv)
{
	struct tperf_counter *counter;
	char msg[1024];
	int status, i;

	if (argc < 3) {
		fprintf(stderr, "usage: count EVENTS COMMAND [ARGS]\n");
		return 129;
	}
	counter = tperf_counter__new(argv[1], msg, sizeof(msg));
	if (!counter) {
		fprintf(stderr, "%s\n", msg);
		return 129;
	}
	if (tperf_counter__run(counter, argv + 2, &status, msg, sizeof(msg))) {
		fprintf(stderr, "count: %s\n", msg);
		tperf_counter__delete(counter);
		return 1;
	}
	for (i = 0; i < tperf_counter__nr_events(counter); i++) {
		uint64_t val;

		if (tperf_counter__value(counter, i, &val) == -EOPNOTSUPP)
			printf("%s: not supported\n", tperf_counter__name(counter, i));
		else
			printf("%s: %llu\n", tperf_counter__name(counter, i),
			       (unsigned long long)val);
	}
	tperf_counter__delete(counter);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
