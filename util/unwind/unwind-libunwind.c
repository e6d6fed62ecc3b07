// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libunwind unwinder (built when libunwind-dev is present): one remote
 * address space per process (unw_create_addr_space with a global cache),
 * whose accessors read the current sample: registers from the sample,
 * memory from the stack copy or the mapped files, and the unwind tables
 * from each DSO's .eh_frame_hdr binary search table (libunwind exports no
 * .debug_frame lookup for remote address spaces).
 */
#ifdef HAVE_LIBUNWIND
#include <elf.h>
#include <errno.h>
#include <gelf.h>
#include <libunwind.h>
#include <stdlib.h>
#include <string.h>

#include "util/unwind/unwind-internal.h"

/* Exported by libunwind for remote address spaces, not declared by its headers. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
					      unw_dyn_info_t *di, unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

struct eh_table {
	struct dso *dso;
	u64 hdr_vaddr, table_off, fde_count;
	bool ok;
};

struct lu_proc {
	struct unwinder *u;
	unw_addr_space_t as;
	struct eh_table *tabs;
	size_t nr_tabs, alloc_tabs;
};

/* The .eh_frame_hdr of @f: its address and the table's place and length. */
static bool find_eh_frame_hdr(const struct unwind_file *f, struct eh_table *t)
{
	Elf *elf = elf_memory((char *)f->data, f->size);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool ok = false;

	if (!elf)
		return false;
	if (elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		const u8 *h;
		u32 count;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".eh_frame_hdr"))
			continue;
		if (sh.sh_offset > f->size || f->size - sh.sh_offset < 12 || sh.sh_size < 12)
			break;
		h = f->data + sh.sh_offset;
		/* version 1; eh_frame_ptr 4 bytes; fde_count udata4; table datarel|sdata4 */
		if (h[0] != 1 || (h[1] & 0x0f) != 0x0b || h[2] != 0x03 || h[3] != 0x3b)
			break;
		memcpy(&count, h + 8, 4);
		if ((u64)count * 8 > sh.sh_size - 12)
			break;
		t->hdr_vaddr = sh.sh_addr;
		t->table_off = 12;
		t->fde_count = count;
		ok = true;
		break;
	}
out:
	elf_end(elf);
	return ok;
}

static struct eh_table *eh_table(struct lu_proc *p, struct dso *dso)
{
	struct unwind_file *f;
	struct eh_table *t;

	for (size_t i = 0; i < p->nr_tabs; i++)
		if (p->tabs[i].dso == dso)
			return p->tabs[i].ok ? &p->tabs[i] : NULL;
	if (unwind__room(&p->tabs, &p->alloc_tabs, p->nr_tabs, sizeof(*p->tabs), 16))
		return NULL;
	t = &p->tabs[p->nr_tabs++];
	memset(t, 0, sizeof(*t));
	t->dso = dso;
	f = unwind__file(p->u, dso);
	t->ok = f && find_eh_frame_hdr(f, t);
	return t->ok ? t : NULL;
}

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
			  int need_unwind_info, void *arg)
{
	struct unwind_ctx *c = arg;
	struct map *map = unwind__find_map(c, ip);
	unw_dyn_info_t di;
	struct eh_table *t;
	u64 bias;

	/*
	 * perf's bias, which can be another map's (unwind__perf_bias()).  No
	 * file or table is an error, as perf's glue returns it (-EINVAL, not
	 * -UNW_ENOINFO: libunwind then ends the chain instead of guessing a
	 * frame from %rbp).
	 */
	if (!map || map->identity || !unwind__map_bias(c->u, map, &bias) ||
	    !unwind__perf_bias(c, map, &bias))
		return -EINVAL;
	t = eh_table(c->proc, map->dso);
	if (!t)
		return -EINVAL;
	memset(&di, 0, sizeof(di));
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = map->start;
	di.end_ip = map->end;
	di.u.rti.segbase = bias + t->hdr_vaddr;
	di.u.rti.table_data = bias + t->hdr_vaddr + t->table_off;
	di.u.rti.table_len = t->fde_count * 8 / sizeof(unw_word_t);
	return dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
	(void)as;
	(void)pi;
	(void)arg;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dilap, void *arg)
{
	(void)as;
	(void)dilap;
	(void)arg;
	return -UNW_ENOINFO;
}

/*
 * Memory as perf's glue reads it: the stack copy but its last 8 bytes,
 * else the file mapped there, else 0 where there is a map at all (an
 * anonymous one, the stack past the copy).
 */
static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp, int write,
		      void *arg)
{
	struct unwind_ctx *c = arg;
	u64 v, off = addr - c->sp;

	(void)as;
	if (write)
		return -UNW_EINVAL;
	if (off < c->stack_end) {
		memcpy(&v, c->stack + off, 8);
	} else if (off < c->stack_size) {
		v = 0;		/* perf's copy ends 8 bytes early: the [stack] map, no file */
		c->truncated = true;
		if (!unwind__find_map(c, addr))
			return -UNW_EINVAL;
	} else if (unwind_ctx__read_file(c, addr, &v)) {
		if (!unwind__find_map(c, addr))
			return -UNW_EINVAL;
		v = 0;
	}
	*valp = v;
	return 0;
}

/* libunwind's x86_64 numbering: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip. */
static const int lu_to_perf[17] = {
	UREG_AX, UREG_DX, UREG_CX, UREG_BX, UREG_SI, UREG_DI, UREG_BP, UREG_SP,
	UREG_R8, UREG_R8 + 1, UREG_R8 + 2, UREG_R8 + 3, UREG_R8 + 4, UREG_R8 + 5,
	UREG_R8 + 6, UREG_R15, UREG_IP,
};

static int access_reg(unw_addr_space_t as, unw_regnum_t regnum, unw_word_t *valp, int write,
		      void *arg)
{
	u64 v;

	(void)as;
	if (write || regnum < 0 || regnum > 16 || !unwind_ctx__reg(arg, lu_to_perf[regnum], &v))
		return -UNW_EBADREG;
	*valp = v;
	return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t num, unw_fpreg_t *val, int write,
			void *arg)
{
	(void)as;
	(void)num;
	(void)val;
	(void)write;
	(void)arg;
	return -UNW_EBADREG;
}

static int resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	(void)as;
	(void)cu;
	(void)arg;
	return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *bufp, size_t buf_len,
			 unw_word_t *offp, void *arg)
{
	(void)as;
	(void)addr;
	(void)bufp;
	(void)buf_len;
	(void)offp;
	(void)arg;
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

static void *lu_proc_new(struct unwinder *u, int pid)
{
	struct lu_proc *p = calloc(1, sizeof(*p));

	(void)pid;
	if (!p)
		return NULL;
	p->u = u;
	p->as = unw_create_addr_space(&accessors, 0);
	if (!p->as) {
		free(p);
		return NULL;
	}
	unw_set_caching_policy(p->as, UNW_CACHE_GLOBAL);
	return p;
}

static void lu_proc_delete(void *priv)
{
	struct lu_proc *p = priv;

	unw_destroy_addr_space(p->as);
	free(p->tabs);
	free(p);
}

static int lu_unwind(void *priv, struct unwind_ctx *c)
{
	struct lu_proc *p = priv;
	unw_cursor_t cur;
	u64 ip = 0;
	int ret;

	c->proc = p;
	unwind_ctx__reg(c, UREG_IP, &ip);
	if (unwind_ctx__push(c, ip, true))	/* perf gives the IP frame in any case */
		return 0;
	if (unw_init_remote(&cur, p->as, c))
		return -EINVAL;
	while ((ret = unw_step(&cur)) > 0) {
		unw_word_t pc;

		if (unw_get_reg(&cur, UNW_REG_IP, &pc))
			return -EINVAL;
		if (unwind_ctx__push(c, pc, unw_is_signal_frame(&cur) > 0))
			return 0;
	}
	return ret < 0 ? -EINVAL : 0;
}

const struct unwind_backend unwind_libunwind_backend = {
	.proc_new = lu_proc_new,
	.proc_delete = lu_proc_delete,
	.unwind = lu_unwind,
};
#endif
