/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A uprobe must sit on the first byte of an instruction: one in the middle
 * of an instruction changes what the traced program executes (the breakpoint
 * byte replaces an operand, and the program typically loops or crashes).
 * The check for the probes whose address the user chose: FUNC+OFFS and
 * 0xADDR inside a function.
 */
#ifndef TPERF_PROBE_INSN_H
#define TPERF_PROBE_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct probe_elf;

/* Does tperf decode @pe's code (x86)?  Else offsets are not checked. */
bool probe_insn__checks(struct probe_elf *pe);

/**
 * probe_insn__check - is @addr the start of an instruction of the function
 *	@func, whose code from @start (an instruction's start) to @end (0:
 *	unknown) holds @addr?
 * @entry: the address @func's offsets count from, in messages
 * @file_offset: the file offset of @addr when the user gave one (0xADDR:
 *	the message names file offsets), else 0
 *
 * Returns 0 (a boundary, or code tperf does not decode: see
 * probe_insn__checks()), or with @msg saying why and where to probe:
 * -EINVAL (inside an instruction), -EILSEQ (undecodable bytes before
 * @addr), -ELIBACC (capstone cannot be loaded), -ENOENT (no code in the
 * file there).
 */
int probe_insn__check(struct probe_elf *pe, const char *func, uint64_t entry, uint64_t start,
		      uint64_t end, uint64_t addr, uint64_t file_offset, char *msg, size_t size);

#endif
