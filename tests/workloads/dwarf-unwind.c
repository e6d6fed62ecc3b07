// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A known call tree for the DWARF unwinding tests, built -O2
 * -fomit-frame-pointer -g with dwarf-unwind-lib.c as libdwarfspin.so:
 *   main -> level1 -> level2 -> level3 -> compute          (deep tree)
 *   main -> level1 -> level2 -> level3 -> lib_spin         (shared library)
 *   main -> recurse x5 -> compute                         (recursion)
 *   main -> site_a / site_b -> mix (inlined at both)       (inline frames)
 *   main -> big_frame -> compute    (8 KiB of stack; only with argv[2] "big")
 * Calls are never in tail position, so no frame is lost to sibling calls.
 * argv[1]: rounds (default 300); argv[2] "big": add the big_frame calls;
 * argv[3]: processes (default 1: the others are forked, not exec'ed).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile unsigned long sink;
int lib_spin(int n);

__attribute__((noinline)) int compute(int n)
{
	unsigned long s = 0;

	for (int i = 0; i < n * 20000; i++)
		s += (unsigned long)i * i ^ sink;
	sink = s;
	return (int)(s & 7);
}

__attribute__((noinline)) int level3(int n)
{
	int r = compute(n);

	r += lib_spin(n);
	sink += r;
	return r + 1;
}

__attribute__((noinline)) int level2(int n)
{
	int r = level3(n);

	sink += r;
	return r + 2;
}

__attribute__((noinline)) int level1(int n)
{
	int r = level2(n);

	sink += r;
	return r + 3;
}

static int (*volatile recurse_fp)(int, int);

__attribute__((noinline)) int recurse(int depth, int n)
{
	int r = depth ? recurse_fp(depth - 1, n) : compute(n);

	sink += r;
	return r + depth;
}

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x, int n)
{
	for (int i = 0; i < n * 20000; i++)
		x = x * 6364136223846793005UL + (unsigned long)i + sink;
	return x;
}

__attribute__((noinline)) int site_a(int n)
{
	unsigned long x = mix(1, n);

	sink += x;
	return (int)(x & 3);
}

__attribute__((noinline)) int site_b(int n)
{
	unsigned long x = mix(2, n);

	sink += x;
	return (int)(x & 5);
}

__attribute__((noinline)) int big_frame(int n)
{
	volatile char buf[8192];
	int r;

	buf[0] = (char)n;
	buf[sizeof(buf) - 1] = (char)n;
	r = compute(n);
	return r + buf[0] + buf[sizeof(buf) - 1];
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 300;
	int big = argc > 2 && !strcmp(argv[2], "big");
	int procs = argc > 3 ? atoi(argv[3]) : 1;
	int r = 0;

	for (int p = 1; p < procs; p++)
		if (fork() == 0)
			break;

	recurse_fp = recurse;
	for (int i = 0; i < rounds; i++) {
		r += level1(20);
		r += recurse(5, 10);
		r += site_a(10);
		r += site_b(10);
		if (big)
			r += big_frame(10);
	}
	sink += r;
	while (wait(NULL) > 0)
		;
	return 0;
}
