// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two threads spinning in their own functions (thread_a, thread_b) while
 * main waits: tperf record follows threads created after the exec.
 * argv[1]: loop count per thread (default 50000000).
 */
#include <pthread.h>
#include <stdlib.h>

static volatile unsigned long sink_a, sink_b;
static unsigned long loops = 50000000;

void *thread_a(void *arg)
{
	for (unsigned long i = 0; i < loops; i++)
		sink_a += i;
	return arg;
}

void *thread_b(void *arg)
{
	for (unsigned long i = 0; i < loops; i++)
		sink_b += i;
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1)
		loops = strtoul(argv[1], NULL, 0);
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
