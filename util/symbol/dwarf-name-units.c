// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compilation units that may name a DIE, from the raw sections (see
 * dwarf-name-units.h).  The abbreviations are read first: the forms they
 * use say whether a name can only be where this looks for it.
 */
#include <dwarf.h>
#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/symbol/dwarf-name-units.h"

#define MAX_STR_HITS	64

/*
 * The contents of section @name of @elf into *@data: 0, -ENOENT if it has
 * none, -ENOTSUP if they cannot be read here (still compressed).
 */
static int section(Elf *elf, const char *name, const Elf_Data **data)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -ENOTSUP;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(n, name))
			continue;
		if (sh.sh_type == SHT_NOBITS)
			return -ENOENT;
		if (sh.sh_flags & SHF_COMPRESSED)
			return -ENOTSUP;
		*data = elf_getdata(scn, NULL);
		return *data ? 0 : -ENOTSUP;
	}
	return -ENOENT;
}

static bool uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < end) {
		unsigned char b = *(*p)++;

		if (shift < 64)
			*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/* Can attribute @attr in form @form of a @tag DIE hold or lead to a name this does not see? */
static bool hides_name(uint64_t tag, uint64_t attr, uint64_t form)
{
	switch (form) {
	case DW_FORM_line_strp:	/* file names, in the units' own DIEs */
		return tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit &&
		       tag != DW_TAG_type_unit && tag != DW_TAG_skeleton_unit;
	case DW_FORM_strx: case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3:
	case DW_FORM_strx4: case DW_FORM_GNU_str_index: case DW_FORM_GNU_strp_alt:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8: case DW_FORM_indirect:
		return true;
	case DW_FORM_ref_addr:	/* another unit's DIE standing for this one */
		return attr == DW_AT_abstract_origin || attr == DW_AT_specification;
	default:
		return false;
	}
}

/* Do the abbreviations of .debug_abbrev (@p, @n bytes) keep names where we look? */
static bool abbrevs_plain(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;
	uint64_t code, tag, attr, form, skip;

	while (p < end) {
		if (!uleb(&p, end, &code))
			return false;
		if (!code)	/* the end of one unit's table */
			continue;
		if (!uleb(&p, end, &tag) || p++ >= end)	/* and DW_CHILDREN_* */
			return false;
		for (;;) {
			if (!uleb(&p, end, &attr) || !uleb(&p, end, &form))
				return false;
			if (!attr && !form)
				break;
			if (form == DW_FORM_implicit_const && !uleb(&p, end, &skip))
				return false;	/* an sleb128: skipped the same way */
			if (hides_name(tag, attr, form))
				return false;
		}
	}
	return true;
}

struct unit_map {
	Dwarf_Off *start, *die;	/* unit header offset, unit DIE offset */
	bool *hit;
	size_t nr;
};

static int read_units(Dwarf *dw, struct unit_map *m)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;

	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (m->nr == cap) {
			Dwarf_Off *s, *d;

			cap = cap ? cap * 2 : 256;
			s = realloc(m->start, cap * sizeof(*s));
			if (s)
				m->start = s;
			d = realloc(m->die, cap * sizeof(*d));
			if (d)
				m->die = d;
			if (!s || !d)
				return -ENOMEM;
		}
		m->start[m->nr] = off;
		m->die[m->nr++] = off + hsize;
		off = next;
	}
	m->hit = calloc(m->nr ?: 1, sizeof(*m->hit));
	return m->hit ? 0 : -ENOMEM;
}

/* Mark the unit holding byte @pos of .debug_info. */
static void mark(struct unit_map *m, size_t pos)
{
	size_t lo = 0, hi = m->nr;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (m->start[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	if (m->nr)
		m->hit[lo] = true;
}

/* Mark every unit containing the bytes @pat (@len). */
static void mark_all(struct unit_map *m, const Elf_Data *info, const void *pat, size_t len)
{
	const char *base = info->d_buf, *p = base, *end = base + info->d_size;

	while ((p = memmem(p, (size_t)(end - p), pat, len))) {
		mark(m, (size_t)(p - base));
		p++;
	}
}

/*
 * The .debug_str offsets of @name as 4-byte strp values in the byte order
 * of the file (@msb: big-endian); -ENOTSUP for too many.  The low half of
 * a DWARF64 strp is the same bytes.
 */
static int str_offsets(const Elf_Data *str, const char *name, size_t len, bool msb,
		       uint32_t *offs)
{
	const char *base = str->d_buf, *p = base, *end = base + str->d_size;
	int n = 0;

	while ((p = memmem(p, (size_t)(end - p), name, len + 1))) {
		size_t off = (size_t)(p - base);

		if (n == MAX_STR_HITS || off > UINT32_MAX)
			return -ENOTSUP;
		offs[n++] = msb ? htobe32((uint32_t)off) : htole32((uint32_t)off);
		p++;
	}
	return n;
}

static bool msb(Elf *elf)
{
	const char *id = elf_getident(elf, NULL);

	return id && id[EI_DATA] == ELFDATA2MSB;
}

static int collect(struct unit_map *m, Dwarf_Off **units)
{
	size_t n = 0;

	*units = malloc((m->nr ?: 1) * sizeof(**units));
	if (!*units)
		return -ENOMEM;
	for (size_t i = 0; i < m->nr; i++)
		if (m->hit[i])
			(*units)[n++] = m->die[i];
	return (int)n;
}

int dwarf_name_units(Dwarf *dw, const char *name, Dwarf_Off **units)
{
	Elf *elf = dwarf_getelf(dw);
	const Elf_Data *info, *abbrev, *str = NULL;
	struct unit_map m = { 0 };
	uint32_t offs[MAX_STR_HITS];
	size_t len = strlen(name);
	int n = 0, ret;

	if (!elf || !len || dwarf_getalt(dw) || section(elf, ".debug_info", &info) ||
	    section(elf, ".debug_abbrev", &abbrev) || !abbrevs_plain(abbrev->d_buf, abbrev->d_size))
		return -ENOTSUP;
	ret = section(elf, ".debug_str", &str);
	if (ret == -ENOTSUP)
		return ret;
	if (!ret && (n = str_offsets(str, name, len, msb(elf), offs)) < 0)
		return n;
	ret = read_units(dw, &m);
	if (!ret) {
		mark_all(&m, info, name, len + 1);
		for (int i = 0; i < n; i++)
			mark_all(&m, info, &offs[i], sizeof(offs[i]));
		ret = collect(&m, units);
	}
	free(m.start);
	free(m.die);
	free(m.hit);
	return ret;
}
