/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ELF side of `tperf probe`: symbols by name (.symtab, then .dynsym, of
 * the file perf takes them from: a debug file of the same build first),
 * virtual address -> file offset through the PT_LOAD segments (what
 * uprobe_events wants), and the raw stapsdt notes.
 */
#ifndef TPERF_PROBE_ELF_H
#define TPERF_PROBE_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct probe_elf;

/* Open @path; *pe on success.  0 or -errno (-ENOEXEC: not an ELF file). */
int probe_elf__open(const char *path, struct probe_elf **pe);
void probe_elf__close(struct probe_elf *pe);
/* The libelf handle (Elf *), for libdw and the SDT reader. */
void *probe_elf__elf(struct probe_elf *pe);
/*
 * The Elf (libelf's Elf *) to read DWARF from: @pe's own when it has
 * .debug_info, else its separate debug file (by build-id under
 * /usr/lib/debug/.build-id/, or its .gnu_debuglink), found once and owned
 * by @pe; @pe's own when there is none.
 */
void *probe_elf__dwarf_elf(struct probe_elf *pe);
/*
 * The same Elf for names of functions and inline scopes only: its line
 * tables, location lists and macros are neither inflated nor seen by libdw
 * (a distribution library's debug file inflates a third faster).  Either
 * this or probe_elf__dwarf_elf() for one @pe: the first call decides.
 */
void *probe_elf__scopes_elf(struct probe_elf *pe);
/* Has @pe's file or its debug file a .debug_frame section? */
bool probe_elf__has_debug_frame(struct probe_elf *pe);

/*
 * The defined function symbol @name: its address and size (a symbol
 * without one, such as _fini, up to the next function or the end of its
 * section, as perf sizes it; 0 when unknown).  0, or -ENOENT.
 * With several symbols of that name (local functions of several files), the
 * @nth (0-based) one; probe_elf__count_symbol() says how many there are.
 */
int probe_elf__find_symbol(struct probe_elf *pe, const char *name, int nth,
			   uint64_t *addr, uint64_t *size);
int probe_elf__count_symbol(struct probe_elf *pe, const char *name);
/*
 * The first symbol perf's symbol map finds by @name (NAME, else
 * NAME@@VERSION), of any kind perf loads (functions, IFUNCs, data): its
 * address, and whether it is an IFUNC.  0 or -ENOENT.
 */
int probe_elf__first_symbol(struct probe_elf *pe, const char *name, uint64_t *addr, bool *ifunc);
/*
 * The function containing @addr: its name (in libelf's memory), start and
 * size (sized as probe_elf__find_symbol() sizes it; 0: unknown, and such
 * a symbol holds its first byte only).  NULL if none.
 */
const char *probe_elf__symbol_at(struct probe_elf *pe, uint64_t addr, uint64_t *start,
				 uint64_t *size);
/* Call @fn for every defined function symbol (with @all: data and untyped
 * symbols too, as perf probe -F lists them), unsorted, with duplicates.
 * Stops at a non-zero return and returns it. */
int probe_elf__for_each_function(struct probe_elf *pe, bool all,
				 int (*fn)(const char *name, uint64_t addr, void *arg),
				 void *arg);

/* @vaddr -> file offset, through the PT_LOAD segment holding it.  0 or -ENOENT. */
int probe_elf__vaddr_to_offset(struct probe_elf *pe, uint64_t vaddr, uint64_t *off);
/*
 * The bytes of @pe's file at virtual address @vaddr (a pointer into the
 * mapped file), *@len of them: up to the end of the file's part of the
 * PT_LOAD segment holding @vaddr.  NULL when the file has no bytes there.
 */
const void *probe_elf__code(struct probe_elf *pe, uint64_t vaddr, size_t *len);
/* The file's ELF machine (e_machine: EM_X86_64...), EM_NONE if unreadable. */
unsigned int probe_elf__machine(struct probe_elf *pe);
/* File offset @off -> virtual address.  0 or -ENOENT. */
int probe_elf__offset_to_vaddr(struct probe_elf *pe, uint64_t off, uint64_t *vaddr);
/* The address of section @name, 0 or -ENOENT. */
/*
 * Call @fn with "NAME@plt" for each PLT entry of @pe (its .rela.plt
 * relocations), as perf names them.  0, or what @fn returned.
 */
int probe_elf__for_each_plt(struct probe_elf *pe, int (*fn)(const char *name, void *arg),
			    void *arg);
int probe_elf__section_addr(struct probe_elf *pe, const char *name, uint64_t *addr);
/* The contents of the first SHT_NOTE section @name; NULL if none. */
const void *probe_elf__section_data(struct probe_elf *pe, const char *name, size_t *size);
/* 64-bit ELF class? */
bool probe_elf__is64(struct probe_elf *pe);

#endif
