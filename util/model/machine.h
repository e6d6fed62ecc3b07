/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine model of a perf.data replay: threads with their comms and
 * maps as COMM, FORK, EXIT, MMAP, MMAP2 and KSYMBOL records change them,
 * the DSOs the maps point to, the kernel's maps, and the resolution of an
 * address of a thread to map, DSO and symbol.
 */
#ifndef TPERF_MACHINE_H
#define TPERF_MACHINE_H

#include "util/lib/debug.h"
#include "util/perf-data/header.h"
#include "util/model/thread.h"

struct machine_opts {
	const char *symfs;		/* prefix of every DSO path, or NULL */
	const char *kallsyms;		/* kernel symbols file, or NULL: /proc/kallsyms */
	const char *buildid_dir;	/* the build-id cache, or NULL: buildid_dir__get() */
	int unwinder;			/* enum unwinder_kind (util/unwind/unwind.h): 0 libdw */
	bool no_inline;			/* DWARF callchains without inline frames */
	bool kernel_preload;		/* load the kernel's symbols on a second thread
					   from the kernel MMAP on (with 2+ CPUs) */
	/* open the DWARF of the file's libraries on a thread (util/symbol/dwarf-preload.h) */
	const char *dwarf_preload_file;
	u64 dwarf_preload_start, dwarf_preload_end;	/* its data section */
	say_fn *say;			/* a DSO that is not the one recorded, or NULL */
};

struct unwinder;
struct kernel_preload;
struct dwarf_preload;
struct perf_data;

struct machine {
	struct machine_opts o;
	struct thread *threads[4096];	/* hash by tid */
	struct thread *removed;		/* replaced threads: entries may point to them */
	struct dso **dsos;
	size_t nr_dsos, alloc_dsos;
	void **pool;			/* maps and comms, freed at the end */
	size_t nr_pool, alloc_pool;
	char **strs;			/* interned strings: open hash */
	size_t nr_strs, alloc_strs;
	struct maps *kmaps;
	struct map *kernel_map;
	struct dso *kernel_dso;
	struct symtab modsyms;		/* kallsyms' module symbols (in kernel_dso's chunks) */
	bool kernel_loaded;
	bool preload_tried;
	struct kernel_preload *preload;	/* the kernel's symbols loading, or NULL */
	char kernel_ref[64];		/* the kernel MMAP's symbol ("_text")... */
	u64 kernel_ref_addr;		/* ...and its address when recorded */
	const struct perf_env *env;
	/*
	 * The unwinder's state: made by util/unwind's machine__unwind(), freed
	 * by machine__exit() with the destructor it left (the machine does not
	 * know unwinding: it sits below it).
	 */
	struct unwinder *unwinder;
	void (*unwinder_free)(struct unwinder *u);
	struct user_addr *user_addrs;	/* machine__resolve_addr()'s user addresses: see there */
	struct dwarf_preload *dwarf_preload;	/* or NULL */
	int vdso_fd;			/* this process's [vdso] copied to a memfd, or -1 */
	bool vdso_tried;
};

struct addr_location {
	struct thread *thread;
	struct map *map;
	struct maps *maps;		/* the set map was found in (the process' or the kernel's) */
	struct symbol *sym;
	u64 addr;			/* map-relative when map, else the address */
	char level;			/* '.', 'k', 'g', 'u', 'H' */
};

/**
 * machine_opts__dwarf_preload - set @o's dwarf_preload_* for the perf.data
 * @d when its samples carry user stack copies (DWARF callchains) and it is
 * a regular file: the caller wants their inline frames.
 */
void machine_opts__dwarf_preload(struct machine_opts *o, const struct perf_data *d);

/**
 * machine__init - an empty machine; the DSOs of @env's build-id table are
 * created first (in its order) with their build-ids.  Return: 0 or -ENOMEM.
 */
int machine__init(struct machine *m, const struct machine_opts *o, const struct perf_env *env);
/** machine__exit - free the threads, DSOs, maps and strings of @m */
void machine__exit(struct machine *m);

/**
 * machine__process_event - apply a COMM, FORK, EXIT, MMAP, MMAP2 or KSYMBOL
 * record (others are ignored).  Return: 0 or -ENOMEM.
 */
int machine__process_event(struct machine *m, const union perf_event *ev,
			   const struct perf_sample *s);

/** machine__findnew_thread - the thread @tid (created with its process' maps) */
struct thread *machine__findnew_thread(struct machine *m, int pid, int tid);

/**
 * machine__resolve_addr - map and symbol of @addr in @thread for @cpumode
 * (PERF_RECORD_MISC_USER, _KERNEL ...); loads the DSO's symbols on first use.
 */
void machine__resolve_addr(struct machine *m, struct thread *thread, u8 cpumode, u64 addr,
			   struct addr_location *al);

/**
 * machine__dso_path - the ELF file that holds @dso's code: the file under
 * --symfs, else the build-id cache's copy (elf, or vdso for the vDSO); a
 * vDSO the file gives no build-id of is this machine's own, as in perf
 * Return: 0, or -ENOENT when there is none.
 */
int machine__dso_path(struct machine *m, struct dso *dso, char *buf, size_t size);

/** machine__intern - the one copy of @s (NULL on ENOMEM) */
const char *machine__intern(struct machine *m, const char *s);

#endif
