// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the resolution of probe definitions to uprobe
 * addresses (util/probe/probe-resolve.c, probe-finder.c, probe-insn.c):
 * a fuzzed definition is resolved against a fixed small program,
 * tests/fuzz/probe-addr-target.c, which the Makefile builds beside this
 * target (probe-addr-target, with DWARF, and probe-addr-target-nodwarf).
 * The oracle: every uprobe returned is in the file's loadable segments,
 * inside a function of its symbol table (sized as perf sizes _init and
 * _fini, which have no size; a 0xADDR definition may also be outside
 * any), and on the first byte of an instruction, which this
 * target checks on its own: its own reading of the ELF file (libelf) and
 * its own decoding (capstone, linked), from the function's start.
 *
 * Input: one byte of flags (bit 0: the copy without DWARF; bit 1:
 * --no-inlines), then the definition.  Seeds: tests/fuzz/corpus/probe-addr/.
 */
#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/probe/probe-event.h"
#include "util/probe/probe-finder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct func {
	uint64_t start, size;
	uint64_t section_end;
};

/* One of the two programs, read once: its bytes, segments and functions. */
struct program {
	char path[PATH_MAX];
	uint8_t *bytes;
	size_t len;
	GElf_Phdr load[16];
	int nr_load;
	struct func *funcs;
	int nr_funcs;
};

static struct program progs[2];
static csh cs;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz-probe-addr: %s: %s\n", what, path);
	abort();
}

static void read_program(struct program *p, const char *path)
{
	struct stat st;
	Elf_Scn *scn = NULL;
	size_t n = 0;
	Elf *elf;
	int fd;

	if (!realpath(path, p->path))
		die("cannot find the program (make builds it beside the fuzz target)", path);
	fd = open(p->path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !(p->bytes = malloc((size_t)st.st_size)) ||
	    read(fd, p->bytes, (size_t)st.st_size) != st.st_size)
		die("cannot read", p->path);
	p->len = (size_t)st.st_size;
	close(fd);
	elf = elf_memory((char *)p->bytes, p->len);
	if (!elf || elf_getphdrnum(elf, &n))
		die("not an ELF file", p->path);
	for (size_t i = 0; i < n && p->nr_load < 16; i++)
		if (gelf_getphdr(elf, (int)i, &p->load[p->nr_load]) &&
		    p->load[p->nr_load].p_type == PT_LOAD)
			p->nr_load++;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;

			Elf_Scn *in;
			GElf_Shdr ish;

			if (!gelf_getsym(d, (int)i, &s) || !s.st_value || s.st_shndx == SHN_UNDEF ||
			    s.st_shndx >= SHN_LORESERVE || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !(in = elf_getscn(elf, s.st_shndx)) || !gelf_getshdr(in, &ish))
				continue;
			p->funcs = realloc(p->funcs, (size_t)(p->nr_funcs + 1) * sizeof(*p->funcs));
			if (!p->funcs)
				die("out of memory", p->path);
			p->funcs[p->nr_funcs++] = (struct func){ s.st_value, s.st_size,
								 ish.sh_addr + ish.sh_size };
		}
	}
	elf_end(elf);
	if (!p->nr_funcs)
		die("no function symbols", p->path);
	/* a function without a size (_init, _fini) ends where the next one
	 * starts, or its section ends, as perf sizes it */
	for (int i = 0; i < p->nr_funcs; i++) {
		struct func *f = &p->funcs[i];
		uint64_t end = f->section_end;

		if (f->size)
			continue;
		for (int j = 0; j < p->nr_funcs; j++)
			if (p->funcs[j].start > f->start && p->funcs[j].start < end)
				end = p->funcs[j].start;
		f->size = end > f->start ? end - f->start : 1;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	(void)argc, (void)argv;
	if (n <= 0)
		die("cannot read", "/proc/self/exe");
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';
	elf_version(EV_CURRENT);
	snprintf(path, sizeof(path), "%s/probe-addr-target", exe);
	read_program(&progs[0], path);
	snprintf(path, sizeof(path), "%s/probe-addr-target-nodwarf", exe);
	read_program(&progs[1], path);
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		die("cannot open capstone", "x86-64");
	return 0;
}

/* The virtual address of file offset @off, through the PT_LOAD segments. */
static int offset_to_vaddr(const struct program *p, uint64_t off, uint64_t *vaddr)
{
	for (int i = 0; i < p->nr_load; i++)
		if (off >= p->load[i].p_offset && off - p->load[i].p_offset < p->load[i].p_filesz) {
			*vaddr = off - p->load[i].p_offset + p->load[i].p_vaddr;
			return 0;
		}
	return -1;
}

/* Does decoding @f from its start meet an instruction starting at @vaddr? */
static int starts_insn(const struct program *p, const struct func *f, uint64_t vaddr,
		       uint64_t foff)
{
	uint64_t off = foff - (vaddr - f->start), pc = f->start;
	const uint8_t *code = p->bytes + off;
	size_t left = f->size;
	cs_insn *insn = cs_malloc(cs);
	int ok = 0;

	if (off + f->size > p->len)
		abort();	/* a function symbol beyond the file */
	while (pc < vaddr && cs_disasm_iter(cs, &code, &left, &pc, insn))
		;
	ok = pc == vaddr;
	cs_free(insn, 1);
	return ok;
}

static void check_site(const struct program *p, const struct probe_def *def,
		       const struct probe_site *s)
{
	uint64_t vaddr;
	bool inside = false;

	if (strcmp(s->path, p->path) || offset_to_vaddr(p, s->offset, &vaddr))
		abort();	/* another file, or outside its loadable segments */
	for (int i = 0; i < p->nr_funcs; i++) {
		const struct func *f = &p->funcs[i];

		if (vaddr < f->start || vaddr - f->start >= f->size)
			continue;
		inside = true;
		if (!starts_insn(p, f, vaddr, s->offset))
			abort();	/* inside an instruction */
	}
	if (!inside && !def->abs)
		abort();	/* in no function */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_finder_opts o = { .max_probes = 16 };
	const struct program *p;
	struct probe_parse_error err;
	struct probe_site *sites = NULL;
	struct probe_def def;
	char msg[1024], *s;
	int nr = 0;

	if (!size)
		return 0;
	p = &progs[data[0] & 1];
	o.no_inlines = data[0] & 2;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (!probe_def__parse(s, &def, &err)) {
		if (!probe__resolve(p->path, &def, &o, &sites, &nr, msg, sizeof(msg))) {
			for (int i = 0; i < nr; i++)
				check_site(p, &def, &sites[i]);
			probe_sites__free(sites, nr);
		}
		probe_def__exit(&def);
	}
	free(s);
	return 0;
}
