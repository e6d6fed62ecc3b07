/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A DWARF sample of the calling process itself, for the unwind unit tests
 * (tests/unwind.c) and the unwind fuzz target (tests/fuzz/fuzz-unwind.c):
 * its registers and a copy of its stack, and a machine whose maps are
 * synthesized from /proc, so the unwinders run on real CFI.
 */
#ifndef TPERF_TESTS_UNWIND_SELF_H
#define TPERF_TESTS_UNWIND_SELF_H

#include <stdio.h>
#include <string.h>

#include "util/model/machine.h"
#include "util/perf-data/synthesize.h"
#include "util/unwind/unwind.h"

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

#endif
