// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libdw unwinder: one Dwfl per process, attached once with callbacks
 * that read the current sample (registers from the sample, memory from
 * the stack copy or the mapped files), its modules reported as frames
 * reach them (dwfl_report_elf at the map's load bias) and kept with their
 * CFI (.eh_frame with .eh_frame_hdr, .debug_frame, separate debug files
 * by build-id and .gnu_debuglink) for every later sample of the process.
 *
 * On top of it, a cache of the CFI rule at each unwound address of each
 * DSO, shared by all processes (read from the DSO's own module, so a new
 * process costs no CFI or debug-file parsing): most
 * x86_64 frames are "CFA = register + offset, registers saved at CFA
 * offsets, same value or undefined", which the cache replays with two or
 * three memory reads per frame, as libdw's own step would compute them
 * (same registers set, same reads, same end and error cases).  A frame
 * whose rule is anything else (expressions, register copies, signal
 * frames, no CFI: libdw's frame-pointer fallback) sends the whole chain
 * to libunwind, as perf's (dw_unwind()), or without it to libdw's
 * unwinder.  TPERF_UNWIND_SLOW=1 turns the cache off.  One deliberate
 * difference: the cache keeps %rbx where libdw's x86_64 ABI rules lose
 * it (reg_rule()).
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/unwind/unwind-internal.h"

enum { R_SAME, R_UNDEF, R_OFFSET, R_VAL_OFFSET };
#define NR_DWREGS 17
#define RA_REG 16

/*
 * The CFI rule at one address of a DSO, in the form the cache replays:
 * the registers by kind, as bit masks and a list of the ones to read,
 * in register order (the order of libdw's reads).
 */
struct cfi_rule {
	struct dso *dso;
	u64 pc;				/* ELF virtual address */
	bool ok, no_cfi;
	u8 cfa_reg;
	u8 nr_read, nr_val;
	u32 same, undef;		/* R_SAME, R_UNDEF registers */
	int64_t cfa_off;
	u8 read_reg[NR_DWREGS], val_reg[NR_DWREGS];
	int64_t read_off[NR_DWREGS], val_off[NR_DWREGS];
};

/* Where no rule can be had (no map, no file, no module): as no CFI. */
static const struct cfi_rule no_rule = { .no_cfi = true };

struct dw_proc {
	struct unwinder *u;
	int pid;
	Dwfl *dwfl;
	bool attached, stale;
	struct unwind_ctx *cur;
	u64 state;			/* renewed with every module reported, and at a reset */
	u64 prev_lookup;		/* libdw's unwinding: the previous frame's CFI address */
	void *lu;			/* the libunwind backend's, for chains perf's bias breaks */
	bool no_cfi;			/* the chain reached an address without CFI */
	bool need_lu;			/* the chain needs more than the rule cache */
};

/*
 * The source of dw_proc states: unique over all processes, so that an
 * unwind_pc slot's proc_state says "report_module() found this address's
 * module in this process' Dwfl as it is now" (nothing else changes its
 * answer: the slot is for one map set).
 */
static u64 last_state;

static void dw_proc__changed(struct dw_proc *p)
{
	p->state = ++last_state;
}

#define RULE_CHUNK	512

/* A block of rules: they do not move, unwind_pc slots point to them. */
struct rule_chunk {
	struct rule_chunk *next;
	size_t used;
	struct cfi_rule r[RULE_CHUNK];
};

/* The rules of every DSO, for all processes: an open hash by (dso, pc). */
struct rule_cache {
	struct cfi_rule **rules;	/* NULL: free slot */
	size_t nr, alloc;
	struct rule_chunk *chunks;
};

static int slow_mode = -1;

static char *debuginfo_path;

static const Dwfl_Callbacks dw_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* The module at @pc, reported from the map there when new. */
static Dwfl_Module *report_module(struct dw_proc *p, u64 pc)
{
	struct map *map = unwind__find_map(p->cur, pc);
	struct unwind_file *f;
	Dwfl_Module *mod;
	void **user;
	u64 bias;

	if (!map || map->identity)
		return NULL;
	mod = dwfl_addrmodule(p->dwfl, pc);
	if (mod) {
		dwfl_module_info(mod, &user, NULL, NULL, NULL, NULL, NULL, NULL);
		if (*user != map->dso) {	/* another file there now */
			p->stale = true;
			return NULL;
		}
		return mod;
	}
	f = unwind__file(p->u, map->dso);
	if (!f || !unwind__map_bias(p->u, map, &bias))
		return NULL;
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, map->dso->short_name, f->path, -1, bias, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	dw_proc__changed(p);
	if (!mod)
		return NULL;
	dwfl_module_info(mod, &user, NULL, NULL, NULL, NULL, NULL, NULL);
	*user = map->dso;
	return dwfl_addrmodule(p->dwfl, pc) == mod ? mod : NULL;
}

/* Whether report_module() finds @pc's module, remembered in @pc's slot. */
static bool has_module(struct dw_proc *p, u64 pc)
{
	struct unwind_pc *slot = unwind__pc(p->cur, pc);

	if (slot && slot->proc_state == p->state)
		return true;
	if (!report_module(p, pc))
		return false;
	if (slot && (slot = unwind__pc(p->cur, pc)))
		slot->proc_state = p->state;
	return true;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct dw_proc *p = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = p;
	return p->pid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct dw_proc *p = arg;
	u64 v;

	(void)dwfl;
	if (unwind_ctx__read(p->cur, addr, &v))
		return false;
	*result = v;
	return true;
}

/* DWARF x86_64 numbering: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip. */
static const int dwarf_to_perf[17] = {
	UREG_AX, UREG_DX, UREG_CX, UREG_BX, UREG_SI, UREG_DI, UREG_BP, UREG_SP,
	UREG_R8, UREG_R8 + 1, UREG_R8 + 2, UREG_R8 + 3, UREG_R8 + 4, UREG_R8 + 5,
	UREG_R8 + 6, UREG_R15, UREG_IP,
};

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct dw_proc *p = arg;
	Dwarf_Word r[17];

	for (int i = 0; i < 17; i++) {
		u64 v = 0;

		unwind_ctx__reg(p->cur, dwarf_to_perf[i], &v);	/* absent: 0, as perf */
		r[i] = v;
	}
	return dwfl_thread_state_registers(thread, 0, 17, r);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Whether the CFI at @addr (of the process' module there) is a signal frame's. */
static bool signal_frame_at(struct dw_proc *p, u64 addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, addr);
	bool signal = false;

	for (int i = 0; mod && i < 2; i++) {
		Dwarf_Addr bias;
		Dwarf_CFI *cfi = i ? dwfl_module_dwarf_cfi(mod, &bias) : dwfl_module_eh_cfi(mod, &bias);
		Dwarf_Frame *frame;

		if (!cfi || dwarf_cfi_addrframe(cfi, addr - bias, &frame))
			continue;
		if (dwarf_frame_info(frame, NULL, NULL, &signal) < 0)
			signal = false;
		free(frame);
		break;
	}
	return signal;
}

/*
 * A frame of libdw's unwinding.  libdw calls a frame an activation (its pc
 * not a return address) when it or the frame before it is a signal frame;
 * libunwind, and so perf, only when the frame before it is: the signal
 * trampoline's own frame (__restore_rt's start, as the handler's return
 * address) is a return address there, shown one byte back.
 */
static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct dw_proc *p = arg;
	Dwarf_Addr pc;
	bool act;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(p, pc);	/* before isactivation: it unwinds one more */
	if (!dwfl_frame_pc(state, &pc, &act))
		return DWARF_CB_ABORT;
	if (!p->cur->nr)
		act = true;
	else if (act)
		act = signal_frame_at(p, p->prev_lookup);
	p->prev_lookup = act ? pc : pc - 1;
	return unwind_ctx__push(p->cur, pc, act) ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static void *dw_proc_new(struct unwinder *u, int pid)
{
	struct dw_proc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->u = u;
	p->pid = pid;
	dw_proc__changed(p);
	p->dwfl = dwfl_begin(&dw_callbacks);
	if (!p->dwfl) {
		free(p);
		return NULL;
	}
	return p;
}

static void dw_proc_delete(void *priv)
{
	struct dw_proc *p = priv;

	dwfl_end(p->dwfl);
#ifdef HAVE_LIBUNWIND
	if (p->lu)
		unwind_libunwind_backend.proc_delete(p->lu);
#endif
	free(p);
}

static void rules_delete(void *shared)
{
	struct rule_cache *rc = shared;

	while (rc->chunks) {
		struct rule_chunk *next = rc->chunks->next;

		free(rc->chunks);
		rc->chunks = next;
	}
	free(rc->rules);
	free(rc);
}

static void dw_reset(struct dw_proc *p)
{
	dwfl_end(p->dwfl);
	p->dwfl = dwfl_begin(&dw_callbacks);
	p->attached = false;
	p->stale = false;
	dw_proc__changed(p);
}

/* The rule of register @i from its CFI expression @ops: false when of another form. */
static bool reg_rule(struct cfi_rule *r, int i, const Dwarf_Op *ops, size_t nops)
{
	int64_t off = 0;
	bool val = false;

	if (!nops) {
		/*
		 * libdw's encoding.  Its x86_64 ABI rules (elfutils 0.188's
		 * backends/x86_64_cfi.c) give "same value" to DWARF register 0
		 * (%rax) where they mean %rbx (3), so a frame whose CFI leaves
		 * %rbx alone (a function at its entry) leaves it undefined, and
		 * a caller with CFA = %rbx + N (a stack-realigning one, such as
		 * ld.so's lazy-binding trampoline) ends the chain.  %rbx is
		 * callee-saved: kept, as libunwind (perf's unwinder) keeps it.
		 */
		if (ops && i == 3)
			ops = NULL;
		r->same |= ops ? 0 : 1U << i;
		r->undef |= ops ? 1U << i : 0;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	for (size_t k = 1; k < nops; k++) {
		if (ops[k].atom == DW_OP_plus_uconst && k == 1)
			off = (int64_t)ops[k].number;
		else if (ops[k].atom == DW_OP_stack_value && k == nops - 1)
			val = true;
		else
			return false;
	}
	if (val) {
		r->val_reg[r->nr_val] = (u8)i;
		r->val_off[r->nr_val++] = off;
	} else {
		r->read_reg[r->nr_read] = (u8)i;
		r->read_off[r->nr_read++] = off;
	}
	return true;
}

/* The rule of @frame in the cache's form; false when it has another form. */
static bool rule_from_frame(Dwarf_Frame *frame, struct cfi_rule *r)
{
	Dwarf_Op *ops, mem[3];
	size_t nops;
	bool signal;

	if (dwarf_frame_info(frame, NULL, NULL, &signal) < 0 || signal)
		return false;
	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1 || ops[0].atom != DW_OP_bregx ||
	    ops[0].number >= NR_DWREGS)
		return false;
	r->cfa_reg = (u8)ops[0].number;
	r->cfa_off = (int64_t)ops[0].number2;
	for (int i = 0; i < NR_DWREGS; i++)
		if (dwarf_frame_register(frame, i, mem, &ops, &nops) || !reg_rule(r, i, ops, nops))
			return false;
	return true;
}

/* libdw's order: .eh_frame, then .debug_frame. */
static void rule_lookup(Dwfl_Module *mod, u64 pc, bool debug_frame, struct cfi_rule *r)
{
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;
	Dwarf_Frame *frame;

	/* .debug_frame only when .eh_frame has no entry, and the files have one */
	for (int i = 0; i < 1 + debug_frame; i++) {
		cfi = i ? dwfl_module_dwarf_cfi(mod, &bias) : dwfl_module_eh_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame))
			continue;
		r->ok = rule_from_frame(frame, r);
		free(frame);
		return;
	}
	r->ok = false;
	r->no_cfi = true;
}

static size_t rule_hash(const struct dso *dso, u64 pc)
{
	return (size_t)(((u64)(uintptr_t)dso ^ pc * 0x9e3779b97f4a7c15ULL) >> 17);
}

static int rules_grow(struct rule_cache *rc)
{
	size_t n = rc->alloc ? 2 * rc->alloc : 1024, k;
	struct cfi_rule **a = calloc(n, sizeof(*a));

	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < rc->alloc; i++) {
		struct cfi_rule *r = rc->rules[i];

		if (!r)
			continue;
		for (k = rule_hash(r->dso, r->pc) & (n - 1); a[k]; k = (k + 1) & (n - 1))
			;
		a[k] = r;
	}
	free(rc->rules);
	rc->rules = a;
	rc->alloc = n;
	return 0;
}

/* A new rule, zeroed, in the chunks of @rc. */
static struct cfi_rule *rule_new(struct rule_cache *rc)
{
	struct rule_chunk *ch = rc->chunks;

	if (!ch || ch->used == RULE_CHUNK) {
		ch = malloc(sizeof(*ch));
		if (!ch)
			return NULL;
		ch->next = rc->chunks;
		ch->used = 0;
		rc->chunks = ch;
	}
	memset(&ch->r[ch->used], 0, sizeof(ch->r[0]));
	return &ch->r[ch->used++];
}

/* The rule at @vaddr of @dso, from the DSO's own module (shared by all processes). */
static const struct cfi_rule *rule_of(struct dw_proc *p, struct dso *dso, u64 vaddr)
{
	void **slot = unwind__shared(p->u);
	struct rule_cache *rc = *slot;
	Dwfl_Module *mod;
	struct cfi_rule *r;
	size_t k;

	if (!rc && !(rc = *slot = calloc(1, sizeof(*rc))))
		return NULL;
	if ((rc->nr + 1) * 2 > rc->alloc && rules_grow(rc))
		return NULL;
	for (k = rule_hash(dso, vaddr) & (rc->alloc - 1); rc->rules[k]; k = (k + 1) & (rc->alloc - 1))
		if (rc->rules[k]->pc == vaddr && rc->rules[k]->dso == dso)
			return rc->rules[k];
	mod = unwind__dso_module(p->u, dso);
	if (!mod || !(r = rule_new(rc)))
		return NULL;
	rc->rules[k] = r;
	r->dso = dso;
	r->pc = vaddr;
	rc->nr++;
	rule_lookup(mod, vaddr, unwind__dso_has_debug_frame(p->u, dso), r);
	return r;
}

/* The rule of the address of @pc (its map's file's CFI), found once per slot. */
static const struct cfi_rule *pc_rule(struct dw_proc *p, struct unwind_pc *pc)
{
	const struct cfi_rule *r = NULL;
	struct map *map = pc->map;
	struct unwind_file *f;
	u64 vaddr;

	if (pc->rule)
		return pc->rule;
	if (map && !map->identity && (f = unwind__file(p->u, map->dso)) &&
	    unwind_file__vaddr(f, pc->addr - map->start + map->pgoff, &vaddr))
		r = rule_of(p, map->dso, vaddr);
	pc->rule = r ? r : &no_rule;
	return pc->rule;
}

/*
 * The chain from the cached rules.  Return: 0 at its end (or when full),
 * -EINVAL when it stops on an error as libdw's would, 1 when a frame needs
 * libdw's unwinder.
 */
static int dw_fast(struct dw_proc *p, struct unwind_ctx *c)
{
	u64 regs[NR_DWREGS], cfa, pc;
	u32 set = (1U << NR_DWREGS) - 1, nset;
	bool first = true;

	for (int i = 0; i < NR_DWREGS; i++)
		regs[i] = c->regs[dwarf_to_perf[i]];	/* absent: 0, as set below */
	pc = regs[RA_REG];
	for (;;) {
		u64 lookup = first ? pc : pc - 1;
		struct unwind_pc *slot;
		const struct cfi_rule *r;

		if (unwind_ctx__push(c, pc, first))
			return 0;
		slot = unwind__pc(c, lookup);
		c->slots[c->nr - 1] = slot;
		/* perf_misbased(), as the frames come */
		if (slot && slot->perf_base != 1 && unwind__perf_misbased(c, slot))
			return 1;
		r = slot ? pc_rule(p, slot) : &no_rule;
		if (r->no_cfi) {
			p->no_cfi = true;
			/* libdw then tries the frame pointer, which fails on rbp 0 */
			if (!(set & (1U << 6)) || !regs[6])
				return -EINVAL;
			return 1;
		}
		if (!r->ok)
			return 1;
		if (!(set & (1U << r->cfa_reg)))
			return -EINVAL;
		cfa = regs[r->cfa_reg] + (u64)r->cfa_off;
		/*
		 * In place: a rule reads no register but the CFA's; a register
		 * left out of nset keeps a value nothing looks at.
		 */
		nset = set & r->same;
		for (int k = 0; k < r->nr_read; k++)
			if (!unwind_ctx__read(c, cfa + (u64)r->read_off[k], &regs[r->read_reg[k]]))
				nset |= 1U << r->read_reg[k];
		if (r->undef & (1U << RA_REG))
			return 0;
		for (int k = 0; k < r->nr_val; k++) {
			regs[r->val_reg[k]] = cfa + (u64)r->val_off[k];
			nset |= 1U << r->val_reg[k];
		}
		if (!(nset & (1U << RA_REG)))
			return -EINVAL;
		if (!regs[RA_REG]) {
			/*
			 * libdw ends the chain; perf's libunwind shows a frame at
			 * the return address 0 (-1 once taken back to its call)
			 */
			unwind_ctx__push(c, 0, false);
			return 0;
		}
		set = nset;
		pc = regs[RA_REG];
		first = false;
	}
}

#ifdef HAVE_LIBUNWIND
/*
 * Whether a frame of the chain is in a file perf's libunwind glue bases
 * wrongly (unwind__perf_misbased()): perf's chain is then libunwind's
 * failure there, which only libunwind gives.
 */
static bool perf_misbased(struct unwind_ctx *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		u64 lookup = c->act[i] ? c->pcs[i] : c->pcs[i] - 1;
		struct unwind_pc *slot = c->slots[i];

		if (!slot || slot->addr != lookup || slot->gen != c->thread->maps->gen)
			slot = unwind__pc(c, lookup);
		if (slot && unwind__perf_misbased(c, slot))
			return true;
	}
	return false;
}
#endif

static int dw_unwind_libdw(struct dw_proc *p, struct unwind_ctx *c);

static int dw_unwind(void *priv, struct unwind_ctx *c)
{
	struct dw_proc *p = priv;
	int err = dw_unwind_libdw(p, c);

#ifdef HAVE_LIBUNWIND
	/*
	 * Chains perf's libunwind unwinds otherwise, and only it can give as
	 * perf does: memory past the copy (perf reads 0 from the stack's map,
	 * and shows a frame at address 0 where that was a return address),
	 * the copy's last 8 bytes (perf takes them as past it), a file perf
	 * bases wrongly, an address without CFI (libunwind guesses the frame
	 * its own way, or ends the chain where there is no file), and any
	 * rule the cache does not replay (signal frames, expressions: libdw
	 * and libunwind each have their own ways there).
	 */
	if (p->need_lu || c->truncated || c->last_word || p->no_cfi ||
	    (slow_mode && perf_misbased(c))) {
		c->nr = 0;
		c->truncated = c->last_word = false;
		if (!p->lu)
			p->lu = unwind_libunwind_backend.proc_new(p->u, p->pid);
		if (p->lu)
			return unwind_libunwind_backend.unwind(p->lu, c);
	}
#endif
	return err;
}

static int dw_unwind_libdw(struct dw_proc *p, struct unwind_ctx *c)
{
	u64 ip = 0;
	int err;

	p->cur = c;
	p->no_cfi = p->need_lu = false;
	if (p->stale)
		dw_reset(p);
	if (!p->dwfl)
		return -ENOMEM;
	unwind_ctx__reg(c, UREG_IP, &ip);
	if (!has_module(p, ip)) {
		struct map *map;

		if (p->stale) {
			dw_reset(p);
			if (p->dwfl && has_module(p, ip))
				goto attach;
		}
		/*
		 * Code no file backs (JIT, anonymous): perf's glue gives the
		 * IP's frame, then finds no CFI.  A file not there: no frames.
		 */
		map = unwind__find_map(c, ip);
		if (map && map->identity)
			unwind_ctx__push(c, ip, true);
		return 0;
	}
attach:
	if (slow_mode < 0) {
		const char *e = getenv("TPERF_UNWIND_SLOW");

		slow_mode = e && *e && strcmp(e, "0");
	}
	if (!slow_mode) {
		err = dw_fast(p, c);
		if (err <= 0)
			return err;
#ifdef HAVE_LIBUNWIND
		p->need_lu = true;	/* perf's chain: libunwind's (dw_unwind()) */
		return 0;
#else
		c->nr = 0;		/* again, all with libdw */
		c->truncated = false;
#endif
	}
	if (!p->attached) {
		p->attached = dwfl_attach_state(p->dwfl, NULL, p->pid, &thread_callbacks, p);
		if (!p->attached)
			return -EINVAL;
	}
	err = dwfl_getthread_frames(p->dwfl, p->pid, frame_cb, p);
	if (err && c->nr >= c->max)
		err = 0;
	return err ? -EINVAL : 0;
}

const struct unwind_backend unwind_libdw_backend = {
	.proc_new = dw_proc_new,
	.proc_delete = dw_proc_delete,
	.unwind = dw_unwind,
	.shared_delete = rules_delete,
};
