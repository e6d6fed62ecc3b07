// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe points and variables from DWARF (libdw).
 *
 * A function is found as every DW_TAG_subprogram with code (each
 * out-of-line copy) and, unless --no-inlines, every DW_TAG_inlined_subroutine
 * of that name.  Without optimisation (no -O1.. in DW_AT_producer) the entry
 * probe goes after the prologue, at the function's second line-table row, so
 * the arguments are in their stack slots; optimised code is probed at the
 * entry, its arguments found through the location lists.
 *
 * A variable's location at the probe address becomes a uprobe fetch
 * argument: DW_OP_regN -> %reg, DW_OP_bregN -> +off(%reg), DW_OP_fbreg with
 * the frame base (DW_OP_call_frame_cfa resolved through the CFI at that
 * address), DW_OP_addr -> @+FILE_OFFSET; then each "->f" dereferences,
 * ".f" and "[i]" add offsets.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/lib/file.h"
#include "util/symbol/dwarf-name-units.h"
#include "util/symbol/probe-cxx.h"
#include "util/symbol/probe-elf.h"
#include "util/probe/probe-event.h"
#include "util/probe/probe-filter.h"
#include "util/probe/probe-finder.h"
#include "util/probe/probe-insn.h"

struct finder {
	struct probe_elf *pe;
	Dwarf *dw;
	const struct probe_def *def;
	const struct probe_finder_opts *o;
	struct probe_point *pts;
	int nr;
	char *msg;
	size_t size;
	int err;
	int nr_funcs;		/* function instances matched */
	int target_line;	/* for the "no code at line" message */
	int src_line;		/* SRC:ALN, or the SRC;PTN line being tried */
	const char *target_file;
	FILE *vars_fp;		/* -V: list the variables instead of converting */
	const char *source_prefix;	/* -s, for reading sources */
	Dwarf_CFI *eh_cfi;	/* .eh_frame, read once (dwarf_cfi_end() it) */
	bool eh_cfi_read;
};

static int fail(struct finder *f, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct finder *f, int err, const char *fmt, ...)
{
	va_list ap;

	if (f->err)
		return f->err;
	va_start(ap, fmt);
	vsnprintf(f->msg, f->size, fmt, ap);
	va_end(ap);
	f->err = err;
	return err;
}

static Dwarf *open_dwarf(struct probe_elf *pe)
{
	return dwarf_begin_elf(probe_elf__dwarf_elf(pe), DWARF_C_READ, NULL);
}

/*
 * The declaration file of @die.  DWARF 5 numbers files from 0, the unit's
 * primary file, which libdw 0.188's dwarf_decl_file() takes for "none"
 * (DWARF 4's meaning): clang names a one-file unit's functions with it.
 */
static const char *decl_file(Dwarf_Die *die)
{
	const char *file = dwarf_decl_file(die);
	Dwarf_Attribute attr;
	Dwarf_Word idx;
	Dwarf_Half version;
	Dwarf_Files *files;
	Dwarf_Die cu;
	size_t n;

	if (file || !dwarf_attr_integrate(die, DW_AT_decl_file, &attr) ||
	    dwarf_formudata(&attr, &idx) || idx != 0 ||
	    !dwarf_diecu(die, &cu, NULL, NULL) ||
	    dwarf_cu_info(cu.cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) || version < 5 ||
	    dwarf_getsrcfiles(&cu, &files, &n) || !n)
		return file;
	return dwarf_filesrc(files, 0, NULL, NULL);
}

bool probe_finder__has_dwarf(struct probe_elf *pe)
{
	Dwarf *dw = open_dwarf(pe);
	Dwarf_Off next;
	size_t hsize;
	bool has;

	if (!dw)
		return false;
	has = dwarf_nextcu(dw, 0, &next, &hsize, NULL, NULL, NULL) == 0;
	dwarf_end(dw);
	return has;
}

void probe_points__free(struct probe_point *pts, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(pts[i].fetchargs);
		free(pts[i].func);
		free(pts[i].file);
	}
	free(pts);
}

/* ---- walking the DIE tree ---- */

typedef int (*die_fn)(struct finder *f, Dwarf_Die *die, Dwarf_Die *cu);

static bool has_code(Dwarf_Die *die)
{
	Dwarf_Addr lo;

	return dwarf_lowpc(die, &lo) == 0 || dwarf_hasattr(die, DW_AT_ranges) ||
	       dwarf_hasattr(die, DW_AT_entry_pc);
}

static int walk_dies(struct finder *f, Dwarf_Die *parent, Dwarf_Die *cu, die_fn fn)
{
	Dwarf_Die child;
	int ret;

	if (dwarf_child(parent, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			ret = fn(f, &child, cu);
			if (ret)
				return ret;
		}
		if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
		    tag == DW_TAG_inlined_subroutine || tag == DW_TAG_namespace ||
		    tag == DW_TAG_class_type || tag == DW_TAG_structure_type) {
			ret = walk_dies(f, &child, cu, fn);
			if (ret)
				return ret;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int for_each_cu(struct finder *f, int (*fn)(struct finder *f, Dwarf_Die *cu))
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(f->dw, off + hsize, &cu)) {
			int ret = fn(f, &cu);

			if (ret)
				return ret;
		}
		off = next;
	}
	return 0;
}

/*
 * for_each_cu() over the units that may have a DIE named @name only (all of
 * them for a C++ qualified name, matched by its linkage name's demangling).
 */
static int for_each_cu_naming(struct finder *f, const char *name,
			      int (*fn)(struct finder *f, Dwarf_Die *cu))
{
	Dwarf_Off *units;
	int n = probe_cxx__qualified(name) ? -ENOTSUP : dwarf_name_units(f->dw, name, &units);
	int ret = 0;

	if (n == -ENOTSUP)
		return for_each_cu(f, fn);
	if (n < 0)
		return fail(f, n, "out of memory");
	for (int i = 0; !ret && i < n; i++) {
		Dwarf_Die cu;

		if (dwarf_offdie(f->dw, units[i], &cu))
			ret = fn(f, &cu);
	}
	free(units);
	return ret;
}

/* Does the path @path end with @suffix at a '/' boundary? */
static bool path_matches(const char *path, const char *suffix)
{
	size_t lp, ls;

	if (!path || !suffix)
		return !suffix;
	lp = strlen(path), ls = strlen(suffix);
	if (ls > lp)
		return false;
	if (strcmp(path + lp - ls, suffix))
		return false;
	return lp == ls || path[lp - ls - 1] == '/' || suffix[0] == '/';
}

static bool cu_optimized(Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	const char *p = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &a));

	for (; p && (p = strstr(p, " -O")); p += 3)
		if (p[3] != '0')
			return true;
	return false;
}

static int entry_pc(Dwarf_Die *die, Dwarf_Addr *pc)
{
	Dwarf_Addr base, start, end;

	if (dwarf_entrypc(die, pc) == 0)
		return 0;
	if (dwarf_ranges(die, 0, &base, &start, &end) > 0) {
		*pc = start;
		return 0;
	}
	return -ENOENT;
}

/* One row of a unit's line table, as for_each_cu_line() gives it. */
struct cu_line {
	Dwarf_Addr addr;
	int line;
	const char *src;	/* its source file, NULL if unknown */
	bool stmt;		/* it begins a statement */
	/*
	 * It begins a statement at a new address: rows sharing the address of
	 * the row before them are not probe points of their line (perf's
	 * rule, so -L and line probes agree with it).
	 */
	bool probe;
};

/*
 * Call @fn for each row of @cu's line table (in address order), until it
 * returns non-zero; that value is returned.  0 for a unit without one.
 */
static int for_each_cu_line(Dwarf_Die *cu, int (*fn)(const struct cu_line *row, void *arg),
			    void *arg)
{
	Dwarf_Lines *lines;
	Dwarf_Addr prev = 0;
	bool has_prev = false;
	size_t n;

	if (dwarf_getsrclines(cu, &lines, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		struct cu_line r = { 0 };
		int ret;

		if (!l || dwarf_lineaddr(l, &r.addr) || dwarf_lineno(l, &r.line)) {
			has_prev = false;
			continue;
		}
		if (dwarf_linebeginstatement(l, &r.stmt))
			r.stmt = false;
		r.probe = r.stmt && !(has_prev && prev == r.addr);
		r.src = dwarf_linesrc(l, NULL, NULL);
		if (r.stmt)
			prev = r.addr, has_prev = true;
		ret = fn(&r, arg);
		if (ret)
			return ret;
	}
	return 0;
}

struct prologue {
	Dwarf_Die *fn;
	Dwarf_Addr entry, end;
};

static int prologue_row(const struct cu_line *r, void *arg)
{
	struct prologue *p = arg;

	if (r->stmt && r->addr > p->entry && (!p->end || r->addr < p->end) &&
	    dwarf_haspc(p->fn, r->addr) == 1)
		p->end = r->addr;
	return 0;
}

/* The outermost inlined instance inside @scope containing @pc. */
static bool inline_at(Dwarf_Die *scope, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf_Die d;

	if (dwarf_child(scope, &d))
		return false;
	do {
		int tag = dwarf_tag(&d);

		if (tag == DW_TAG_inlined_subroutine && dwarf_haspc(&d, pc) == 1) {
			*out = d;
			return true;
		}
		if (tag == DW_TAG_lexical_block && inline_at(&d, pc, out))
			return true;
	} while (dwarf_siblingof(&d, &d) == 0);
	return false;
}

/*
 * Is row @r code of function instance @fn itself?  Not when it lies in an
 * instance inlined there, unless it is that instance's call (perf's rule).
 */
static bool own_row(Dwarf_Die *cu, Dwarf_Die *fn, const struct cu_line *r)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word file, line;
	Dwarf_Die in;
	const char *name;

	if (!inline_at(fn, r->addr, &in))
		return true;
	if (dwarf_formudata(dwarf_attr(&in, DW_AT_call_line, &a), &line) ||
	    dwarf_formudata(dwarf_attr(&in, DW_AT_call_file, &a), &file) ||
	    dwarf_getsrcfiles(cu, &files, NULL))
		return false;
	name = dwarf_filesrc(files, file, NULL, NULL);
	return (int)line == r->line && name && !strcmp(name, r->src);
}

/* The first line-table row after @entry inside @fn: the end of the prologue. */
static Dwarf_Addr skip_prologue(Dwarf_Die *cu, Dwarf_Die *fn, Dwarf_Addr entry)
{
	struct prologue p = { .fn = fn, .entry = entry };

	for_each_cu_line(cu, prologue_row, &p);
	return p.end ?: entry;
}

/* ---- variables ---- */

static const char *const dwarf_regs[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ip",
};

static const char *reg_name(unsigned int n)
{
	return n < sizeof(dwarf_regs) / sizeof(dwarf_regs[0]) ? dwarf_regs[n] : NULL;
}

enum loc_kind { LOC_REG, LOC_MEM, LOC_ABS };	/* ABS: @+off */

/* Where a value is: in register @expr, at *(@expr + @off), or at file offset @off. */
struct loc {
	enum loc_kind kind;
	char expr[512];
	int64_t off;
};

static int loc_value(const struct loc *l, char *buf, size_t size)
{
	int n;

	if (l->kind == LOC_REG)
		n = snprintf(buf, size, "%s", l->expr);
	else if (l->kind == LOC_ABS)
		n = snprintf(buf, size, "@+0x%" PRIx64, (uint64_t)l->off);
	else
		n = snprintf(buf, size, "%s%" PRId64 "(%s)", l->off < 0 ? "" : "+", l->off, l->expr);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}


/* The CFA at @pc, as register + offset, from .eh_frame or .debug_frame. */
static int cfa_loc(struct finder *f, Dwarf_Addr pc, struct loc *l)
{
	Dwarf_CFI *cfis[2];

	if (!f->eh_cfi_read) {
		f->eh_cfi = dwarf_getcfi_elf(probe_elf__elf(f->pe));
		f->eh_cfi_read = true;
	}
	cfis[0] = f->eh_cfi;
	cfis[1] = dwarf_getcfi(f->dw);	/* owned by f->dw */

	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *frame;
		Dwarf_Op *ops;
		size_t nops;
		const char *r = NULL;
		int64_t off = 0;

		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], pc, &frame))
			continue;
		if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1) {
			if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
				r = reg_name(ops[0].atom - DW_OP_breg0);
				off = (int64_t)ops[0].number;
			} else if (ops[0].atom == DW_OP_bregx) {
				r = reg_name((unsigned int)ops[0].number);
				off = (int64_t)ops[0].number2;
			}
		}
		free(frame);
		if (r) {
			l->kind = LOC_MEM;
			snprintf(l->expr, sizeof(l->expr), "%%%s", r);
			l->off = off;
			return 0;
		}
	}
	return -ENOTSUP;
}

/* The frame base of the function @sp at @pc, plus @off: *(reg + off) in @l. */
static int frame_base(struct finder *f, Dwarf_Die *sp, Dwarf_Addr pc, int64_t off,
		      struct loc *l)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	const char *r = NULL;
	int64_t base = 0;
	unsigned int atom;

	if (!sp || !dwarf_attr(sp, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, pc, &ops, &nops, 1) != 1 || nops != 1)
		return -ENOTSUP;
	atom = ops[0].atom;
	if (atom == DW_OP_call_frame_cfa) {
		if (cfa_loc(f, pc, l))
			return -ENOTSUP;
		l->off += off;
		return 0;
	}
	if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
		r = reg_name(atom - DW_OP_breg0);
		base = (int64_t)ops[0].number;
	} else if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
		r = reg_name(atom - DW_OP_reg0);
	}
	if (!r)
		return -ENOTSUP;
	l->kind = LOC_MEM;
	snprintf(l->expr, sizeof(l->expr), "%%%s", r);
	l->off = base + off;
	return 0;
}

static int expr_to_loc(struct finder *f, Dwarf_Op *ops, size_t nops, Dwarf_Die *sp,
		       Dwarf_Addr pc, struct loc *l)
{
	unsigned int atom;
	const char *r = NULL;
	uint64_t pc_off;

	if (nops != 1)
		return -ENOTSUP;
	atom = ops[0].atom;
	memset(l, 0, sizeof(*l));
	if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
		r = reg_name(atom - DW_OP_reg0);
		l->kind = LOC_REG;
	} else if (atom == DW_OP_regx) {
		r = reg_name((unsigned int)ops[0].number);
		l->kind = LOC_REG;
	} else if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
		r = reg_name(atom - DW_OP_breg0);
		l->kind = LOC_MEM;
		l->off = (int64_t)ops[0].number;
	} else if (atom == DW_OP_bregx) {
		r = reg_name((unsigned int)ops[0].number);
		l->kind = LOC_MEM;
		l->off = (int64_t)ops[0].number2;
	} else if (atom == DW_OP_fbreg) {
		return frame_base(f, sp, pc, (int64_t)ops[0].number, l);
	} else if (atom == DW_OP_addr) {
		/* the kernel maps @+X as probe's load base + X, the base taken
		 * from the probe's segment: X is relative to that segment's bias */
		if (probe_elf__vaddr_to_offset(f->pe, pc, &pc_off))
			return -ENOTSUP;
		l->kind = LOC_ABS;
		l->off = (int64_t)(ops[0].number - (pc - pc_off));
		return 0;
	} else {
		return -ENOTSUP;
	}
	if (!r)
		return -ENOTSUP;
	snprintf(l->expr, sizeof(l->expr), "%%%s", r);
	return 0;
}

/* ---- types ---- */

static Dwarf_Die *die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, out))
		return NULL;
	return out;
}

static Dwarf_Die *peeled_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Die t;

	if (!die_type(die, &t) || dwarf_peel_type(&t, out))
		return NULL;
	return out;
}

static void append_str(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	if (len < size)
		snprintf(buf + len, size - len, "%s", s);
}

/* perf's spelling of a type: "int", "struct point*", "const char*". */
/* @type without its const, volatile, restrict or atomic qualifiers. */
static Dwarf_Die *unqualified(Dwarf_Die *type, Dwarf_Die *out)
{
	while (type) {
		int tag = dwarf_tag(type);

		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			return type;
		type = die_type(type, out);
	}
	return NULL;
}

/* The type's name as perf spells it (no qualifiers, arrays as pointers); false
 * for a type perf cannot name (void, references, unnamed types). */
static bool type_spelling(Dwarf_Die *type, char *buf, size_t size)
{
	Dwarf_Die t, u;
	const char *name;
	int tag;

	type = unqualified(type, &u);
	if (!type)
		return false;
	tag = dwarf_tag(type);
	name = dwarf_diename(type);
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_array_type:
		if (!type_spelling(die_type(type, &t), buf, size))
			return false;
		append_str(buf, size, "*");
		return true;
	case DW_TAG_subroutine_type:
		append_str(buf, size, "(function_type)");
		return true;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		if (!name)
			return false;
		append_str(buf, size, tag == DW_TAG_structure_type ? "struct " :
			   tag == DW_TAG_union_type ? "union " : "enum ");
		break;
	}
	if (!name)
		return false;
	append_str(buf, size, name);
	return true;
}

static void type_name(Dwarf_Die *type, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!type_spelling(type, buf, size))
		snprintf(buf, size, "(unknown_type)");
}

static int type_size(Dwarf_Die *t)
{
	Dwarf_Word n;

	return dwarf_aggregate_size(t, &n) ? -1 : (int)n;
}

/* The fetch type of a scalar type ("s32", "x64"); NULL for aggregates. */
static const char *fetch_type(Dwarf_Die *t, char *buf, size_t size)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	int bytes = type_size(t);

	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
		return NULL;
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		snprintf(buf, size, "x%d", bytes * 8);
		return buf;
	case DW_TAG_enumeration_type:
	case DW_TAG_base_type:
		/* signed types s<bits>, the others x<bits> (perf's choice) */
		if (dwarf_formudata(dwarf_attr_integrate(t, DW_AT_encoding, &a), &enc))
			enc = DW_ATE_unsigned;
		snprintf(buf, size, "%c%d", enc == DW_ATE_signed || enc == DW_ATE_signed_char ?
			 's' : 'x', bytes * 8);
		return buf;
	}
	return NULL;
}

static bool is_char(Dwarf_Die *t)
{
	Dwarf_Die p;

	return t && !dwarf_peel_type(t, &p) && dwarf_tag(&p) == DW_TAG_base_type &&
	       type_size(&p) == 1;
}

/* Member @name of struct/union @t (searching anonymous members). */
static bool find_member(Dwarf_Die *t, const char *name, Dwarf_Die *out, int64_t *off)
{
	Dwarf_Die m;

	if (dwarf_child(t, &m))
		return false;
	do {
		Dwarf_Attribute a;
		Dwarf_Word loc = 0;
		const char *n = dwarf_diename(&m);
		Dwarf_Die mt;

		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		dwarf_formudata(dwarf_attr(&m, DW_AT_data_member_location, &a), &loc);
		if (n && !strcmp(n, name)) {
			*out = m;
			*off = (int64_t)loc;
			return true;
		}
		if (!n && peeled_type(&m, &mt) && find_member(&mt, name, out, off)) {
			*off += (int64_t)loc;
			return true;
		}
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

/* ---- arguments ---- */

struct argctx {
	Dwarf_Die *scopes;
	int nscopes, fn_scope;	/* scopes[fn_scope]: the function (instance) */
	Dwarf_Die *sp, *cu;	/* the out-of-line function, for the frame base */
	Dwarf_Die caller;	/* its storage when @sp is found by address */
	Dwarf_Addr pc;
	char where[160];	/* "walk+11", for messages */
};

static bool var_tag(Dwarf_Die *d)
{
	int tag = dwarf_tag(d);

	return tag == DW_TAG_variable || tag == DW_TAG_formal_parameter;
}

static bool find_in(Dwarf_Die *scope, const char *name, Dwarf_Die *out)
{
	Dwarf_Die c;

	if (dwarf_child(scope, &c))
		return false;
	do {
		const char *n;

		if (var_tag(&c) && (n = dwarf_diename(&c)) && !strcmp(n, name)) {
			*out = c;
			return true;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

static bool find_var(struct argctx *c, const char *name, Dwarf_Die *out)
{
	for (int i = 0; i <= c->fn_scope; i++)
		if (find_in(&c->scopes[i], name, out))
			return true;
	return find_in(c->cu, name, out);
}

/* Append the names of the variables in scope to @buf, for suggestions. */
static void list_vars(struct argctx *c, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = c->fn_scope; i >= 0; i--) {
		Dwarf_Die d;

		if (dwarf_child(&c->scopes[i], &d))
			continue;
		do {
			const char *n = dwarf_diename(&d);

			if (var_tag(&d) && n && len + strlen(n) + 3 < size)
				len += (size_t)snprintf(buf + len, size - len, "%s'%s'",
							len ? ", " : "", n);
		} while (dwarf_siblingof(&d, &d) == 0);
	}
}

/* The location of variable @var at the probe address. */
static int var_loc(struct finder *f, struct argctx *c, Dwarf_Die *var, const char *name,
		   struct loc *l)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr_integrate(var, DW_AT_location, &a))
		return fail(f, -ENOENT, "variable '%s' at %s has been optimised out "
			    "(it has no location)", name, c->where);
	if (dwarf_getlocation_addr(&a, c->pc, &ops, &nops, 1) != 1)
		return fail(f, -ENOENT, "variable '%s' is not available at %s "
			    "(optimised out there): probe another line", name, c->where);
	if (expr_to_loc(f, ops, nops, c->sp, c->pc, l))
		return fail(f, -ENOTSUP, "variable '%s' at %s is computed, not stored "
			    "(DWARF expression of %zu operations): probe another line",
			    name, c->where, nops);
	return 0;
}

static int apply_field(struct finder *f, const struct probe_arg *a,
		       const struct probe_field *fl, struct loc *l, Dwarf_Die *type,
		       int *bitsize, int *bitshift, int *container)
{
	Dwarf_Die t, m;
	int64_t off;
	char val[512];

	if (!fl->name) {	/* [IDX] */
		int tag = dwarf_tag(type), esz;

		if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type)
			return fail(f, -EINVAL, "'%s' is not an array or a pointer: "
				    "cannot index it", a->var);
		if (!peeled_type(type, &t) || (esz = type_size(&t)) <= 0)
			return fail(f, -EINVAL, "'%s' points to a type without size", a->var);
		if (tag == DW_TAG_pointer_type) {
			if (loc_value(l, val, sizeof(val)))
				return fail(f, -ENOSPC, "argument '%s' is too deep", a->var);
			snprintf(l->expr, sizeof(l->expr), "%s", val);
			l->kind = LOC_MEM;
			l->off = fl->index * esz;
		} else {
			if (l->kind == LOC_REG)
				return fail(f, -EINVAL, "array '%s' is in a register", a->var);
			l->off += fl->index * esz;
		}
		*type = t;
		return 0;
	}
	if (fl->ref) {
		if (dwarf_tag(type) != DW_TAG_pointer_type || !peeled_type(type, &t))
			return fail(f, -EINVAL, "'%s' is not a pointer: use '.%s' instead of "
				    "'->%s'", a->var, fl->name, fl->name);
	} else {
		if (dwarf_tag(type) == DW_TAG_pointer_type)
			return fail(f, -EINVAL, "'%s' is a pointer: use '->%s' instead of "
				    "'.%s'", a->var, fl->name, fl->name);
		t = *type;
	}
	if (dwarf_tag(&t) != DW_TAG_structure_type && dwarf_tag(&t) != DW_TAG_union_type &&
	    dwarf_tag(&t) != DW_TAG_class_type)
		return fail(f, -EINVAL, "'%s' is not a struct or union: it has no member '%s'",
			    a->var, fl->name);
	if (!find_member(&t, fl->name, &m, &off)) {
		char tn[256];

		type_name(&t, tn, sizeof(tn));
		return fail(f, -ENOENT, "%s has no member '%s'", tn, fl->name);
	}
	if (fl->ref) {
		if (loc_value(l, val, sizeof(val)))
			return fail(f, -ENOSPC, "argument '%s' is too deep", a->var);
		snprintf(l->expr, sizeof(l->expr), "%s", val);
		l->kind = LOC_MEM;
		l->off = 0;
	} else if (l->kind == LOC_REG) {
		return fail(f, -EINVAL, "struct '%s' is in a register: its members cannot be "
			    "fetched", a->var);
	}
	l->off += off;
	if (!peeled_type(&m, type))
		return fail(f, -EINVAL, "member '%s' has no type", fl->name);
	*bitsize = 0;
	{
		Dwarf_Attribute at;
		Dwarf_Word bs, bo, bsz;
		int csz = type_size(type);

		if (dwarf_formudata(dwarf_attr(&m, DW_AT_bit_size, &at), &bs) == 0 && csz > 0) {
			*container = csz * 8;
			*bitsize = (int)bs;
			if (dwarf_formudata(dwarf_attr(&m, DW_AT_data_bit_offset, &at), &bo) == 0) {
				l->off += (int64_t)(bo / (Dwarf_Word)*container) * csz;
				*bitshift = (int)(bo % (Dwarf_Word)*container);
			} else if (dwarf_formudata(dwarf_attr(&m, DW_AT_bit_offset, &at), &bo) == 0) {
				if (dwarf_formudata(dwarf_attr(&m, DW_AT_byte_size, &at), &bsz))
					bsz = (Dwarf_Word)csz;
				*bitshift = (int)(bsz * 8 - bo - bs);
			}
		}
	}
	return 0;
}

/* One "NAME=FETCH:TYPE" for argument @a into @out. */
static int convert_var(struct finder *f, struct argctx *c, const struct probe_arg *a,
		       Dwarf_Die *var, char *out, size_t size)
{
	struct loc l;
	Dwarf_Die type;
	char val[512], tb[32];
	const char *name = a->name ?: a->var, *ft;
	char cast_name[128];
	int bitsize = 0, bitshift = 0, container = 0, ret, n;

	ret = var_loc(f, c, var, a->var, &l);
	if (ret)
		return ret;
	if (!peeled_type(var, &type))
		return fail(f, -EINVAL, "variable '%s' has no type", a->var);
	for (int i = 0; i < a->nr_fields; i++) {
		ret = apply_field(f, a, &a->fields[i], &l, &type, &bitsize, &bitshift,
				  &container);
		if (ret)
			return ret;
		if (!a->name && a->fields[i].name)
			name = a->fields[i].name;
	}
	if (loc_value(&l, val, sizeof(val)))
		return fail(f, -ENOSPC, "argument '%s' is too deep", a->var);
	if (!a->name && !a->nr_fields && a->type) {	/* "n:x8" is named "n_x8" (perf) */
		snprintf(cast_name, sizeof(cast_name), "%s_%s", a->var, a->type);
		name = cast_name;
	}
	if (a->type && !strcmp(a->type, "string")) {
		Dwarf_Die t;
		bool ptr = dwarf_tag(&type) == DW_TAG_pointer_type;

		if ((!ptr && dwarf_tag(&type) != DW_TAG_array_type) || !die_type(&type, &t) ||
		    !is_char(&t))
			return fail(f, -EINVAL, "'%s' is not a char pointer or array: "
				    "it cannot be fetched as a string", a->var);
		if (ptr)
			n = snprintf(out, size, "%s=+0(%s):string", name, val);
		else if (l.kind == LOC_REG)
			return fail(f, -EINVAL, "char array '%s' is in a register", a->var);
		else
			n = snprintf(out, size, "%s=%s:string", name, val);
		return n < 0 || (size_t)n >= size ? fail(f, -ENOSPC, "argument too long") : 0;
	}
	if (bitsize && !a->type) {
		snprintf(tb, sizeof(tb), "b%d@%d/%d", bitsize, bitshift, container);
		ft = tb;
	} else {
		ft = a->type ?: fetch_type(&type, tb, sizeof(tb));
	}
	if (!ft) {
		char tn[256];

		type_name(&type, tn, sizeof(tn));
		return fail(f, -EINVAL, "'%s' is a %s: fetch one of its members, or give a "
			    "type (':u64')", a->var, tn);
	}
	n = snprintf(out, size, "%s=%s:%s", name, val, ft);
	return n < 0 || (size_t)n >= size ? fail(f, -ENOSPC, "argument too long") : 0;
}

static int append_arg(struct finder *f, char *buf, size_t size, size_t *len, const char *arg)
{
	int n = snprintf(buf + *len, size - *len, "%s%s", *len ? " " : "", arg);

	if (n < 0 || (size_t)n >= size - *len)
		return fail(f, -ENOSPC, "the arguments are too long for one probe");
	*len += (size_t)n;
	return 0;
}

/* Every variable of @scope ($params: parameters only) that can be fetched. */
static int add_scope_vars(struct finder *f, struct argctx *c, Dwarf_Die *scope, bool params,
			  char *buf, size_t size, size_t *len)
{
	Dwarf_Die d;

	if (dwarf_child(scope, &d))
		return 0;
	do {
		struct probe_arg a = { .kind = PROBE_ARG_VAR };
		char one[1024];
		int ret;

		if (!var_tag(&d) || (params && dwarf_tag(&d) != DW_TAG_formal_parameter))
			continue;
		a.var = (char *)dwarf_diename(&d);
		if (!a.var)
			continue;
		if (convert_var(f, c, &a, &d, one, sizeof(one))) {
			f->err = 0;	/* optimised out here: skipped, as perf does */
			continue;
		}
		ret = append_arg(f, buf, size, len, one);
		if (ret)
			return ret;
	} while (dwarf_siblingof(&d, &d) == 0);
	return 0;
}

static int convert_one(struct finder *f, struct argctx *c, const struct probe_arg *a,
		       char *buf, size_t size, size_t *len)
{
	char one[1024], avail[512];
	Dwarf_Die var;
	int ret;

	switch (a->kind) {
	case PROBE_ARG_RETVAL:
		if (!f->def->retprobe)
			return fail(f, -EINVAL, "$retval is only available at '%%return' probes");
		snprintf(one, sizeof(one), "%s%s$retval%s%s", a->name ?: "", a->name ? "=" : "",
			 a->type ? ":" : "", a->type ?: "");
		return append_arg(f, buf, size, len, one);
	case PROBE_ARG_COMM:
		return append_arg(f, buf, size, len, "$comm");
	case PROBE_ARG_REG:
		snprintf(one, sizeof(one), "%s%s%s%s%s", a->name ?: "", a->name ? "=" : "",
			 a->var, a->type ? ":" : "", a->type ?: "");
		return append_arg(f, buf, size, len, one);
	case PROBE_ARG_PARAMS:
		return add_scope_vars(f, c, &c->scopes[c->fn_scope], true, buf, size, len);
	case PROBE_ARG_VARS:
		for (int i = c->fn_scope; i >= 0; i--) {
			ret = add_scope_vars(f, c, &c->scopes[i], false, buf, size, len);
			if (ret)
				return ret;
		}
		return 0;
	case PROBE_ARG_VAR:
		break;
	}
	if (f->def->retprobe)
		return fail(f, -EINVAL, "variables are not available at function return: "
			    "use $retval");
	if (!find_var(c, a->var, &var)) {
		list_vars(c, avail, sizeof(avail));
		return fail(f, -ENOENT, "no variable '%s' at %s%s%s", a->var, c->where,
			    *avail ? "; available: " : "", avail);
	}
	ret = convert_var(f, c, a, &var, one, sizeof(one));
	return ret ?: append_arg(f, buf, size, len, one);
}

/* The out-of-line function whose code holds @pc (libdw's scopes of an
 * inlined instance lead to its abstract definition, not to its caller). */
static bool containing_subprogram(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf_Die d;

	if (dwarf_child(cu, &d))
		return false;
	do {
		int tag = dwarf_tag(&d);

		if (tag == DW_TAG_subprogram && dwarf_haspc(&d, pc) == 1) {
			*out = d;
			return true;
		}
		if ((tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		     tag == DW_TAG_structure_type) && containing_subprogram(&d, pc, out))
			return true;
	} while (dwarf_siblingof(&d, &d) == 0);
	return false;
}

/* An inlined instance is named by its caller, "main+205", as perf does. */
static void where_in_caller(struct argctx *c, Dwarf_Addr pc)
{
	Dwarf_Addr e;

	if (!entry_pc(&c->caller, &e))
		snprintf(c->where, sizeof(c->where), "%s+%" PRIu64,
			 dwarf_diename(&c->caller) ?: "?", pc - e);
}

/* Fill @c for @pc inside function instance @fn. */
static int argctx_init(struct finder *f, struct argctx *c, Dwarf_Die *cu, Dwarf_Die *fn,
		       Dwarf_Addr pc, Dwarf_Addr entry)
{
	const char *name = dwarf_diename(fn);

	memset(c, 0, sizeof(*c));
	c->cu = cu;
	c->pc = pc;
	snprintf(c->where, sizeof(c->where), "%s+%" PRIu64, name ?: "?", pc - entry);
	c->nscopes = dwarf_getscopes(cu, pc, &c->scopes);
	if (c->nscopes <= 0)
		return fail(f, -ENOENT, "no scope at %s", c->where);
	c->fn_scope = -1;
	for (int i = 0; i < c->nscopes; i++) {
		int tag = dwarf_tag(&c->scopes[i]);

		if (c->fn_scope < 0 && dwarf_dieoffset(&c->scopes[i]) == dwarf_dieoffset(fn))
			c->fn_scope = i;
		if (tag == DW_TAG_subprogram && !c->sp)
			c->sp = &c->scopes[i];
	}
	if (dwarf_tag(fn) == DW_TAG_inlined_subroutine &&
	    containing_subprogram(cu, pc, &c->caller)) {
		where_in_caller(c, pc);
		c->sp = &c->caller;
	}
	if (c->fn_scope < 0) {
		/* an inlined instance whose entry lies outside its own ranges:
		 * its variables still come first */
		Dwarf_Die *sc = realloc(c->scopes, (size_t)(c->nscopes + 1) * sizeof(*sc));

		if (!sc)
			return fail(f, -ENOMEM, "out of memory");
		memmove(sc + 1, sc, (size_t)c->nscopes * sizeof(*sc));
		sc[0] = *fn;
		c->scopes = sc;
		c->nscopes++;
		c->fn_scope = 0;
		if (c->sp != &c->caller) {
			c->sp = NULL;
			for (int i = 0; i < c->nscopes && !c->sp; i++)
				if (dwarf_tag(&c->scopes[i]) == DW_TAG_subprogram)
					c->sp = &c->scopes[i];
		}
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append "START-END" to @buf, offsets from @entry, "," before all but the first. */
static void append_span(char *buf, size_t size, bool *first, Dwarf_Addr s, Dwarf_Addr e,
			Dwarf_Addr entry)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s%" PRIu64 "-%" PRIu64, *first ? "" : ",",
		 s - entry, e - entry);
	*first = false;
}

/*
 * --range: append "	@<FUNC+[S-E,...]>" to @buf, where @var has a location:
 * the entries of its location list, or the ranges of its scope for a single
 * location, as offsets from the entry of the (out-of-line) function.
 */
static void append_range(struct argctx *c, Dwarf_Die *var, Dwarf_Attribute *a, char *buf,
			 size_t size)
{
	Dwarf_Addr entry, base, s, e;
	Dwarf_Op *ops;
	Dwarf_Die *scopes = NULL;
	size_t nops, len;
	ptrdiff_t off = 0;
	bool first = true;

	if (entry_pc(c->sp, &entry) || !dwarf_diename(c->sp))
		return;
	len = strlen(buf);
	snprintf(buf + len, size - len, "	@<%s+[", dwarf_diename(c->sp));
	while ((off = dwarf_getlocations(a, off, &base, &s, &e, &ops, &nops)) > 0) {
		if (s == 0) {	/* a single location: its scope's ranges */
			ptrdiff_t roff = 0;

			if (dwarf_getscopes_die(var, &scopes) > 1)
				while ((roff = dwarf_ranges(&scopes[1], roff, &base, &s, &e)) > 0)
					append_span(buf, size, &first, s, e, entry);
			free(scopes);
			break;
		}
		append_span(buf, size, &first, s, e, entry);
	}
	len = strlen(buf);
	if (first)	/* no range known: the bare tab, as perf */
		buf[len - (sizeof("@<+[") - 1) - strlen(dwarf_diename(c->sp))] = '\0';
	else
		snprintf(buf + len, size - len, "]>");
}

/*
 * --range: does variable @a, not at the pc, get a location further in the
 * function (a fetchable one)?  perf shows such a variable as "[INV]".
 */
static bool later_loc(struct finder *f, struct argctx *c, Dwarf_Attribute *a)
{
	Dwarf_Addr hi, best = 0, base, s, e;
	Dwarf_Op *ops, *bops = NULL;
	size_t nops, bn = 0;
	ptrdiff_t off = 0;
	struct loc l;

	if (dwarf_highpc(c->sp, &hi))
		return false;
	while ((off = dwarf_getlocations(a, off, &base, &s, &e, &ops, &nops)) > 0) {
		Dwarf_Addr from = s > c->pc + 1 ? s : c->pc + 1;

		if (from < e && from <= hi && (!bops || from < best)) {
			best = from;
			bops = ops;
			bn = nops;
		}
	}
	/* (perf looks at the first operation only) */
	return bops && bn && !expr_to_loc(f, bops, 1, c->sp, best, &l);
}

/*
 * Add "TYPE\tNAME" of each variable of @scope available at the pc (@ext:
 * the globals of the CU).  With --range, "[VAL]", "[INV]" (available
 * further on) or "[EXT]" first and the variable's range last.
 */
static int collect_vars(struct finder *f, struct argctx *c, Dwarf_Die *scope, bool ext,
			char ***v, int *n)
{
	const bool range = f->o->range;
	Dwarf_Die d;

	if (dwarf_child(scope, &d))
		return 0;
	do {
		Dwarf_Attribute a;
		Dwarf_Op *ops;
		size_t nops;
		Dwarf_Die t;
		const char *name = dwarf_diename(&d), *mark = "";
		char tn[256], line[1024], **nv;
		struct loc l;
		int at;

		if (!var_tag(&d) || !name)
			continue;
		if (!dwarf_attr_integrate(&d, DW_AT_location, &a)) {
			/* a declared global: perf lists it (it is fetched by name) */
			if (!dwarf_hasattr_integrate(&d, DW_AT_external) || (range && !ext))
				continue;
			mark = ext ? "[EXT]\t" : "[VAL]\t";
		} else if ((at = dwarf_getlocation_addr(&a, c->pc, &ops, &nops, 1)) == 1 &&
			   !expr_to_loc(f, ops, nops, c->sp, c->pc, &l)) {
			mark = ext ? "[EXT]\t" : "[VAL]\t";
		} else if (range && at == 0 && !ext && dwarf_tag(&d) == DW_TAG_variable &&
			   later_loc(f, c, &a)) {
			mark = "[INV]\t";
		} else {
			continue;
		}
		type_name(die_type(&d, &t), tn, sizeof(tn));
		snprintf(line, sizeof(line), "%s%s\t%s", range ? mark : "", tn, name);
		if (range && !ext)
			append_range(c, &d, &a, line, sizeof(line));
		nv = realloc(*v, (size_t)(*n + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		*v = nv;
		if (!(nv[*n] = strdup(line)))
			return -ENOMEM;
		(*n)++;
	} while (dwarf_siblingof(&d, &d) == 0);
	return 0;
}

/* -V: "\t@<func+off>" then the sorted variables. */
static int print_vars(struct finder *f, struct argctx *c)
{
	char **v = NULL;
	int n = 0, ret = 0, shown = 0;

	for (int i = c->fn_scope; !ret && i >= 0; i--)
		ret = collect_vars(f, c, &c->scopes[i], false, &v, &n);
	if (!ret && f->o->externs)
		ret = collect_vars(f, c, c->cu, true, &v, &n);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_str);
	fprintf(f->vars_fp, "\t@<%s>\n", c->where);
	for (int i = 0; i < n; i++) {
		/* perf filters what follows the first tab: the name, or with
		 * --range the type, name and range */
		if ((i && !strcmp(v[i], v[i - 1])) || (f->o->var_filter &&
		    !probe_filter__match(f->o->var_filter, strchr(v[i], '\t') + 1)))
			continue;
		fprintf(f->vars_fp, "\t\t%s\n", v[i]);
		shown++;
	}
	if (!shown)
		fprintf(f->vars_fp, "\t\t(No matched variables)\n");
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return ret ? fail(f, ret, "out of memory") : 0;
}

static int add_point(struct finder *f, Dwarf_Die *cu, Dwarf_Die *fn, Dwarf_Addr pc,
		     Dwarf_Addr entry)
{
	struct probe_point *p;
	struct argctx c;
	char args[4096];
	size_t len = 0;
	int ret;

	for (int i = 0; i < f->nr; i++)
		if (f->pts[i].addr == pc)
			return 0;
	if (f->nr >= f->o->max_probes)
		return fail(f, -E2BIG, "'%s' has more than %d probe points: raise "
			    "--max-probes", f->def->func ?: f->def->file, f->o->max_probes);
	ret = argctx_init(f, &c, cu, fn, pc, entry);
	if (!ret && f->vars_fp)
		ret = print_vars(f, &c);
	args[0] = '\0';
	for (int i = 0; !ret && i < f->def->nr_args; i++)
		ret = convert_one(f, &c, &f->def->args[i], args, sizeof(args), &len);
	free(c.scopes);
	if (ret)
		return ret;
	p = realloc(f->pts, (size_t)(f->nr + 1) * sizeof(*p));
	if (!p)
		return fail(f, -ENOMEM, "out of memory");
	f->pts = p;
	p = &f->pts[f->nr++];
	memset(p, 0, sizeof(*p));
	p->addr = pc;
	p->fetchargs = strdup(args);
	p->func = strdup(dwarf_diename(fn) ?: "");
	p->file = strdup(decl_file(fn) ?: "");
	p->func_offset = pc - entry;
	p->inlined = dwarf_tag(fn) == DW_TAG_inlined_subroutine;
	{
		Dwarf_Line *l = dwarf_getsrc_die(cu, pc);

		if (l)
			dwarf_lineno(l, &p->line);
	}
	if (!p->fetchargs || !p->func || !p->file)
		return fail(f, -ENOMEM, "out of memory");
	return 0;
}

struct line_points {
	struct finder *f;
	Dwarf_Die *cu, *fn;
	const char *file;
	int line;
	Dwarf_Addr entry;
};

static int line_point_row(const struct cu_line *r, void *arg)
{
	struct line_points *lp = arg;

	if (!r->probe || r->line != lp->line || !r->src || strcmp(r->src, lp->file) ||
	    dwarf_haspc(lp->fn, r->addr) != 1)
		return 0;
	return add_point(lp->f, lp->cu, lp->fn, r->addr, lp->entry);
}

/* Every statement row of line @line (file @file) inside @fn; 1 if none. */
static int add_line_points(struct finder *f, Dwarf_Die *cu, Dwarf_Die *fn, const char *file,
			   int line, Dwarf_Addr entry)
{
	struct line_points lp = { f, cu, fn, file, line, entry };
	int before = f->nr, ret = for_each_cu_line(cu, line_point_row, &lp);

	return ret ?: f->nr > before ? 0 : 1;
}

/* Does source line @line match the lazy glob (spaces ignored, from its start)? */
static bool lazy_match(const char *pattern, const char *line)
{
	char pat[512], text[1024];
	size_t n = 0, m = 0;

	for (; *pattern && m + 2 < sizeof(pat); pattern++)
		if (*pattern != ' ' && *pattern != '\t')
			pat[m++] = *pattern;
	pat[m] = '\0';
	for (; *line && n + 1 < sizeof(text); line++)
		if (*line != ' ' && *line != '\t' && *line != '\n')
			text[n++] = *line;
	text[n] = '\0';
	return !fnmatch(pat, text, 0);
}

/* The compilation directory of unit @cu, NULL if it names none. */
static const char *comp_dir(Dwarf_Die *cu)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
}

/*
 * Where to read source @path: itself, or with a prefix (-s, else @dir, the
 * unit's compilation directory, for a relative @path) the first of
 * PREFIX/PATH, then PATH without its leading folders one by one, that
 * exists (perf's search, and its spelling "PREFIX//file.c").  Malloc'ed;
 * NULL (with the message set) when none is found.
 */
static char *real_source(struct finder *f, const char *path, const char *dir)
{
	const char *prefix = f->source_prefix ?: path[0] != '/' ? dir : NULL;
	char *p = NULL;

	if (!prefix) {
		if (access(path, R_OK))
			return fail(f, -errno, "cannot read the source '%s': %s (its folder "
				    "may be given with --source)", path, strerror(errno)), NULL;
		return strdup(path) ?: (fail(f, -ENOMEM, "out of memory"), NULL);
	}
	for (const char *tail = path; tail; tail = strchr(tail + 1, '/')) {
		if (asprintf(&p, "%s/%s", prefix, tail) < 0)
			return fail(f, -ENOMEM, "out of memory"), NULL;
		if (!access(p, R_OK))
			return p;
		free(p);
	}
	if (f->source_prefix)
		fail(f, -ENOENT, "cannot find the source '%s' under '%s' (--source)", path,
		     prefix);
	else
		fail(f, -ENOENT, "cannot find the source '%s' under its compilation folder "
		     "'%s' (its folder may be given with --source)", path, prefix);
	return NULL;
}

/*
 * A source file is read a line at a time, and only a regular one (a FIFO
 * or a device where the source should be would block or never end); a
 * line may be SOURCE_LINE_MAX bytes long.
 */
#define SOURCE_LINE_MAX (1 << 20)

static const char *source_strerror(int err)
{
	return err == EINVAL ? "not a regular file" : strerror(err);
}

/* The next line of source @real, > 0; 0 at its end; < 0 with the message set. */
static int source_line(struct finder *f, const char *real, int ln, char **buf, size_t *cap,
		       FILE *src)
{
	ssize_t n = file__getline(buf, cap, src, SOURCE_LINE_MAX);

	if (n >= 0)
		return n > 0;
	if (errno == EOVERFLOW)
		return fail(f, -EFBIG, "line %d of the source '%s' is longer than %d MiB", ln + 1,
			    real, SOURCE_LINE_MAX >> 20);
	return fail(f, -errno, "cannot read the source '%s': %s", real, strerror(errno));
}

/* Call @fn for each line of @path in [@first, @last] matching the pattern. */
static int for_each_lazy_line(struct finder *f, const char *path, const char *dir, int first,
			      int last, int (*fn)(struct finder *f, int line, void *arg), void *arg)
{
	char *real = real_source(f, path, dir);
	FILE *src = real ? file__fopen(real, -1, NULL) : NULL;
	char *buf = NULL;
	size_t cap = 0;
	int ln = 0, ret = 0;

	if (!src) {
		if (real)
			ret = fail(f, -errno, "cannot read the source '%s' for the pattern "
				   "'%s': %s", real, f->def->lazy, source_strerror(errno));
		free(real);
		return real ? ret : f->err ?: -ENOENT;
	}
	while (!ret && (ret = source_line(f, real, ln, &buf, &cap, src)) > 0) {
		ret = 0;
		if (++ln < first)
			continue;
		if (last && ln > last)
			break;
		if (lazy_match(f->def->lazy, buf))
			ret = fn(f, ln, arg);
	}
	free(real);
	free(buf);
	fclose(src);
	return ret;
}

struct lazy_fn {
	struct finder *f;
	Dwarf_Die *cu, *fn;
	Dwarf_Addr entry;
	const char *file;
	unsigned char *match;	/* match[line]: the line matches the pattern */
	int max;
};

static int lazy_match_line(struct finder *f, int line, void *arg)
{
	struct lazy_fn *l = arg;

	if (line >= l->max) {
		int max = line * 2 + 64;
		unsigned char *m = realloc(l->match, (size_t)max);

		if (!m)
			return fail(f, -ENOMEM, "out of memory");
		memset(m + l->max, 0, (size_t)(max - l->max));
		l->match = m, l->max = max;
	}
	l->match[line] = 1;
	return 0;
}

static bool lazy_matches(struct lazy_fn *l, const char *file, int line)
{
	return line > 0 && line < l->max && l->match[line] && file && !strcmp(file, l->file);
}

/* perf's walk: the statement rows of the function, in address order */
static int lazy_row(const struct cu_line *r, void *arg)
{
	struct lazy_fn *l = arg;

	if (!r->stmt || !lazy_matches(l, r->src, r->line) || dwarf_haspc(l->fn, r->addr) != 1 ||
	    !own_row(l->cu, l->fn, r))
		return 0;
	return add_point(l->f, l->cu, l->fn, r->addr, l->entry);
}

struct last_line {
	Dwarf_Die *fn;
	const char *file;
	int last;
};

static int last_line_row(const struct cu_line *r, void *arg)
{
	struct last_line *ll = arg;

	if (r->src && !strcmp(r->src, ll->file) && r->line > ll->last &&
	    dwarf_haspc(ll->fn, r->addr) == 1)
		ll->last = r->line;
	return 0;
}

/*
 * After the rows, perf's walk gives the calls of the functions inlined in
 * @scope (not in those) as their call lines at their entries.
 */
static int lazy_calls(struct lazy_fn *l, Dwarf_Die *scope)
{
	Dwarf_Files *files;
	Dwarf_Die d;
	int ret = 0;

	if (dwarf_child(scope, &d) || dwarf_getsrcfiles(l->cu, &files, NULL))
		return 0;
	do {
		int tag = dwarf_tag(&d);
		Dwarf_Attribute a;
		Dwarf_Word file, line;
		Dwarf_Addr pc;

		if (tag == DW_TAG_lexical_block)
			ret = lazy_calls(l, &d);
		else if (tag == DW_TAG_inlined_subroutine &&
			 !dwarf_formudata(dwarf_attr(&d, DW_AT_call_file, &a), &file) &&
			 !dwarf_formudata(dwarf_attr(&d, DW_AT_call_line, &a), &line) &&
			 lazy_matches(l, dwarf_filesrc(files, file, NULL, NULL), (int)line) &&
			 !entry_pc(&d, &pc))
			ret = add_point(l->f, l->cu, l->fn, pc, l->entry);
	} while (!ret && dwarf_siblingof(&d, &d) == 0);
	return ret;
}

/* The last line with code of @fn in @file. */
static int last_line(Dwarf_Die *cu, Dwarf_Die *fn, const char *file)
{
	struct last_line ll = { fn, file, 0 };

	for_each_cu_line(cu, last_line_row, &ll);
	return ll.last;
}

/* FUNC;PTN: every line of the function matching the pattern. */
static int add_lazy_points(struct finder *f, Dwarf_Die *cu, Dwarf_Die *fn, Dwarf_Addr entry)
{
	struct lazy_fn l = { f, cu, fn, entry, decl_file(fn), NULL, 0 };
	int decl = 0, before = f->nr, ret;

	if (!l.file)
		return 0;
	dwarf_decl_line(fn, &decl);
	ret = for_each_lazy_line(f, l.file, comp_dir(cu), decl, last_line(cu, fn, l.file),
				 lazy_match_line, &l);
	if (!ret && l.max)
		ret = for_each_cu_line(cu, lazy_row, &l);
	if (!ret && l.max && lazy_matches(&l, l.file, decl))	/* its declaration line */
		ret = add_point(f, cu, fn, entry, entry);
	if (!ret && l.max)
		ret = lazy_calls(&l, fn);
	free(l.match);
	if (!ret && f->nr == before)
		f->target_line = -1;	/* no line matched: said by find_points() */
	return ret;
}

static bool fetches_vars(const struct probe_def *d)
{
	for (int i = 0; i < d->nr_args; i++)
		if (d->args[i].kind == PROBE_ARG_VAR || d->args[i].kind == PROBE_ARG_PARAMS ||
		    d->args[i].kind == PROBE_ARG_VARS)
			return true;
	return false;
}

/* The (C++) linkage name of function @die, NULL if it has none. */
static const char *linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_linkage_name, &a) &&
	    !dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		return NULL;
	return dwarf_formstring(&a);
}

/* Is function @die (named @name) the @func of a definition (C++ too)? */
static bool name_matches(Dwarf_Die *die, const char *name, const char *func)
{
	const char *linkage;

	if (!probe_cxx__qualified(func))	/* its name, or its mangled name, as perf */
		return !strcmp(name, func) ||
		       (!strncmp(func, "_Z", 2) && (linkage = linkage_name(die)) &&
			!strcmp(linkage, func));
	linkage = linkage_name(die);
	return linkage && probe_cxx__match(func, linkage);
}

static int probe_func(struct finder *f, Dwarf_Die *die, Dwarf_Die *cu);

static int match_func(struct finder *f, Dwarf_Die *die, Dwarf_Die *cu)
{
	const char *name = dwarf_diename(die);

	if (!name || !name_matches(die, name, f->def->func))
		return 0;
	return probe_func(f, die, cu);
}

/*
 * The function whose code holds @addr: a function of the unit, as perf's
 * die_find_realfunc() (libdw's scopes go from an inlined copy to its
 * abstract parents instead), else the innermost subprogram libdw's scopes
 * give (LTO units, whose functions sit under other DIEs).  0 or -ENOENT.
 */
static int real_func_die(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *cu, Dwarf_Die *fn)
{
	Dwarf_Die die, *scopes;
	int n, ret = -ENOENT;

	if (!dwarf_addrdie(dw, addr, cu))
		return -ENOENT;
	if (dwarf_child(cu, &die) == 0) {
		do {
			if (dwarf_tag(&die) == DW_TAG_subprogram && dwarf_haspc(&die, addr) > 0) {
				*fn = die;
				return 0;
			}
		} while (dwarf_siblingof(&die, &die) == 0);
	}
	n = dwarf_getscopes(cu, addr, &scopes);
	for (int k = 0; k < n && ret; k++)
		if (dwarf_tag(&scopes[k]) == DW_TAG_subprogram) {
			*fn = scopes[k];
			ret = 0;
		}
	if (n > 0)
		free(scopes);
	return ret;
}

/*
 * The function entered at def->func_addr (probe__alternative()'s point):
 * libdw's innermost subprogram there first (the one its scopes work in:
 * LTO's copies of a function of another unit), else the unit's function.
 */
static int find_func_at_addr(struct finder *f)
{
	Dwarf_Addr entry, addr = f->def->func_addr;
	Dwarf_Die cu, fn, *scopes;
	bool found = false;
	int n;

	if (!dwarf_addrdie(f->dw, addr, &cu))
		return 0;
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (int k = 0; k < n && !found; k++)
		if (dwarf_tag(&scopes[k]) == DW_TAG_subprogram) {
			fn = scopes[k];
			found = !entry_pc(&fn, &entry) && entry == addr;
		}
	if (n > 0)
		free(scopes);
	if (!found && (real_func_die(f->dw, addr, &cu, &fn) || entry_pc(&fn, &entry) ||
		       entry != addr))
		return 0;
	f->nr_funcs++;
	return probe_func(f, &fn, &cu);
}

/* Is @pc in one of @die's address ranges, after @entry (no wrap-around)? */
static bool in_func(Dwarf_Die *die, Dwarf_Addr entry, Dwarf_Addr pc)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	if (pc < entry)
		return false;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (pc >= start && pc < end)
			return true;
	return false;
}

/* The bytes of @die's range that starts at or holds @entry (0: unknown). */
static uint64_t func_size(Dwarf_Die *die, Dwarf_Addr entry)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (entry >= start && entry < end)
			return end - start;
	return 0;
}

/*
 * FUNC+OFFS at @pc must start an instruction: decoded from @entry, or from
 * the start of the range holding @pc when that is another (a .cold part).
 */
static int on_boundary(struct finder *f, Dwarf_Die *die, Dwarf_Addr entry, Dwarf_Addr pc)
{
	Dwarf_Addr base, start, end;
	const char *name = f->def->func;
	ptrdiff_t off = 0;
	char msg[512];
	int ret;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (pc >= start && pc < end)
			break;
	if (off <= 0)
		return 0;	/* (in_func() found it) */
	if (entry >= start && entry < end)
		start = entry;
	if (strpbrk(name, "*?["))	/* a glob: the function it matched */
		name = dwarf_diename(die) ?: name;
	ret = probe_insn__check(f->pe, name, entry, start, end, pc, 0, msg, sizeof(msg));
	return ret ? fail(f, ret, "%s", msg) : 0;
}

/* Probe function instance @die (its name matched). */
static int probe_func(struct finder *f, Dwarf_Die *die, Dwarf_Die *cu)
{
	const struct probe_def *d = f->def;
	bool inl = dwarf_tag(die) == DW_TAG_inlined_subroutine;
	Dwarf_Addr entry, pc;
	int ret;

	if (!has_code(die) || entry_pc(die, &entry))
		return 0;
	if (d->file && !path_matches(decl_file(die), d->file))
		return 0;
	if (inl && (f->o->no_inlines || d->retprobe || d->offset))
		return 0;
	f->nr_funcs++;
	if (d->lazy)
		return add_lazy_points(f, cu, die, entry);
	if (d->line) {
		int decl = 0;

		dwarf_decl_line(die, &decl);
		f->target_line = decl + d->line;
		f->target_file = decl_file(die);
		if (!f->target_file)
			return fail(f, -ENOENT, "no source file for '%s'", d->func);
		ret = add_line_points(f, cu, die, f->target_file, f->target_line, entry);
		return ret > 0 ? 0 : ret;
	}
	pc = entry + d->offset;
	if (d->offset && !in_func(die, entry, pc))
		return fail(f, -ENOENT, "offset %" PRIu64 " is beyond function '%s' (%" PRIu64
			    " bytes)", d->offset, d->func, func_size(die, entry));
	if (d->offset) {
		ret = on_boundary(f, die, entry, pc);
		if (ret)
			return ret;
	}
	/* perf skips the prologue only for probes fetching variables */
	if (!inl && !d->offset && !d->retprobe && !cu_optimized(cu) && !f->vars_fp &&
	    fetches_vars(d))
		pc = skip_prologue(cu, die, entry);
	return add_point(f, cu, die, pc, entry);
}

static int find_funcs_in_cu(struct finder *f, Dwarf_Die *cu)
{
	return walk_dies(f, cu, cu, match_func);
}

/* The function instance (innermost) containing @pc. */
static int func_at(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf_Die *scopes;
	int n = dwarf_getscopes(cu, pc, &scopes), ret = -ENOENT;

	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			*out = scopes[i];
			ret = 0;
			break;
		}
	}
	if (n > 0)
		free(scopes);
	return ret;
}

struct src_line {
	struct finder *f;
	Dwarf_Die *cu;
};

static int src_line_row(const struct cu_line *r, void *arg)
{
	struct src_line *sl = arg;
	struct finder *f = sl->f;
	Dwarf_Addr entry;
	Dwarf_Die fn;

	if (!r->probe || r->line != f->src_line || !path_matches(r->src, f->def->file))
		return 0;
	f->nr_funcs++;
	if (func_at(sl->cu, r->addr, &fn) || entry_pc(&fn, &entry))
		return 0;
	return add_point(f, sl->cu, &fn, r->addr, entry);
}

static int find_src_line_in_cu(struct finder *f, Dwarf_Die *cu)
{
	struct src_line sl = { f, cu };

	return for_each_cu_line(cu, src_line_row, &sl);
}

struct nearby {
	const char *file;
	bool exact;
	int line, below, above;
};

static int nearby_row(const struct cu_line *r, void *arg)
{
	struct nearby *nb = arg;
	int ln = r->line;

	if (!r->src || !ln ||
	    (nb->exact ? strcmp(r->src, nb->file) != 0 : !path_matches(r->src, nb->file)))
		return 0;
	if (ln < nb->line && ln > nb->below)
		nb->below = ln;
	if (ln > nb->line && (!nb->above || ln < nb->above))
		nb->above = ln;
	return 0;
}

static int nearby_in_cu(struct finder *f, Dwarf_Die *cu)
{
	return for_each_cu_line(cu, nearby_row, (void *)f->target_file);
}

static void no_code_message(struct finder *f, const char *file, bool exact, int line)
{
	struct nearby nb = { .file = file, .exact = exact, .line = line };
	const char *saved = f->target_file;
	char near[64] = "";

	f->target_file = (const char *)&nb;
	for_each_cu(f, nearby_in_cu);
	f->target_file = saved;
	if (nb.below && nb.above)
		snprintf(near, sizeof(near), "; lines with code nearby: %d, %d", nb.below, nb.above);
	else if (nb.below || nb.above)
		snprintf(near, sizeof(near), "; nearest line with code: %d", nb.below ?: nb.above);
	fail(f, -ENOENT, "line %d of '%s' has no code%s", line, file, near);
}

/*
 * The line of @addr as perf names it: the first row at exactly @addr that
 * begins a statement (0 if none: the place is then FUNC+OFFSET).
 */
struct line_at {
	Dwarf_Addr addr;
	int line;
};

static int line_at_row(const struct cu_line *r, void *arg)
{
	struct line_at *la = arg;

	if (r->addr > la->addr)		/* rows are sorted by address */
		return 1;
	if (r->addr == la->addr && r->stmt) {
		la->line = r->line;
		return 1;
	}
	return 0;
}

static int line_at(Dwarf_Die *cu, Dwarf_Addr addr)
{
	struct line_at la = { addr, 0 };

	for_each_cu_line(cu, line_at_row, &la);
	return la.line;
}

int probe_finder__addr_info(struct probe_elf *pe, uint64_t addr, char **func,
			    uint64_t *offset, char **file, int *line)
{
	Dwarf *dw = open_dwarf(pe);
	Dwarf_Die cu, fn;
	Dwarf_Addr entry;
	int ln = 0, decl = 0, ret = -ENOENT;

	if (!dw)
		return -ENODATA;
	if (dwarf_addrdie(dw, addr, &cu) && func_at(&cu, addr, &fn) == 0 &&
	    entry_pc(&fn, &entry) == 0) {
		ln = line_at(&cu, addr);
		dwarf_decl_line(&fn, &decl);
		*func = strdup(linkage_name(&fn) ?: dwarf_diename(&fn) ?: "");
		*file = strdup(decl_file(&fn) ?: "");
		*offset = addr - entry;
		*line = ln && decl && addr != entry ? ln - decl : 0;
		ret = *func && *file ? 0 : -ENOMEM;
		if (ret) {
			free(*func);
			free(*file);
		}
	}
	dwarf_end(dw);
	return ret;
}


int probe_finder__real_func_at(struct probe_elf *pe, uint64_t addr, char **func, char **file,
			       uint64_t *entry)
{
	Dwarf *dw = open_dwarf(pe);
	Dwarf_Die cu, fn;
	Dwarf_Addr pc;
	int ret = -ENOENT;

	if (!dw)
		return -ENODATA;
	if (!real_func_die(dw, addr, &cu, &fn) && dwarf_diename(&fn) && entry_pc(&fn, &pc) == 0) {
		*func = strdup(dwarf_diename(&fn));
		*file = decl_file(&fn) ? strdup(decl_file(&fn)) : NULL;
		*entry = pc;
		ret = *func ? 0 : -ENOMEM;
	}
	dwarf_end(dw);
	return ret;
}

static int src_lazy_line(struct finder *f, int line, void *arg)
{
	f->src_line = line;
	return for_each_cu(f, find_src_line_in_cu);
}

struct src_path {
	char *path;		/* malloc'ed */
	const char *dir;	/* its unit's compilation folder */
};

/* The full path of the source @file (a path tail) from the line tables. */
static int src_path_in_cu(struct finder *f, Dwarf_Die *cu)
{
	struct src_path *sp = (struct src_path *)f->target_file;
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = dwarf_filesrc(files, i, NULL, NULL);

		if (p && path_matches(p, f->def->file)) {
			sp->path = strdup(p);
			sp->dir = comp_dir(cu);
			return 1;
		}
	}
	return 0;
}

/* SRC;PTN: every line of the file matching the pattern. */
static int find_src_lazy(struct finder *f)
{
	struct src_path sp = { 0 };
	int ret;

	f->target_file = (const char *)&sp;
	for_each_cu(f, src_path_in_cu);
	f->target_file = NULL;
	if (!sp.path)
		return fail(f, -ENOENT, "no source file '%s' in the debug information",
			    f->def->file);
	ret = for_each_lazy_line(f, sp.path, sp.dir, 1, 0, src_lazy_line, NULL);
	free(sp.path);
	return ret;
}

static void finder_exit(struct finder *f)
{
	if (f->eh_cfi)
		dwarf_cfi_end(f->eh_cfi);
	dwarf_end(f->dw);
}

static int find_points(struct finder *f)
{
	int ret;

	if (f->def->func) {
		/* a name the DWARF lacks: probe-resolve.c's symbol fallbacks */
		ret = f->def->func_at_addr ? find_func_at_addr(f) :
		      for_each_cu_naming(f, f->def->func, find_funcs_in_cu);
	} else if (f->def->lazy)
		ret = find_src_lazy(f);
	else {
		f->src_line = f->def->line;
		ret = for_each_cu(f, find_src_line_in_cu);
	}
	if (!ret && !f->nr && f->def->lazy && (f->nr_funcs || !f->def->func)) {
		ret = fail(f, -ENOENT, "no line with code matches the pattern '%s' in '%s'",
			   f->def->lazy, f->def->func ?: f->def->file);
	} else if (!ret && !f->nr) {
		if (f->def->func && !f->nr_funcs)
			ret = fail(f, -ESRCH, "no function '%s'%s%s in the debug information",
				   f->def->func, f->def->file ? "@" : "", f->def->file ?: "");
		else if (f->def->func)
			no_code_message(f, f->target_file, true, f->target_line), ret = f->err;
		else
			no_code_message(f, f->def->file, false, f->def->line), ret = f->err;
	}
	return f->err ?: ret;
}

int probe_finder__find(struct probe_elf *pe, const struct probe_def *def,
		       const struct probe_finder_opts *o, struct probe_point **pts, int *nr,
		       char *msg, size_t size)
{
	struct finder f = { .pe = pe, .def = def, .o = o, .msg = msg, .size = size,
			    .source_prefix = o->source_prefix };
	int ret;

	msg[0] = '\0';
	f.dw = open_dwarf(pe);
	if (!f.dw)
		return -ENODATA;
	ret = find_points(&f);
	finder_exit(&f);
	if (ret) {
		probe_points__free(f.pts, f.nr);
		return ret;
	}
	*pts = f.pts;
	*nr = f.nr;
	return 0;
}

int probe_finder__show_vars(struct probe_elf *pe, const struct probe_def *def,
			    const struct probe_finder_opts *o, const char *title, FILE *fp,
			    char *msg, size_t size)
{
	struct finder f = { .pe = pe, .def = def, .o = o, .msg = msg, .size = size,
			    .source_prefix = o->source_prefix };
	char *out = NULL;
	size_t len = 0;
	int ret;

	msg[0] = '\0';
	f.dw = open_dwarf(pe);
	if (!f.dw)
		return -ENODATA;
	f.vars_fp = open_memstream(&out, &len);
	if (!f.vars_fp) {
		finder_exit(&f);
		return fail(&f, -ENOMEM, "out of memory");
	}
	ret = find_points(&f);
	finder_exit(&f);
	probe_points__free(f.pts, f.nr);
	fclose(f.vars_fp);
	if (!ret)	/* nothing of a probe point that is not found */
		fprintf(fp, "Available variables at %s%s\n%s", def->func ? "" : "@", title,
			out);
	free(out);
	return ret;
}

/* ---- -L: source lines ---- */

struct line_set {
	const char *file;	/* the source, exact (function mode) or suffix */
	bool exact;
	Dwarf_Die *fns;		/* function mode: rows inside these instances only */
	int nr_fns;
	char *path;		/* the file's full path as DWARF names it */
	const char *dir;	/* the compilation folder of its unit */
	Dwarf_Die *cu;		/* the unit being read */
	unsigned char *has;	/* has[line]: a probe can go there */
	int max, last;		/* size of has[]; last line with code */
	/* function entries of the file: their rows count for the decl line */
	Dwarf_Addr *entries;
	int *decls, nr_entries;
};

static void mark_line(struct line_set *ls, int line)
{
	if (line <= 0)
		return;
	if (line >= ls->max) {
		int max = line * 2 + 64;
		unsigned char *h = realloc(ls->has, (size_t)max);

		if (!h)
			return;
		memset(h + ls->max, 0, (size_t)(max - ls->max));
		ls->has = h, ls->max = max;
	}
	ls->has[line] = 1;
}

static bool line_src_matches(struct line_set *ls, const char *src)
{
	return src && (ls->exact ? !strcmp(src, ls->file) : path_matches(src, ls->file));
}

static int collect_entry(struct finder *f, Dwarf_Die *die, Dwarf_Die *cu)
{
	struct line_set *ls = (struct line_set *)f->target_file;
	Dwarf_Addr entry;
	int decl;
	Dwarf_Addr *e;
	int *d;

	if (dwarf_tag(die) != DW_TAG_subprogram || !has_code(die) || entry_pc(die, &entry) ||
	    dwarf_decl_line(die, &decl) || !line_src_matches(ls, decl_file(die)))
		return 0;
	e = realloc(ls->entries, (size_t)(ls->nr_entries + 1) * sizeof(*e));
	if (e)
		ls->entries = e;
	d = realloc(ls->decls, (size_t)(ls->nr_entries + 1) * sizeof(*d));
	if (d)
		ls->decls = d;
	if (!e || !d)
		return -ENOMEM;
	ls->entries[ls->nr_entries] = entry;
	ls->decls[ls->nr_entries++] = decl;
	return 0;
}

static int collect_entries_in_cu(struct finder *f, Dwarf_Die *cu)
{
	return walk_dies(f, cu, cu, collect_entry);
}

/* Function mode: is row @r of one of the instances? */
static bool instance_row(struct line_set *ls, const struct cu_line *r)
{
	for (int i = 0; i < ls->nr_fns; i++)
		if (dwarf_haspc(&ls->fns[i], r->addr) == 1)
			return own_row(ls->cu, &ls->fns[i], r);
	return false;
}

static int collect_line_row(const struct cu_line *r, void *arg)
{
	struct line_set *ls = arg;
	int ln = r->line, k;

	if (!line_src_matches(ls, r->src) || !r->probe ||
	    (ls->nr_fns && !instance_row(ls, r)))
		return 0;
	if (!ls->path) {
		ls->path = strdup(r->src);
		ls->dir = comp_dir(ls->cu);
	}
	for (k = 0; k < ls->nr_entries && ls->entries[k] != r->addr; k++)
		;
	if (k < ls->nr_entries)
		ln = ls->decls[k];	/* an entry row stands for the decl line */
	if (ln > ls->last)
		ls->last = ln;
	mark_line(ls, ln);
	return 0;
}

static int collect_lines_in_cu(struct finder *f, Dwarf_Die *cu)
{
	struct line_set *ls = (struct line_set *)f->target_file;

	ls->cu = cu;
	return for_each_cu_line(cu, collect_line_row, ls);
}

static int print_source(struct finder *f, struct line_set *ls, const char *real, int first,
			int last, int base, FILE *fp)
{
	FILE *src = file__fopen(real, -1, NULL);
	char *buf = NULL;
	size_t cap = 0;
	int ln = 0, ret;

	if (!src)
		return fail(f, -errno, "cannot read the source '%s': %s", real,
			    source_strerror(errno));
	while ((ret = source_line(f, real, ln, &buf, &cap, src)) > 0) {
		if (++ln < first)
			continue;
		if (last && ln > last)
			break;
		buf[strcspn(buf, "\n")] = '\0';
		if (ln < ls->max && ls->has[ln])
			fprintf(fp, "%7d  %s\n", ln - base, buf);
		else
			fprintf(fp, "         %s\n", buf);
	}
	free(buf);
	fclose(src);
	return ret < 0 ? ret : 0;
}

struct func_query {
	const char *name, *file;
	Dwarf_Die die, cu;
	bool found;
};

static int find_first_func(struct finder *f, Dwarf_Die *die, Dwarf_Die *cu)
{
	struct func_query *q = (struct func_query *)f->target_file;
	const char *name = dwarf_diename(die);

	if (dwarf_tag(die) != DW_TAG_subprogram || !name || !name_matches(die, name, q->name) ||
	    dwarf_hasattr(die, DW_AT_declaration) || !(has_code(die) || dwarf_func_inline(die)) ||
	    (q->file && !path_matches(decl_file(die), q->file)))
		return 0;
	q->die = *die;
	q->cu = *cu;
	q->found = true;
	return 1;
}

static int find_first_func_in_cu(struct finder *f, Dwarf_Die *cu)
{
	return walk_dies(f, cu, cu, find_first_func);
}

struct instances {
	Dwarf_Off origin;	/* the abstract function */
	Dwarf_Die *dies;
	int nr;
};

static int collect_instance(struct finder *f, Dwarf_Die *die, Dwarf_Die *cu)
{
	struct instances *in = (struct instances *)f->target_file;
	Dwarf_Attribute a;
	Dwarf_Die o, *d;

	if (!has_code(die) || !dwarf_attr(die, DW_AT_abstract_origin, &a) ||
	    !dwarf_formref_die(&a, &o) || dwarf_dieoffset(&o) != in->origin)
		return 0;
	d = realloc(in->dies, (size_t)(in->nr + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	in->dies = d;
	d[in->nr++] = *die;
	return 0;
}

/*
 * The instances of function @fn in unit @cu: itself when it has code, else
 * (an abstract function, inlined or split into copies) every out-of-line
 * copy and inlined instance of it in @cu, as perf shows them.
 */
static int func_instances(struct finder *f, Dwarf_Die *cu, Dwarf_Die *fn,
			  struct instances *in)
{
	const char *saved = f->target_file;
	int ret;

	in->origin = dwarf_dieoffset(fn);
	if (has_code(fn)) {
		in->dies = malloc(sizeof(*in->dies));
		if (!in->dies)
			return -ENOMEM;
		in->dies[in->nr++] = *fn;
		return 0;
	}
	f->target_file = (const char *)in;
	ret = walk_dies(f, cu, cu, collect_instance);
	f->target_file = saved;
	return ret;
}

/* Function mode: the range relative to its declaration line. */
static int show_func_lines(struct finder *f, struct line_set *ls, const char *func,
			   const char *file, int start, int end, FILE *fp)
{
	struct func_query q = { .name = func, .file = file };
	struct instances in = { 0 };
	int decl = 0, ret;
	char *real;

	f->target_file = (const char *)&q;
	for_each_cu_naming(f, func, find_first_func_in_cu);
	if (!q.found)
		return fail(f, -ENOENT, "no function '%s'%s%s in the debug information", func,
			    file ? "@" : "", file ?: "");
	dwarf_decl_line(&q.die, &decl);
	ls->file = decl_file(&q.die);
	ls->exact = true;
	ls->path = ls->file ? strdup(ls->file) : NULL;
	if (!ls->path)
		return fail(f, -ENOENT, "no source file for '%s'", func);
	/* the rows inside the function are in its unit's line table only */
	ret = func_instances(f, &q.cu, &q.die, &in);
	f->target_file = (const char *)ls;
	ret = ret ?: collect_entries_in_cu(f, &q.cu);
	ls->fns = in.dies, ls->nr_fns = in.nr;
	ret = ret ?: in.nr ? collect_lines_in_cu(f, &q.cu) : 0;
	free(in.dies);
	ls->fns = NULL, ls->nr_fns = 0;
	if (ret)
		return fail(f, ret, "out of memory");
	if (has_code(&q.die))	/* an abstract one's: only where an entry row says */
		mark_line(ls, decl);
	real = real_source(f, ls->path, comp_dir(&q.cu));
	if (!real)
		return f->err;
	fprintf(fp, "<%s@%s:%d>\n", func, real, start);
	if (!end)	/* the whole function, and the 3 lines after it, as perf */
		end = (ls->last > decl ? ls->last - decl : 0) + 3;
	ret = print_source(f, ls, real, decl + start, decl + end, decl, fp);
	free(real);
	return ret;
}

int probe_finder__show_lines(struct probe_elf *pe, const char *func, const char *file,
			     int start, int end, bool relative, const char *source_prefix,
			     FILE *fp, char *msg, size_t size)
{
	struct finder f = { .pe = pe, .msg = msg, .size = size, .source_prefix = source_prefix };
	struct line_set ls = { .file = file };
	int ret;

	msg[0] = '\0';
	f.dw = open_dwarf(pe);
	if (!f.dw)
		return -ENODATA;
	if (relative && func) {
		ret = show_func_lines(&f, &ls, func, file, start, end, fp);
	} else {
		f.target_file = (const char *)&ls;
		ret = for_each_cu(&f, collect_entries_in_cu);
		ret = ret ?: for_each_cu(&f, collect_lines_in_cu);
		if (!ret && !ls.path)
			ret = fail(&f, -ENOENT, "no source file '%s' in the debug information",
				   file);
		char *real = ret ? NULL : real_source(&f, ls.path, ls.dir);

		if (real) {
			fprintf(fp, "<%s:%d>\n", real, start);
			ret = print_source(&f, &ls, real, start, end, 0, fp);
			free(real);
		} else if (!ret) {
			ret = f.err;
		}
	}
	free(ls.path);
	free(ls.has);
	free(ls.entries);
	free(ls.decls);
	dwarf_end(f.dw);
	return f.err ?: ret;
}
