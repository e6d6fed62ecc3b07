/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DWARF unwinding of the user stack copies of `record --call-graph dwarf`
 * samples (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER): one interface,
 * two backends (libdw, the default, and libunwind when built with it).
 *
 * An unwinder belongs to one machine and keeps, across samples, what is
 * costly to build: per process the backend's address space (libdw: a Dwfl
 * with the process' modules reported once; libunwind: an unw_addr_space
 * with its caches), per DSO the CFI and the inline-scope lookups.  The
 * frames come callee first, the first one the sample's IP, the others the
 * return address minus one (as perf reports them: inside the call).  With
 * inline frames on, a frame whose address lies in inlined code becomes the
 * inlined functions, innermost first, then the function they are in.
 */
#ifndef TPERF_UNWIND_H
#define TPERF_UNWIND_H

#include <stdbool.h>

#include "util/model/machine.h"

enum unwinder_kind {
	UNWINDER_LIBDW,
	UNWINDER_LIBUNWIND,
};

/* One user frame of an unwound sample. */
struct unwind_entry {
	u64 ip;				/* address as perf reports it */
	struct map *map;		/* NULL: no map */
	struct symbol *sym;		/* may be an inline symbol (sym->inlined) */
	u8 inl;				/* the frames of an address: 0 the innermost */
};

struct unwind_stats {
	u64 samples;			/* samples with a stack copy and registers */
	u64 unwound;			/* of them, the chains with at least one frame */
	u64 truncated;			/* chains that needed memory outside the copy */
	u64 failed;			/* chains that stopped on a CFI or register error */
};

struct unwinder;


/**
 * unwinder__option - the --unwinder option's value @name (NULL: libdw) to
 * @kind.  Return: 0, or -EINVAL with the message in @msg for an unknown
 * unwinder or one not built in.
 */
int unwinder__option(const char *name, int *kind, char *msg, size_t size);

/** unwinder__available - whether @kind was compiled in */
bool unwinder__available(enum unwinder_kind kind);


/**
 * unwinder__new - an unwinder for the samples of @m
 * @inline_frames: expand inlined functions into their own entries
 * Return: the unwinder, or NULL (ENOMEM or @kind not compiled in).
 */
struct unwinder *unwinder__new(struct machine *m, enum unwinder_kind kind, bool inline_frames);

/**
 * machine__unwind - the user frames of a DWARF sample (see unwinder__sample()),
 * with @m's unwinder, made on first use from o.unwinder and o.no_inline and
 * freed by machine__exit().  Return: 0, or -ENOMEM (also when the chosen
 * unwinder is not compiled in).
 */
int machine__unwind(struct machine *m, struct thread *t, const struct perf_event_attr *attr,
		    const struct perf_sample *s, int max_stack,
		    const struct unwind_entry **entries, size_t *nr);

/** unwinder__delete - free @u and every cached address space (NULL is fine) */
void unwinder__delete(struct unwinder *u);

/**
 * unwinder__has_stack - whether samples of @attr carry what unwinding needs
 */
bool unwinder__has_stack(const struct perf_event_attr *attr);

/**
 * unwinder__sample - the user frames of @s, callee first
 * @t: the sample's thread (its maps give the modules)
 * @attr: the sample's attr (sample_regs_user gives the register layout)
 * @max_stack: at most this many frames, as perf counts them: the unwound
 *	frames (a frame at address 0 gives no entry but counts), not the
 *	inline frames an address expands into
 * @entries: set to an array owned by @u, valid until the next call
 * @nr: set to its length (0: nothing could be unwound, as perf gives)
 *
 * A chain that needs memory outside the stack copy ends at the last
 * frame found and is counted as truncated in unwinder__stats().
 * Return: 0 or -ENOMEM.
 */
int unwinder__sample(struct unwinder *u, struct thread *t, const struct perf_event_attr *attr,
		     const struct perf_sample *s, int max_stack,
		     const struct unwind_entry **entries, size_t *nr);

/**
 * unwinder__hint - when more than 5% of the chains were cut short at the
 * end of their stack copy, a one-line hint to record a larger one in @buf.
 * Return: whether there is one.
 */
bool unwinder__hint(const struct unwinder *u, char *buf, size_t size);

/** unwinder__stats - what @u did so far */
const struct unwind_stats *unwinder__stats(const struct unwinder *u);

#endif
