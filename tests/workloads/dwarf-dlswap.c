// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dwarf-dlswap DIR ROUNDS N: dlopen DIR/libdlswapa.so, spin N iterations
 * in it, dlclose it, then the same with DIR/libdlswapb.so, ROUNDS times:
 * the second library is mapped where the first one was, so the frames
 * of one address belong to one library, then to the other (a test of
 * what report and script cache per address).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	char path[4096];
	int rounds;
	unsigned long n;

	if (argc != 4) {
		fprintf(stderr, "usage: dwarf-dlswap DIR ROUNDS N\n");
		return 2;
	}
	rounds = atoi(argv[2]);
	n = strtoul(argv[3], NULL, 0);
	for (int r = 0; r < rounds; r++) {
		unsigned long (*spin)(unsigned long);
		void *h;

		snprintf(path, sizeof(path), "%s/libdlswap%c.so", argv[1], r % 2 ? 'b' : 'a');
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			fprintf(stderr, "dwarf-dlswap: %s\n", dlerror());
			return 1;
		}
		spin = (unsigned long (*)(unsigned long))dlsym(h, "swap_spin");
		if (!spin) {
			fprintf(stderr, "dwarf-dlswap: %s\n", dlerror());
			return 1;
		}
		spin(n);
		dlclose(h);
	}
	return 0;
}
