// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A workload whose cost is set on its command line, for the stat diff
 * tests: it touches PAGES fresh pages of anonymous memory (one page fault
 * each: transparent huge pages are turned off for the mapping, so the
 * count does not depend on the machine) and spins LOOPS thousand rounds
 * of arithmetic (task-clock grows with it).  Usage: stat-work PAGES [LOOPS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long pages = argc > 1 ? atol(argv[1]) : 0;
	long loops = argc > 2 ? atol(argv[2]) : 0;
	long psize = sysconf(_SC_PAGESIZE);
	volatile unsigned long acc = 1;
	char *mem = NULL;

	if (argc < 2 || pages < 0 || loops < 0) {
		fprintf(stderr, "usage: stat-work PAGES [LOOPS]\n");
		return 2;
	}
	if (pages) {
		mem = mmap(NULL, pages * psize, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			perror("stat-work: mmap");
			return 1;
		}
		madvise(mem, pages * psize, MADV_NOHUGEPAGE);
		for (long i = 0; i < pages; i++)
			mem[i * psize] = 1;
	}
	for (long i = 0; i < loops * 1000; i++)
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
	if (mem)
		munmap(mem, pages * psize);
	return acc == 0;	/* never: keeps the loop */
}
