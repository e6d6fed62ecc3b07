// SPDX-License-Identifier: GPL-2.0-or-later
/* A function GCC splits at -O2 (bag_free and bag_free.part.0), also inlined. */
#include <stdlib.h>
#include <sys/mman.h>

struct job {
	void *dst;
	size_t len;
};

struct bag {
	struct job *jobs;
	int nr;
};

void bag_free(struct bag *in)
{
	if (!in)
		return;
	for (int i = 0; i < in->nr; i++)
		if (in->jobs[i].dst)
			munmap(in->jobs[i].dst, in->jobs[i].len);
	free(in->jobs);
	free(in);
}

int bag_use(struct bag *in, int x)
{
	if (x > 3) {
		bag_free(in);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	return bag_use(calloc(1, sizeof(struct bag)), argc);
}
