// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What annotate would print with capstone instead of objdump: the .text of
 * an x86-64 ELF file disassembled by capstone in AT&T syntax, one line per
 * instruction as objdump -d --no-show-raw-insn prints them ("ADDR:\tMNEMONIC
 * OPERANDS"), for bench/annotate.sh to time and compare with objdump's.
 * Usage: annotate-capstone FILE [intel]
 */
#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	csh cs;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: annotate-capstone FILE [intel]\n");
		return 129;
	}
	fd = open(argv[1], O_RDONLY);
	elf_version(EV_CURRENT);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		fprintf(stderr, "annotate-capstone: cannot read '%s'\n", argv[1]);
		return 1;
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return 1;
	cs_option(cs, CS_OPT_SYNTAX, argc > 2 ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const uint8_t *code;
		size_t len;
		uint64_t addr;
		cs_insn *insn = cs_malloc(cs);

		if (!gelf_getshdr(scn, &sh) || strcmp(elf_strptr(elf, shstrndx, sh.sh_name), ".text"))
			continue;
		d = elf_getdata(scn, NULL);
		code = d->d_buf;
		len = d->d_size;
		addr = sh.sh_addr;
		while (len) {
			if (!cs_disasm_iter(cs, &code, &len, &addr, insn)) {
				printf("%" PRIx64 ":\t(bad)\n", addr);
				code++;
				len--;
				addr++;
				continue;
			}
			printf("%" PRIx64 ":\t%-6s %s\n", insn->address, insn->mnemonic, insn->op_str);
		}
		cs_free(insn, 1);
	}
	cs_close(&cs);
	elf_end(elf);
	close(fd);
	return 0;
}
