/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the unwind backends (unwind-libdw.c, unwind-libunwind.c) share with
 * the common part (unwind.c): the sample being unwound, with its registers
 * and stack copy, memory reads that fall back to the mapped files, and the
 * frames pushed so far.  Not a public interface.
 */
#ifndef TPERF_UNWIND_INTERNAL_H
#define TPERF_UNWIND_INTERNAL_H

#include "util/unwind/unwind.h"

/* PERF_REG_X86_* numbers (the bit order of sample_regs_user). */
enum {
	UREG_AX, UREG_BX, UREG_CX, UREG_DX, UREG_SI, UREG_DI, UREG_BP, UREG_SP,
	UREG_IP, UREG_FLAGS, UREG_R8 = 16, UREG_R15 = 23, UREG_NR = 24,
};

/* The sample being unwound. */
struct unwind_ctx {
	struct unwinder *u;
	struct thread *thread;
	u64 regs[UREG_NR];		/* 0 where the sample gave none */
	u32 have;			/* bits of regs[] that the sample gave */
	const u8 *stack;		/* the copy; stack[0] is at address sp */
	u64 sp, stack_size;
	u64 stack_end;			/* offsets below it have 8 bytes in the copy, but the last 8 */
	bool truncated;			/* a read fell outside the copy and every file */
	bool last_word;			/* a read of the copy's last 8 bytes (perf reads 0 there) */
	u64 *pcs;
	bool *act;
	struct unwind_pc **slots;	/* a backend may set the cache slot of a frame's address */
	size_t nr, max;
	void *proc;			/* the backend's, for its callbacks */
	struct unwind_pc *pc_cache;	/* the unwinder's NR_PC_SLOTS (see unwind__pc()) */
};

struct unwind_backend {
	/* the per-process state, NULL on ENOMEM */
	void *(*proc_new)(struct unwinder *u, int pid);
	void (*proc_delete)(void *proc);
	/* push the frames of @c with unwind_ctx__push(); < 0 when it stopped on an error */
	int (*unwind)(void *proc, struct unwind_ctx *c);
	/* free the state shared by all processes (*unwind__shared()), may be NULL */
	void (*shared_delete)(void *shared);
};

extern const struct unwind_backend unwind_libdw_backend;
#ifdef HAVE_LIBUNWIND
extern const struct unwind_backend unwind_libunwind_backend;
#endif

/** unwind_ctx__reg - user register @reg (UREG_*) of the sample.  Return: false if absent */
static inline bool unwind_ctx__reg(const struct unwind_ctx *c, int reg, u64 *val)
{
	if (reg < 0 || reg >= UREG_NR || !(c->have & (1U << reg)))
		return false;
	*val = c->regs[reg];
	return true;
}

/** unwind_ctx__read_file - unwind_ctx__read() outside the stack copy */
int unwind_ctx__read_file(struct unwind_ctx *c, u64 addr, u64 *val);

/**
 * unwind_ctx__read - 8 bytes at @addr of the sampled process: from the stack
 * copy, else from the file mapped there.  Return: 0, or -EFAULT (the chain
 * is marked truncated).
 */
static inline int unwind_ctx__read(struct unwind_ctx *c, u64 addr, u64 *val)
{
	/* addr - sp wraps for an address below sp */
	if (addr - c->sp < c->stack_end) {
		__builtin_memcpy(val, c->stack + (addr - c->sp), 8);
		return 0;
	}
	return unwind_ctx__read_file(c, addr, val);
}

/** unwind_ctx__push - one more frame (@pc as the unwinder gives it).  Return: true when full */
static inline bool unwind_ctx__push(struct unwind_ctx *c, u64 pc, bool activation)
{
	if (c->nr < c->max) {
		c->pcs[c->nr] = pc;
		c->act[c->nr] = activation;
		c->slots[c->nr] = NULL;
		c->nr++;
	}
	return c->nr >= c->max;
}

/* A DSO's ELF file, mapped in memory once. */
struct unwind_file {
	const char *path;
	const u8 *data;
	size_t size;
	bool is_exec;			/* ET_EXEC: addresses are absolute */
	struct { u64 off, vaddr, filesz; } seg[16];	/* the PT_LOADs */
	int nr_seg;
	bool failed;
};

/**
 * unwind__file - the ELF file of @dso (symfs, build-id cache, vDSO) mapped
 * in memory, cached per DSO.  Return: NULL when there is none.
 */
struct unwind_file *unwind__file(struct unwinder *u, struct dso *dso);

/**
 * unwind_file__vaddr - the ELF virtual address of file offset @off.
 * Return: false when no PT_LOAD covers it.
 */
bool unwind_file__vaddr(const struct unwind_file *f, u64 off, u64 *vaddr);

/** unwind__find_map - the map of the sampled process at @addr, or NULL */
struct map *unwind__find_map(struct unwind_ctx *c, u64 addr);

/*
 * What is known about one address of a map set (one generation of a
 * process' maps: struct maps' gen), in a direct-mapped cache of the
 * unwinder: its map, the backend's datum for it (libdw: the CFI rule),
 * its symbol and inline expansion.  A slot is valid until the next
 * unwind__pc() call.
 */
struct unwind_pc {
	u64 gen;			/* 0: empty */
	u64 addr;
	struct map *map;		/* NULL: no map */
	const void *rule;		/* the backend's, NULL until it sets it */
	u64 proc_state;			/* the backend's, 0 until it sets it */
	struct symbol *sym;		/* with isyms: set when resolved */
	struct symbol **isyms;		/* the inline frames, innermost first */
	u32 nr_isyms;
	bool resolved;
	u8 perf_base;			/* unwind__perf_misbased(): 0 not known, 1 no, 2 yes */
};

/* unwind_pc slots of an unwinder */
#define PC_SLOT_BITS	11
#define NR_PC_SLOTS	(1U << PC_SLOT_BITS)

/** unwind__pc_fill - a new entry for @addr in slot @pc.  Return: @pc */
struct unwind_pc *unwind__pc_fill(struct unwind_ctx *c, struct unwind_pc *pc, u64 addr);

/**
 * unwind__pc - the cache slot of @addr in the sampled process' maps (its
 * map found when new).  Return: the slot, or NULL when the thread has no maps.
 */
static inline struct unwind_pc *unwind__pc(struct unwind_ctx *c, u64 addr)
{
	const struct maps *maps = c->thread->maps;
	struct unwind_pc *pc;
	u64 h;

	if (!maps)
		return NULL;
	h = (addr ^ maps->gen << 40) * 0x9e3779b97f4a7c15ULL;
	pc = &c->pc_cache[h >> (64 - PC_SLOT_BITS)];
	if (pc->gen == maps->gen && pc->addr == addr)
		return pc;
	return unwind__pc_fill(c, pc, addr);
}

/** unwind__map_bias - runtime address minus ELF vaddr for @map.  Return: false if unknown */
bool unwind__map_bias(struct unwinder *u, struct map *map, u64 *bias);

/**
 * unwind__perf_bias - the bias perf 6.1's libunwind glue takes for @map's
 * file: the lowest start of a map of the same DSO in the sampled thread's
 * maps, less the file's first PT_LOAD address (page-aligned).
 * Return: false if unknown
 */
bool unwind__perf_bias(struct unwind_ctx *c, struct map *map, u64 *bias);

/**
 * unwind__perf_misbased - whether perf's bias for @pc's map is not the
 * map's own (a map of the file left from before an exec lies lower), so
 * that perf's libunwind finds no CFI there; remembered in @pc.
 */
bool unwind__perf_misbased(struct unwind_ctx *c, struct unwind_pc *pc);

/**
 * unwind__room - make room in the array *@arr (*@alloc elements of @size
 * bytes, @nr used) for one more, doubling it (first @first).
 * Return: 0, or -ENOMEM (the array is left as it was).
 */
int unwind__room(void *arr, size_t *alloc, size_t nr, size_t size, size_t first);

/** unwind__shared - the backend's slot for state shared by all processes */
void **unwind__shared(struct unwinder *u);

typedef struct Dwfl_Module Dwfl_Module;
/**
 * unwind__dso_module - @dso's file as a libdw module of its own (not of a
 * process: addresses are ELF virtual addresses), with its separate debug
 * file when there is one; made once.  Return: NULL when there is no file.
 */
Dwfl_Module *unwind__dso_module(struct unwinder *u, struct dso *dso);

/**
 * unwind__dso_has_debug_frame - whether @dso's file or its debug file has
 * .debug_frame (looking costs a section list; loading it, libdw's whole
 * DWARF of the file).  Cached.
 */
bool unwind__dso_has_debug_frame(struct unwinder *u, struct dso *dso);

#endif
