// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Instruction boundaries through capstone (see insn.h).  Only its header is
 * used at build time: the library is dlopen()ed by the soname of the
 * header's major version.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <pthread.h>

#include <capstone/capstone.h>

#include "util/symbol/insn.h"

#define STR_(x)		#x
#define STR(x)		STR_(x)
#define CAPSTONE_SO	"libcapstone.so." STR(CS_API_MAJOR)

/* The functions of capstone used here, found once per process. */
struct capstone {
	__typeof__(cs_open) *open;
	__typeof__(cs_close) *close;
	__typeof__(cs_malloc) *malloc;
	__typeof__(cs_free) *free;
	__typeof__(cs_disasm_iter) *disasm_iter;
	bool ok;
};

static struct capstone capstone;
static pthread_once_t capstone_once = PTHREAD_ONCE_INIT;

static void capstone_load(void)
{
	void *h = dlopen(CAPSTONE_SO, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	capstone.open = (__typeof__(cs_open) *)dlsym(h, "cs_open");
	capstone.close = (__typeof__(cs_close) *)dlsym(h, "cs_close");
	capstone.malloc = (__typeof__(cs_malloc) *)dlsym(h, "cs_malloc");
	capstone.free = (__typeof__(cs_free) *)dlsym(h, "cs_free");
	capstone.disasm_iter = (__typeof__(cs_disasm_iter) *)dlsym(h, "cs_disasm_iter");
	capstone.ok = capstone.open && capstone.close && capstone.malloc && capstone.free &&
		      capstone.disasm_iter;
	/* the handle stays open: the functions are used until the process ends */
}

const char *insn__library(void)
{
	return CAPSTONE_SO;
}

static int cs_mode_of(unsigned int machine, cs_mode *mode)
{
	switch (machine) {
	case EM_X86_64:		/* x32 too: its code is 64-bit code */
		*mode = CS_MODE_64;
		return 0;
	case EM_386:
		*mode = CS_MODE_32;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

bool insn__decodes(unsigned int machine)
{
	cs_mode mode;

	return !cs_mode_of(machine, &mode);
}

int insn__find(unsigned int machine, const void *code, size_t len, uint64_t start,
	       uint64_t addr, struct insn *insn)
{
	const uint8_t *p = code;
	uint64_t pc = start;
	size_t left = len;
	cs_insn *one;
	cs_mode mode;
	csh h;
	int ret;

	if (cs_mode_of(machine, &mode))
		return -EOPNOTSUPP;
	if (addr < start || addr - start >= len)
		return -ERANGE;
	pthread_once(&capstone_once, capstone_load);
	if (!capstone.ok || capstone.open(CS_ARCH_X86, mode, &h) != CS_ERR_OK)
		return -ELIBACC;
	one = capstone.malloc(h);
	if (!one) {
		capstone.close(&h);
		return -ENOMEM;
	}
	/* each call moves p, left and pc past the instruction it decoded */
	for (;;) {
		uint64_t at = pc;

		if (!capstone.disasm_iter(h, &p, &left, &pc, one)) {
			insn->addr = at;
			insn->size = 0;
			ret = -EILSEQ;
			break;
		}
		if (addr < pc) {
			insn->addr = at;
			insn->size = (unsigned int)(pc - at);
			ret = 0;
			break;
		}
	}
	capstone.free(one, 1);
	capstone.close(&h);
	return ret;
}
