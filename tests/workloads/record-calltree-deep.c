// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A deep and wide call tree for report tests: fa, fb, fc and fd call one
 * another 12 levels deep, two or three calls a level, each spinning a
 * different amount, so callchains branch at every level into many small
 * branches.  Built with -O0 -fno-omit-frame-pointer.  argv[1]: rounds
 * (default 1000, about half a second).
 */
#include <stdlib.h>

static volatile unsigned long sink;

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

void fa(int d, int k);
void fb(int d, int k);
void fc(int d, int k);
void fd(int d, int k);

void fa(int d, int k)
{
	spin(300 * (k % 5 + 1));
	if (d) {
		fb(d - 1, k * 3 + 1);
		fc(d - 1, k * 3 + 2);
	}
}

void fb(int d, int k)
{
	spin(200 * (k % 7 + 1));
	if (d) {
		fc(d - 1, k * 5 + 1);
		fd(d - 1, k + 3);
		if (k & 1)
			fa(d - 1, k + 7);
	}
}

void fc(int d, int k)
{
	spin(500 * (k % 3 + 1));
	if (d)
		fd(d - 1, k * 2 + 1);
	if (d > 1 && (k & 2))
		fa(d - 2, k + 1);
}

void fd(int d, int k)
{
	spin(100 * (k % 11 + 1));
	if (d) {
		fa(d - 1, k + 2);
		if (k % 3 == 0)
			fb(d - 1, k + 5);
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;

	for (int i = 0; i < rounds; i++)
		fa(12, i);
	return 0;
}
