// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * This process's effective capabilities (cap.h), from capget(2) (no
 * libcap: two words of bits are all that is asked).
 */
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/lib/cap.h"

/**
 * cap__effective - see util/lib/cap.h
 */
bool cap__effective(int cap)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

	if (cap < 0 || cap >= 32 * _LINUX_CAPABILITY_U32S_3 || syscall(SYS_capget, &head, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

/**
 * cap__perfmon - see util/lib/cap.h
 */
bool cap__perfmon(void)
{
	return cap__effective(CAP_PERFMON) || cap__effective(CAP_SYS_ADMIN);
}
