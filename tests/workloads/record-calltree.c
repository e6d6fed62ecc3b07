// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A known call tree for tperf record tests: main -> run -> work_one,
 * work_two, work_four, whose work is in the ratio 1:2:4.  Built with
 * -O0 -fno-omit-frame-pointer.  argv[1]: rounds (default 200).
 */
#include <stdlib.h>

static volatile unsigned long sink;

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

void work_one(void)
{
	spin(100000);
}

void work_two(void)
{
	spin(200000);
}

void work_four(void)
{
	spin(400000);
}

void run(int rounds)
{
	for (int r = 0; r < rounds; r++) {
		work_one();
		work_two();
		work_four();
	}
}

int main(int argc, char **argv)
{
	run(argc > 1 ? atoi(argv[1]) : 200);
	return 0;
}
