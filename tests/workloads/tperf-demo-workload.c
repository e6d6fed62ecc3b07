// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf-demo-workload: a CPU-bound program with a known call tree, for the
 * demo and for record/report tests.  Built with -O0 -fno-omit-frame-pointer
 * so every function below keeps its frame:
 *
 *	main -> run -> parent -> child_a -> spin   (2 of every 3 rounds)
 *	                      -> child_b -> spin   (1 of every 3 rounds)
 *
 * Each round of spin() is the same work, so child_a gets about two thirds of
 * the samples and child_b one third.
 *
 * Usage: tperf-demo-workload [SECONDS]   (default 0.5; runs for that long)
 *        tperf-demo-workload -n ROUNDS   (a fixed amount of work)
 * Prints "rounds N" when done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SPIN_LOOPS 100000

static volatile unsigned long sink;

static void spin(void)
{
	for (unsigned long i = 0; i < SPIN_LOOPS; i++)
		sink += i ^ (sink >> 3);
}

static void child_a(void)
{
	spin();
}

static void child_b(void)
{
	spin();
}

static void parent(unsigned long round)
{
	if (round % 3 == 2)
		child_b();
	else
		child_a();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run rounds until @max_rounds (if non-zero) or @seconds have passed. */
static unsigned long run(unsigned long max_rounds, double seconds)
{
	double end = now() + seconds;
	unsigned long round = 0;

	while (max_rounds ? round < max_rounds : now() < end)
		parent(round++);
	return round;
}

int main(int argc, char **argv)
{
	unsigned long rounds = 0;
	double seconds = 0.5;
	char *end;

	if (argc == 3 && !strcmp(argv[1], "-n")) {
		rounds = strtoul(argv[2], &end, 0);
		if (*end || !rounds) {
			fprintf(stderr, "tperf-demo-workload: bad round count '%s'\n", argv[2]);
			return 129;
		}
	} else if (argc == 2) {
		seconds = strtod(argv[1], &end);
		if (*end || seconds < 0 || seconds > 3600) {
			fprintf(stderr, "tperf-demo-workload: bad duration '%s' (seconds, at most 3600)\n",
				argv[1]);
			return 129;
		}
	} else if (argc != 1) {
		fprintf(stderr, "usage: tperf-demo-workload [SECONDS] | -n ROUNDS\n");
		return 129;
	}
	printf("rounds %lu\n", run(rounds, seconds));
	return 0;
}
