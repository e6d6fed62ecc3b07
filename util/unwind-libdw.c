// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libdw unwinder: one Dwfl per process, attached once with callbacks
 * that read the current sample (registers from the sample, memory from
 * the stack copy or the mapped files), its modules reported as frames
 * reach them (dwfl_report_elf at the map's load bias) and kept with their
 * CFI (.eh_frame with .eh_frame_hdr, .debug_frame, separate debug files
 * by build-id and .gnu_debuglink) for every later sample of the process.
 */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unwind-internal.h"

struct dw_proc {
	struct unwinder *u;
	int pid;
	Dwfl *dwfl;
	bool attached, stale;
	struct unwind_ctx *cur;
};

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
	if (!mod)
		return NULL;
	dwfl_module_info(mod, &user, NULL, NULL, NULL, NULL, NULL, NULL);
	*user = map->dso;
	return dwfl_addrmodule(p->dwfl, pc) == mod ? mod : NULL;
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
	return unwind_ctx__push(p->cur, pc, act) ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static void *dw_proc_new(struct unwinder *u, int pid)
{
	struct dw_proc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->u = u;
	p->pid = pid;
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
	free(p);
}

static void dw_reset(struct dw_proc *p)
{
	dwfl_end(p->dwfl);
	p->dwfl = dwfl_begin(&dw_callbacks);
	p->attached = false;
	p->stale = false;
}

static int dw_unwind(void *priv, struct unwind_ctx *c)
{
	struct dw_proc *p = priv;
	u64 ip = 0;
	int err;

	p->cur = c;
	if (p->stale)
		dw_reset(p);
	if (!p->dwfl)
		return -ENOMEM;
	unwind_ctx__reg(c, UREG_IP, &ip);
	if (!report_module(p, ip)) {
		if (p->stale) {
			dw_reset(p);
			if (p->dwfl && report_module(p, ip))
				goto attach;
		}
		return 0;	/* perf gives no user frames then */
	}
attach:
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
};
