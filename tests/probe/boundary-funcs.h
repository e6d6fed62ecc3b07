/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functions of known instructions, for the programs that check probe
 * offsets against instruction boundaries: tests/probe/boundary.c (t0561)
 * and the fuzz target's tests/fuzz/probe-addr-target.c.  five() has DWARF;
 * seven() is assembly, known to the symbol table only, as is odd(), which
 * starts with a byte that is no instruction; five_alias is a second name
 * of five() that the DWARF does not know.  Included once per program (it
 * defines them).
 */
#ifndef TPERF_TESTS_BOUNDARY_FUNCS_H
#define TPERF_TESTS_BOUNDARY_FUNCS_H

/*
 * five+0: nop (1 byte); five+1: mov $5,%eax (5 bytes); five+6: ret
 * (gcc puts a nop and a ud2 after a naked function's body: five+7, five+8)
 */
__attribute__((naked, noinline)) int five(void)
{
	__asm__ volatile("nop\n\t"
			 "movl $5, %eax\n\t"
			 "ret");
}

int five_alias(void) __attribute__((alias("five")));

/*
 * seven+0: mov $7,%eax (5 bytes); seven+5: jmp (2 bytes), its last
 * instruction, to the ret after it
 */
__asm__(".text\n"
	".globl seven\n"
	".type seven, @function\n"
	"seven:\n\t"
	"movl $7, %eax\n\t"
	"jmp 1f\n"
	".size seven, .-seven\n"
	"1:\n\t"
	"ret\n");
int seven(void);

/* odd+0: 0x06, no instruction in 64-bit code; odd+1: nop; odd+2: ret (never called) */
__asm__(".text\n"
	".globl odd\n"
	".type odd, @function\n"
	"odd:\n\t"
	".byte 0x06\n\t"
	"nop\n\t"
	"ret\n"
	".size odd, .-odd\n");

#endif
