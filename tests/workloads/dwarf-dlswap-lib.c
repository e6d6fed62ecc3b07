// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The two shared libraries of dwarf-dlswap.c, built from this file twice:
 * libdlswapa.so, and libdlswapb.so with -DSWAP_B: the same code at the
 * same addresses for inner (named b_inner there for a_inner), then an
 * outer with a larger stack frame (other CFI, other addresses after it).
 * Both export swap_spin().
 */
#ifdef SWAP_B
#define NAME(x) b_##x
#else
#define NAME(x) a_##x
#endif

volatile unsigned long swap_sink;

__attribute__((noinline)) static unsigned long NAME(inner)(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s = s * 31 + i + swap_sink;
	swap_sink = s;
	return s & 1;
}

__attribute__((noinline)) static unsigned long NAME(outer)(unsigned long n)
{
#ifdef SWAP_B
	volatile unsigned long pad[32] = { n, n + 1, n + 2, n + 3 };	/* another frame */
#else
	volatile unsigned long pad[4] = { n, n + 1, n + 2, n + 3 };
#endif

	return NAME(inner)(pad[0]) + pad[3];
}

unsigned long swap_spin(unsigned long n)
{
	return NAME(outer)(n) + 1;
}
