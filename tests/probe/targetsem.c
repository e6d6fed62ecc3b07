// SPDX-License-Identifier: GPL-2.0-or-later
/* An SDT marker guarded by its semaphore, for the probe tests. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short target_sem_semaphore __attribute__((section(".probes")));

__attribute__((noinline)) int shout(const char *msg)
{
	if (target_sem_semaphore)
		DTRACE_PROBE1(target, sem, msg);
	return msg[0];
}
