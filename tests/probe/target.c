// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The program the probe tests put uprobes on (built by the shell tests at
 * -O0 and -O2 with -g): known arguments, a struct with a string and a
 * bitfield, a loop, an inlined function, a call into a shared library
 * (libtarget.so, from targetlib.c) and SDT markers without a semaphore
 * (here) and with one (targetsem.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>

struct item {
	int id;
	long weight;
	const char *name;
	unsigned int flag : 3;
	unsigned int kind : 5;
	char tag[8];
};

long counter = 7;

int lib_scale(int v);
int shout(const char *msg);	/* targetsem.c */

__attribute__((noinline)) int add(int a, int b)
{
	return a + b;
}

static inline int square(int v)
{
	return v * v;
}

__attribute__((noinline)) long visit(struct item *it, int n)
{
	long total = 0;

	for (int i = 0; i < n; i++)
		total += it[i].weight * it[i].id + square(it[i].kind);
	DTRACE_PROBE2(target, visited, n, total);
	return total;
}

int main(int argc, char **argv)
{
	struct item items[3] = {
		{ 1, 10, "one", 1, 2, "t1" },
		{ 2, 20, "two", 2, 3, "t2" },
		{ 3, 30, "three", 3, 4, "t3" },
	};
	int sum = 0;

	for (int i = 0; i < 5; i++) {
		sum = add(sum, i);
		DTRACE_PROBE1(target, loop, i);
	}
	sum += lib_scale(argc) + shout(argc > 5 ? "loud" : "quiet") + square(argc);
	printf("%d %ld %ld\n", sum, visit(items, 3), counter);
	if (argc > 1 && !strcmp(argv[1], "sleep"))	/* for the signal tests */
		sleep(3);
	return 0;
}
