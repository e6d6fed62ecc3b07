// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: DWARF unwinding of a corrupted sample.  The fuzzer's
 * process samples itself once (tests/unwind-self.h: registers, a stack
 * copy, its maps from /proc), then every input is laid over that sample:
 *
 *   byte 0      bit 0: the libunwind backend (when built with it), else
 *               libdw; bit 1: no inline frames; bit 2: replace the
 *               registers and stack instead of XORing onto them
 *   bytes 1-2   the stack copy's size, in 8-byte words (little endian),
 *               at most the captured size; 0xffff: the captured size
 *   bytes 3-162 the 20 user registers (sample_regs_user order)
 *   the rest    the stack copy
 *
 * An all-zero input is the true sample, so mutations start from a chain
 * that unwinds.  Unwinders (and their per-process and per-DSO caches)
 * live across inputs, as in a report.  Every chain must end cleanly within
 * max_stack frames, whatever the bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unwind-self.h"

#define MAX_STACK 127

static struct fixture *fixtures[4];
static volatile size_t touched;	/* by the input's backend and inline bits */

static struct fixture *fixture_of(unsigned int which)
{
	struct fixture *f = fixtures[which];

	if (f)
		return f;
	f = calloc(1, sizeof(*f));
	if (!f || fixture_init(f, which & 1 ? UNWINDER_LIBUNWIND : UNWINDER_LIBDW))
		abort();
	f->m.o.no_inline = which & 2;
	return fixtures[which] = f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u8 stack[sizeof(((struct capture *)0)->stack)];
	static u64 regs[NR_REGS];
	const struct unwind_entry *e;
	unsigned int which;
	struct fixture *f;
	bool replace;
	size_t n = 0, words;

	if (size < 3)
		return 0;
	which = data[0] & 3;
	if ((which & 1) && !unwinder__available(UNWINDER_LIBUNWIND))
		which &= ~1u;
	replace = data[0] & 4;
	f = fixture_of(which);
	words = data[1] | (size_t)data[2] << 8;
	if (words == 0xffff || words > f->c.size / 8)
		words = f->c.size / 8;
	data += 3;
	size -= 3;
	memcpy(regs, f->c.regs, sizeof(regs));
	memcpy(stack, f->c.stack, f->c.size);
	for (size_t i = 0; i < sizeof(regs) && i < size; i++)
		((u8 *)regs)[i] = replace ? data[i] : ((u8 *)regs)[i] ^ data[i];
	if (size > sizeof(regs)) {
		data += sizeof(regs);
		size -= sizeof(regs);
		for (size_t i = 0; i < f->c.size && i < size; i++)
			stack[i] = replace ? data[i] : stack[i] ^ data[i];
	}
	f->s.user_regs.regs = regs;
	f->s.user_stack.data = stack;
	f->s.user_stack.size = f->s.user_stack.dyn_size = words * 8;
	if (machine__unwind(&f->m, f->t, &f->attr, &f->s, MAX_STACK, &e, &n) || n > MAX_STACK)
		abort();
	/* the true sample (nothing laid over it) must unwind, or this tests nothing */
	if (!replace && words == f->c.size / 8 && !memcmp(regs, f->c.regs, sizeof(regs)) &&
	    !memcmp(stack, f->c.stack, f->c.size) &&
	    (n < 2 || !e[1].sym || strcmp(e[1].sym->name, "sampled_caller")))
		abort();
	for (size_t i = 0; i < n; i++) {	/* ASan: every frame points at live data */
		if (e[i].sym)
			touched += strlen(e[i].sym->name);
		if (e[i].map)
			touched += e[i].map->start;
	}
	return 0;
}
