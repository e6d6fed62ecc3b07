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
#include "util/machine.h"
#include "util/synthesize.h"
#include "util/unwind.h"

#define REGS_MASK 0xff0fffULL	/* what record --call-graph dwarf samples */
#define NR_REGS 20

struct capture {
	u64 r[24];		/* by PERF_REG_X86_* number */
	u64 regs[NR_REGS];	/* in sample_regs_user order */
	u8 stack[8192];
	u64 size;
};

static volatile int sink;

/* The top of [stack], so the copy never reads past it. */
static u64 stack_end(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	u64 end = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a, b;

		if (strstr(line, "[stack]") && sscanf(line, "%llx-%llx", &a, &b) == 2)
			end = b;
	}
	if (f)
		fclose(f);
	return end;
}

/* Copying the raw stack reads ASan's redzones: not instrumented, no memcpy. */
__attribute__((noinline, no_sanitize_address)) static void capture_here(struct capture *c)
{
	u64 *r = c->r, end;
	int k = 0;

	asm volatile("mov %%rax, 0(%0)\n\tmov %%rbx, 8(%0)\n\tmov %%rcx, 16(%0)\n\t"
		     "mov %%rdx, 24(%0)\n\tmov %%rsi, 32(%0)\n\tmov %%rdi, 40(%0)\n\t"
		     "mov %%rbp, 48(%0)\n\tmov %%rsp, 56(%0)\n\t"
		     "lea 0(%%rip), %%rax\n\tmov %%rax, 64(%0)\n\t"
		     "mov %%r8, 128(%0)\n\tmov %%r9, 136(%0)\n\tmov %%r10, 144(%0)\n\t"
		     "mov %%r11, 152(%0)\n\tmov %%r12, 160(%0)\n\tmov %%r13, 168(%0)\n\t"
		     "mov %%r14, 176(%0)\n\tmov %%r15, 184(%0)\n\t"
		     : : "r"(r) : "rax", "memory");
	end = stack_end();
	c->size = end > r[7] && end - r[7] < sizeof(c->stack) ? (end - r[7]) & ~7ULL
							       : sizeof(c->stack);
	for (u64 i = 0; i < c->size / 8; i++)
		((u64 *)c->stack)[i] = ((const volatile u64 *)(uintptr_t)r[7])[i];
	for (int bit = 0; bit < 24; bit++)
		if (REGS_MASK & (1ULL << bit))
			c->regs[k++] = r[bit];
}

__attribute__((noinline)) static void sampled_caller(struct capture *c)
{
	capture_here(c);
	sink++;		/* not a tail call */
}

static int synth_cb(void *ctx, const union perf_event *ev, size_t size)
{
	struct perf_sample s = { 0 };

	(void)size;
	return machine__process_event(ctx, ev, &s);
}

struct fixture {
	struct machine m;
	struct thread *t;
	struct perf_event_attr attr;
	struct perf_sample s;
	struct capture c;
};

static int fixture_init(struct fixture *f, int unwinder)
{
	struct machine_opts o = { .unwinder = unwinder };
	struct synth sy = { .fn = synth_cb, .ctx = &f->m, .procfs = "/proc", .mmap_data = true };

	memset(f, 0, sizeof(*f));
	if (machine__init(&f->m, &o, NULL) || synthesize__thread(&sy, getpid(), false))
		return -1;
	f->t = machine__findnew_thread(&f->m, getpid(), getpid());
	sampled_caller(&f->c);
	f->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER |
			      PERF_SAMPLE_STACK_USER;
	f->attr.sample_regs_user = REGS_MASK;
	f->attr.sample_stack_user = 8192;
	f->s.pid = f->s.tid = getpid();
	f->s.ip = f->c.r[8];
	f->s.user_regs.abi = PERF_SAMPLE_REGS_ABI_64;
	f->s.user_regs.mask = REGS_MASK;
	f->s.user_regs.nr = NR_REGS;
	f->s.user_regs.regs = f->c.regs;
	f->s.user_stack.size = f->s.user_stack.dyn_size = f->c.size;
	f->s.user_stack.data = f->c.stack;
	return f->t ? 0 : -1;
}

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
	size_t n = 0, nfull;
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
	for (size_t i = 0; i < n; i++)
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
