// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A unit whose code starts in a file it #includes (as glibc's
 * dl-get-cpu-features.c includes dl-cacheinfo.h), for the source lines
 * addr2line gives such code.  Built with -O0 -g.  argv[1]: rounds.
 */
#include <stdlib.h>

#include "srcline-include-spin.h"

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;

	for (unsigned long r = 0; r < rounds; r++)
		spin(1000000);
	return 0;
}
