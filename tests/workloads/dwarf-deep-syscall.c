// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A user stack deeper than perf's 127 frames under kernel frames, for
 * DWARF unwinding tests: main -> rec, DEPTH times, each call made from an
 * always-inline helper (an inline frame in every frame) -> leaf, which
 * writes to /dev/null (samples in the kernel's system call path) and
 * spins.  Built -O2 -g by the tests.  argv[1]: rounds (default 1000),
 * argv[2]: depth (default 150).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;
static int fd;

__attribute__((noinline)) void leaf(void)
{
	char buf[64] = { 0 };

	for (int i = 0; i < 100; i++)
		sink += (unsigned long)write(fd, buf, sizeof(buf));
	for (int i = 0; i < 20000; i++)
		sink += (unsigned long)i;
}

void rec(int depth);

static inline __attribute__((always_inline)) void step(int depth)
{
	if (depth)
		rec(depth - 1);
	else
		leaf();
	sink++;
}

__attribute__((noinline)) void rec(int depth)
{
	step(depth);
	__asm__ volatile("" ::: "memory");	/* no tail call: a frame a level */
	sink++;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	int depth = argc > 2 ? atoi(argv[2]) : 150;

	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return 1;
	for (int i = 0; i < rounds; i++)
		rec(depth);
	return 0;
}
