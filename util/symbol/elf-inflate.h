/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compressed debug sections (SHF_COMPRESSED, zlib), inflated before libdw
 * sees them: libdw's dwarf_begin_elf() inflates every compressed .debug_*
 * section with zlib, one after the other; this does it with libdeflate when
 * built with it (2-3x faster than zlib), the largest section in a second
 * thread, and leaves the sections uncompressed in the Elf so that libdw
 * (and every later dwarf_begin_elf() on it) uses them as they are.
 */
#ifndef TPERF_ELF_INFLATE_H
#define TPERF_ELF_INFLATE_H

#include <libelf.h>

struct elf_inflated;

/*
 * Inflate the zlib-compressed .debug_* sections of @elf in place (their
 * Elf_Data and section headers then describe the inflated contents).  The
 * memory is owned by *@out: free it with elf_inflated__free() after
 * elf_end(@elf).  A section that fails to inflate is left as it was (libdw
 * then reports it).  *@out is NULL when nothing was inflated.  0 or -ENOMEM.
 */
int elf_inflate_debug(Elf *elf, struct elf_inflated **out);
/*
 * elf_inflate_debug() but for the compressed sections named in @hide
 * (NULL-terminated): those are not inflated, and become SHT_NOBITS in
 * @elf's section headers so that libdw leaves them alone (it would inflate
 * them with zlib).  For readers that never look at them.
 */
int elf_inflate_debug_except(Elf *elf, const char *const *hide, struct elf_inflated **out);
void elf_inflated__free(struct elf_inflated *in);

#endif
