/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbols of a DSO: loaded from ELF (.symtab, else .dynsym, plus "name@plt"
 * entries synthesized from the PLT relocations) or from a kallsyms file.
 * Addresses are DSO-relative the way perf keeps them: file offsets for
 * user DSOs, absolute addresses for the kernel.  Symbols with the same start
 * are reduced to one (the best name, as perf chooses it) and zero-size
 * symbols extend to the next symbol.
 */
#ifndef TPERF_SYMBOL_H
#define TPERF_SYMBOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/perf-data/event.h"

struct symbol {
	u64 start, end;			/* [start, end) */
	u8 binding, type;		/* STB_*, STT_* */
	u16 namelen;
	u8 inlined;			/* an inlined function's frame (util/unwind/unwind.c) */
	u8 flags;			/* SYMBOL_* */
	char name[];
};

#define SYMBOL_CHUNK	0x01	/* carved from a symtab's chunks: not free()d alone */
#define SYMBOL_KMODULE	0x02	/* a kallsyms module entry: "name\t[module]" */

struct symbol_chunk;

struct symtab_tree;

/* A sorted set of symbols. */
struct symtab {
	struct symbol **syms;
	size_t nr, alloc;
	bool sorted;
	struct symbol_chunk *chunks;	/* the memory of SYMBOL_CHUNK symbols, freed with it */
	struct symtab_tree *tree;	/* perf's tree of them where they overlap (see
					   symtab__load_elf()), or NULL */
};

/** symbol__new - a symbol of @len bytes at @start (0 length: to be fixed up) */
struct symbol *symbol__new(u64 start, u64 len, u8 binding, u8 type, const char *name);

/** symtab__add - take ownership of @sym.  Return: 0 or -ENOMEM. */
int symtab__add(struct symtab *t, struct symbol *sym);

/**
 * symtab__fixup - sort, drop duplicate starts, extend zero-size symbols
 * @kallsyms: apply kallsyms' rule at the kernel/module boundary
 */
void symtab__fixup(struct symtab *t, bool kallsyms);

/** symtab__sort_only - sort by start (stable) without the fix-ups */
void symtab__sort_only(struct symtab *t);

/** symtab__find - the symbol containing @addr, or NULL */
struct symbol *symtab__find(struct symtab *t, u64 addr);

/**
 * symtab__exit - free the symbols of @t and its chunks
 *
 * A symtab may hold SYMBOL_CHUNK symbols of another symtab's chunks (the
 * kallsyms module symbols, machine.c): it must be exited before that one.
 */
void symtab__exit(struct symtab *t);

/** symtab__move_chunks - @to takes over the chunks of @from */
void symtab__move_chunks(struct symtab *to, struct symtab *from);

/**
 * symtab__load_kallsyms - read a kallsyms file ("addr type name [mod]")
 * @t: the symbols of types T, W, D and B (module ones named "name\t[mod]")
 * Return: the number of symbols, or -errno.
 */
int symtab__load_kallsyms(struct symtab *t, const char *path);

/**
 * symtab__load_kallsyms_ref - symtab__load_kallsyms(), also giving the
 * address of the symbol named @ref in *@ref_addr (as read, before duplicates
 * at one address are dropped).  Return: the count, -ENOENT when @ref is not
 * in the file (@t is then left empty), or -errno.
 */
int symtab__load_kallsyms_ref(struct symtab *t, const char *path, const char *ref, u64 *ref_addr);

/*
 * A kallsyms file loaded by several threads: kallsyms_load__open() reads or
 * maps it and cuts it into segments at line starts; any number of threads
 * then call kallsyms_load__work(), each parsing the segments nobody took
 * yet; once all of them have returned, kallsyms_load__finish() puts the
 * symbols together.  symtab__load_kallsyms_ref() is the three in a row.
 */
struct kallsyms_load;

/**
 * kallsyms_load__open - read (or map) the kallsyms file at @path
 * @ref: a symbol whose address kallsyms_load__finish() gives, or NULL
 * @stop: NULL, or a flag that, once set, ends the reading (errno
 *	ECANCELED) and makes kallsyms_load__work() return early
 * Return: the load, or NULL with errno set: EINVAL a device (but the null
 * one) or a directory, or a pipe whose text is no kallsyms (a NUL byte, a
 * line over 4 KB); EFBIG more than 256 MB.
 */
struct kallsyms_load *kallsyms_load__open(const char *path, const char *ref,
					  const atomic_bool *stop);

/**
 * kallsyms__strerror - why the load of @path failed with @err (-errno of
 * the loaders here), into @buf: "'PATH' is larger than 256 MB", ...
 * Return: the length of the text.
 */
int kallsyms__strerror(int err, const char *path, char *buf, size_t size);

/**
 * kallsyms_load__work - parse segments of @l until none is left to take
 * (safe to call from several threads at once)
 */
void kallsyms_load__work(struct kallsyms_load *l);

/**
 * kallsyms_load__finish - the symbols of @l into @t (as
 * symtab__load_kallsyms_ref()) and free @l; every kallsyms_load__work() on
 * @l must have returned.  Segments nobody parsed are parsed here.
 * @nr_mod: NULL, or incremented by the SYMBOL_KMODULE lines read (none:
 *	no symbol of @t from @l has the flag)
 * Return: the count, -ENOENT when @ref was not in the file, or -errno.
 */
int kallsyms_load__finish(struct kallsyms_load *l, struct symtab *t, u64 *ref_addr,
			  size_t *nr_mod);

/** kallsyms_load__abort - free @l without its symbols (same rule as finish) */
void kallsyms_load__abort(struct kallsyms_load *l);

struct elf_syms_opts {
	const u8 *build_id;		/* expected build-id, or NULL */
	size_t build_id_size;
};

/**
 * symbol__demangle - a C++ or Rust (legacy and v0) name as perf shows it:
 * without parameters, without a Rust legacy hash.  Return: malloc()ed, or
 * NULL when @name is not mangled.
 */
char *symbol__demangle(const char *name);

/**
 * symtab__load_elf - load the symbols of the DSO at @path
 * @debug: a file with .symtab to prefer (debuglink or build-id debug file), or NULL
 * @path: the binary itself (program headers, .dynsym, PLT)
 * Return: the number of symbols, or -errno (-ENOENT: no such file,
 * -EINVAL: not ELF, -ESRCH: the build-id differs).
 */
int symtab__load_elf(struct symtab *t, const char *path, const char *debug,
		     const struct elf_syms_opts *o);


/**
 * elf__debuglink - the .gnu_debuglink name of @path into @buf
 * Return: 0 or -errno.
 */
int elf__debuglink(const char *path, char *buf, size_t size);

/** elf__has_symtab - @path is ELF with a .symtab of at least one symbol */
bool elf__has_symtab(const char *path);

#endif
