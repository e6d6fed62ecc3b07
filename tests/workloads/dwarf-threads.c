// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF callchains of threads at -O2 (t0650): four threads (clone3, an
 * assembly function with aliased DIEs), qsort with GCC's nested compare
 * function (outside its parent's range), memcpy/memmove aliases and an
 * inline square in a loop.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;
static int rounds = 100;

static inline double sq(double x)
{
	return x * x;
}

__attribute__((noinline)) static double work(int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += sq(i * 0.5);
	return s;
}

__attribute__((noinline)) static double sorter(int n)
{
	int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
	int cmp(const void *x, const void *y)
	{
		return *(const int *)x - *(const int *)y;
	}
	double r;

	for (int i = 0; i < n; i++)
		a[i] = rand() % 100000;
	memcpy(b, a, n * sizeof(int));
	qsort(b, n, sizeof(int), cmp);
	r = b[0];
	free(a);
	free(b);
	return r;
}

__attribute__((noinline)) static void *thread(void *arg)
{
	long id = (long)arg;

	for (int r = 0; r < rounds; r++) {
		char buf[64];

		sink += work(20000 + id * 1000);
		sink += sorter(2000);
		snprintf(buf, sizeof(buf), "%ld", id * r);
		sink += strlen(buf);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[3];

	if (argc > 1)
		rounds = atoi(argv[1]);
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, thread, (void *)i);
	thread((void *)3);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
