/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Instruction boundaries in machine code read from an ELF file: where the
 * instruction holding an address starts and how long it is.  x86 (32 and
 * 64 bits) through capstone, loaded with dlopen() the first time it is
 * needed, so that commands that never decode do not pay for its start-up
 * (its relocations take longer than the rest of tperf's).
 */
#ifndef TPERF_INSN_H
#define TPERF_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct insn {
	uint64_t addr;		/* where the instruction starts */
	unsigned int size;	/* its bytes */
};

/* Can insn__find() decode the code of ELF machine @machine (EM_*)? */
bool insn__decodes(unsigned int machine);

/**
 * insn__find - decode @len bytes of code at @code, which start at address
 *	@start, from @start until the instruction that holds @addr
 * @machine: the ELF file's e_machine
 * @insn: that instruction; @addr is an instruction boundary when
 *	insn->addr == @addr
 *
 * Returns 0, -EOPNOTSUPP (no decoder for @machine), -ERANGE (@addr is not
 * in the code), -EILSEQ (the bytes at insn->addr, before @addr, are no
 * instruction: insn->size 0) or -ELIBACC (capstone cannot be loaded; see
 * insn__library()).
 */
int insn__find(unsigned int machine, const void *code, size_t len, uint64_t start,
	       uint64_t addr, struct insn *insn);

/* The library insn__find() loads, by its file name, for messages. */
const char *insn__library(void);

#endif
