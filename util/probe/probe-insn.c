// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe addresses on instruction boundaries (see probe-insn.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "util/symbol/insn.h"
#include "util/symbol/probe-elf.h"
#include "util/probe/probe-insn.h"

bool probe_insn__checks(struct probe_elf *pe)
{
	return insn__decodes(probe_elf__machine(pe));
}

/*
 * "FUNC+OFF" (FUNC at its entry) of @addr, or with @file_offset (that of
 * @file_addr) the file offset of @addr.
 */
static void where(char *buf, size_t size, const char *func, uint64_t entry, uint64_t addr,
		  uint64_t file_addr, uint64_t file_offset)
{
	if (file_offset)
		snprintf(buf, size, "0x%" PRIx64, file_offset + addr - file_addr);
	else if (addr == entry)
		snprintf(buf, size, "%s", func);
	else
		snprintf(buf, size, "%s+%" PRIu64, func, addr - entry);
}

int probe_insn__check(struct probe_elf *pe, const char *func, uint64_t entry, uint64_t start,
		      uint64_t end, uint64_t addr, uint64_t file_offset, char *msg, size_t size)
{
	unsigned int machine = probe_elf__machine(pe);
	char given[64], at[64], before[64], after[64];
	const void *code;
	struct insn insn;
	size_t len;
	int ret;

	if (!insn__decodes(machine) || addr == start)
		return 0;
	where(given, sizeof(given), func, entry, addr, addr, file_offset);
	if (!file_offset)	/* "offset 3", as the user wrote FUNC+3 */
		snprintf(given, sizeof(given), "offset %" PRIu64, addr - entry);
	code = probe_elf__code(pe, start, &len);
	if (code && end > start && end - start < len)
		len = (size_t)(end - start);
	ret = code ? insn__find(machine, code, len, start, addr, &insn) : -ENOENT;
	switch (ret) {
	case 0:
		break;
	case -ELIBACC:
		snprintf(msg, size, "cannot load %s (Debian package libcapstone%s) to check that %s "
			 "of '%s' starts an instruction", insn__library(),
			 insn__library() + sizeof("libcapstone.so.") - 1, given, func);
		return ret;
	case -EILSEQ:
		where(at, sizeof(at), func, entry, insn.addr, addr, 0);
		snprintf(msg, size, "cannot decode the instruction at %s: %s of '%s' cannot be "
			 "checked for an instruction boundary", at, given, func);
		return ret;
	default:
		where(at, sizeof(at), func, entry, start, addr, 0);
		snprintf(msg, size, "the file has no code of '%s' at %s: %s cannot be checked for "
			 "an instruction boundary", func, at, given);
		return ret;
	}
	if (insn.addr == addr)
		return 0;
	where(at, sizeof(at), func, entry, insn.addr, addr, 0);
	where(before, sizeof(before), func, entry, insn.addr, addr, file_offset);
	where(after, sizeof(after), func, entry, insn.addr + insn.size, addr, file_offset);
	if (end && insn.addr + insn.size >= end)	/* the function's last instruction */
		snprintf(msg, size, "%s is inside an instruction of '%s' (at %s, %u bytes): "
			 "probe %s", given, func, at, insn.size, before);
	else
		snprintf(msg, size, "%s is inside an instruction of '%s' (at %s, %u bytes): "
			 "probe %s or %s", given, func, at, insn.size, before, after);
	return -EINVAL;
}
