// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for util/unwind: the test process samples itself (its
 * registers and a copy of its stack, its maps synthesized from /proc), so
 * the unwinders run on real CFI; then truncated copies and bit-flipped
 * stacks and registers must end chains cleanly (the ASan build runs these).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tests.h"
#include "tests/unwind-self.h"

static const char *name_of(const struct unwind_entry *e)
{
	return e->sym ? e->sym->name : "[unknown]";
}

static int unwind_self(int unwinder)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const struct unwind_entry *e;
	size_t n = 0;

	TEST_ASSERT_VAL("fixture", f && !fixture_init(f, unwinder));
	TEST_ASSERT_EQUAL("unwind", machine__unwind(&f->m, f->t, &f->attr, &f->s, 127, &e, &n), 0);
	TEST_ASSERT_VAL("at least the two test frames and their caller", n >= 3);
	TEST_ASSERT_STR("frame 0", name_of(&e[0]), "capture_here");
	TEST_ASSERT_STR("frame 1", name_of(&e[1]), "sampled_caller");
	TEST_ASSERT_EQUAL("frame 0 is the IP", e[0].ip, f->c.r[8]);
	machine__exit(&f->m);
	free(f);
	return 0;
}

static int test_unwind_libdw(void)
{
	return unwind_self(UNWINDER_LIBDW);
}
TPERF_TEST(test_unwind_libdw, "unwind: libdw unwinds the test's own stack");

static int test_unwind_libunwind(void)
{
	if (!unwinder__available(UNWINDER_LIBUNWIND))
		return test_skip("built without libunwind");
	return unwind_self(UNWINDER_LIBUNWIND);
}
TPERF_TEST(test_unwind_libunwind, "unwind: libunwind unwinds the test's own stack");

static int test_unwind_same(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const struct unwind_entry *e;
	struct unwind_entry a[127];
	struct unwinder *u;
	size_t n = 0, na;

	if (!unwinder__available(UNWINDER_LIBUNWIND))
		return test_skip("built without libunwind");
	TEST_ASSERT_VAL("fixture", f && !fixture_init(f, UNWINDER_LIBDW));
	TEST_ASSERT_EQUAL("libdw", machine__unwind(&f->m, f->t, &f->attr, &f->s, 127, &e, &na), 0);
	memcpy(a, e, na * sizeof(*e));
	u = unwinder__new(&f->m, UNWINDER_LIBUNWIND, true);
	TEST_ASSERT_VAL("libunwind", u);
	TEST_ASSERT_EQUAL("libunwind", unwinder__sample(u, f->t, &f->attr, &f->s, 127, &e, &n), 0);
	TEST_ASSERT_EQUAL("as many frames", n, na);
	for (size_t i = 0; i < n; i++) {
		TEST_ASSERT_EQUAL("same address", e[i].ip, a[i].ip);
		TEST_ASSERT_STR("same symbol", name_of(&e[i]), name_of(&a[i]));
	}
	unwinder__delete(u);
	machine__exit(&f->m);
	free(f);
	return 0;
}
TPERF_TEST(test_unwind_same, "unwind: libdw and libunwind give the same frames");

static int test_unwind_truncated(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const struct unwind_entry *e;
	struct unwind_entry full[127];
	size_t n = 0, m, nfull;
	const struct unwind_stats *st;
	u64 before;

	TEST_ASSERT_VAL("fixture", f && !fixture_init(f, UNWINDER_LIBDW));
	TEST_ASSERT_EQUAL("full", machine__unwind(&f->m, f->t, &f->attr, &f->s, 127, &e, &nfull),
			  0);
	memcpy(full, e, nfull * sizeof(*e));
	st = unwinder__stats(f->m.unwinder);
	before = st->truncated;
	f->s.user_stack.size = f->s.user_stack.dyn_size = 32;
	TEST_ASSERT_EQUAL("short", machine__unwind(&f->m, f->t, &f->attr, &f->s, 127, &e, &n), 0);
	TEST_ASSERT_VAL("fewer frames", n >= 1 && n < nfull);
	m = n;
	/*
	 * With libunwind, as perf: the stack is mapped past the copy, perf's
	 * glue reads 0 there, and the chain ends on a return address 0 (-1
	 * once taken back to its call).
	 */
	if (unwinder__available(UNWINDER_LIBUNWIND)) {
		TEST_ASSERT_VAL("two frames at least", n >= 2);
		TEST_ASSERT_EQUAL("perf's frame at address 0", e[--m].ip, (u64)-1);
	}
	for (size_t i = 0; i < m; i++)
		TEST_ASSERT_EQUAL("a prefix of the full chain", e[i].ip, full[i].ip);
	TEST_ASSERT_EQUAL("counted as truncated", st->truncated, before + 1);
	f->s.user_stack.size = 0;
	TEST_ASSERT_EQUAL("no copy", machine__unwind(&f->m, f->t, &f->attr, &f->s, 127, &e, &n), 0);
	TEST_ASSERT_EQUAL("no copy, no frames", n, 0);
	machine__exit(&f->m);
	free(f);
	return 0;
}
TPERF_TEST(test_unwind_truncated, "unwind: a short stack copy ends the chain, counted");

/* Bit flips in the stack copy and the registers: every chain ends cleanly. */
static int fuzz(int unwinder)
{
	struct fixture *f = calloc(1, sizeof(*f));
	static u8 stack[8192];
	u64 regs[NR_REGS];
	unsigned int seed = 12345;

	TEST_ASSERT_VAL("fixture", f && !fixture_init(f, unwinder));
	f->s.user_stack.data = stack;
	f->s.user_regs.regs = regs;
	for (int i = 0; i < 3000; i++) {
		const struct unwind_entry *e;
		size_t n = 0;

		memcpy(stack, f->c.stack, f->c.size);
		memcpy(regs, f->c.regs, sizeof(regs));
		for (int k = rand_r(&seed) % 16; k >= 0; k--) {
			u32 bit = rand_r(&seed) % (f->c.size * 8);

			stack[bit / 8] ^= 1 << (bit % 8);
		}
		if (i % 3 == 0)
			regs[rand_r(&seed) % NR_REGS] ^= 1ULL << (rand_r(&seed) % 64);
		if (i % 7 == 0)
			regs[rand_r(&seed) % NR_REGS] = ((u64)rand_r(&seed) << 32) | rand_r(&seed);
		f->s.user_stack.size = f->s.user_stack.dyn_size =
			i % 5 == 0 ? (u64)(rand_r(&seed) % (f->c.size / 8)) * 8 : f->c.size;
		TEST_ASSERT_EQUAL("unwind", machine__unwind(&f->m, f->t, &f->attr, &f->s, 127,
							    &e, &n), 0);
		TEST_ASSERT_VAL("at most max_stack frames", n <= 127);
	}
	machine__exit(&f->m);
	free(f);
	return 0;
}

static int test_unwind_fuzz_libdw(void)
{
	return fuzz(UNWINDER_LIBDW);
}
TPERF_TEST(test_unwind_fuzz_libdw, "unwind: corrupted stacks and registers stop cleanly (libdw)");

static int test_unwind_fuzz_libdw_slow(void)
{
	setenv("TPERF_UNWIND_SLOW", "1", 1);	/* a forked child: only this test */
	return fuzz(UNWINDER_LIBDW);
}
TPERF_TEST(test_unwind_fuzz_libdw_slow,
	   "unwind: corrupted stacks and registers stop cleanly (libdw, no rule cache)");

static int test_unwind_fuzz_libunwind(void)
{
	if (!unwinder__available(UNWINDER_LIBUNWIND))
		return test_skip("built without libunwind");
	return fuzz(UNWINDER_LIBUNWIND);
}
TPERF_TEST(test_unwind_fuzz_libunwind,
	   "unwind: corrupted stacks and registers stop cleanly (libunwind)");
