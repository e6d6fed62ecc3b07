/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SystemTap SDT markers (<sys/sdt.h>): the NT_STAPSDT notes of
 * .note.stapsdt, and their x86-64 argument strings ("-4@%edi",
 * "8@-16(%rbp)") turned into uprobe fetch arguments ("arg1=%di:s32").
 * Self-contained (no libelf) so the fuzz target can drive it.
 */
#ifndef TPERF_SDT_H
#define TPERF_SDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sdt_note {
	char *provider, *name, *args;	/* args: "" when the marker has none */
	uint64_t pc, base, semaphore;	/* link-time addresses, as in the note */
};

/*
 * Parse the notes of a .note.stapsdt section (@is64: ELF class), appending
 * the NT_STAPSDT ones to *notes (malloc'ed array, *nr entries).  Malformed
 * notes end the walk.  0 or -ENOMEM / -EINVAL (nothing valid at all).
 */
int sdt__parse_notes(const void *buf, size_t size, bool is64,
		     struct sdt_note **notes, int *nr);
void sdt__free_notes(struct sdt_note *notes, int nr);

/*
 * Convert one argument @arg ("-4@%edi") into "arg@idx=%di:s32" in @out.
 * 0 when converted, 1 when the operand has no uprobe equivalent (constants,
 * %rip-relative symbols, indexed addressing: perf skips those too), -EINVAL
 * when @arg is malformed or @out too small.
 */
int sdt__convert_arg(const char *arg, int idx, char *out, size_t size);
/*
 * Convert the space-separated @args into uprobe fetch arguments in @out
 * (""" when none).  Returns the number of arguments skipped, or -EINVAL.
 */
int sdt__convert_args(const char *args, char *out, size_t size);

#endif
