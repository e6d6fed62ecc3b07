/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DWARF side of `tperf probe` (libdw): where a function, a function's
 * relative line or a source line is (every out-of-line copy and inlined
 * instance), and how to fetch variables there as uprobe arguments.
 */
#ifndef TPERF_PROBE_FINDER_H
#define TPERF_PROBE_FINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct probe_def;
struct probe_filter;
struct probe_elf;

/* One place found for a definition. */
struct probe_point {
	uint64_t addr;		/* link-time address */
	char *fetchargs;	/* the converted arguments, "" if none */
	char *func;		/* the function (or inlined function) it is in */
	uint64_t func_offset;	/* addr - that function's entry */
	char *file;		/* source file of the function */
	int line;		/* source line at addr, 0 if unknown */
	bool inlined;
};

struct probe_finder_opts {
	int max_probes;		/* at most this many points */
	bool no_inlines;	/* skip inlined instances */
	bool externs;		/* -V: show global variables too */
	bool range;		/* -V: mark [VAL]/[INV]/[EXT], show location ranges */
	const struct probe_filter *var_filter;	/* -V: names shown, NULL: all */
	const char *source_prefix;	/* -s: the sources are under this folder */
};

/* Does @pe have DWARF (.debug_info)? */
bool probe_finder__has_dwarf(struct probe_elf *pe);

/*
 * The points of @def in @pe with their arguments.  *@pts (malloc'ed, *@nr
 * entries; free with probe_points__free()).  0, or -errno with @msg set to
 * the reason and what to do (missing function, line without code, unknown
 * or optimised-out variable...).
 */
int probe_finder__find(struct probe_elf *pe, const struct probe_def *def,
		       const struct probe_finder_opts *o, struct probe_point **pts, int *nr,
		       char *msg, size_t size);
void probe_points__free(struct probe_point *pts, int nr);

/* -V: print the variables available at each point of @def, as perf does,
 * under "Available variables at @title". */
int probe_finder__show_vars(struct probe_elf *pe, const struct probe_def *def,
			    const struct probe_finder_opts *o, const char *title, FILE *fp,
			    char *msg, size_t size);
/*
 * -L: print the source of @func (or @file) lines @start..@end (0: to the
 * end of the function), marking lines without code as perf does; the
 * source read under @source_prefix when not NULL (see --source).
 */
int probe_finder__show_lines(struct probe_elf *pe, const char *func, const char *file,
			     int start, int end, bool relative, const char *source_prefix,
			     FILE *fp, char *msg, size_t size);
/* Function name, source file and line of @addr, for listings. */
/*
 * The function (not inlined: the outermost subprogram) whose code holds
 * @addr: its DW_AT_name, declaration file (NULL if unknown) and entry.
 * 0, -ENOENT or -ENODATA (no DWARF).  Free *@func and *@file.
 */
int probe_finder__real_func_at(struct probe_elf *pe, uint64_t addr, char **func, char **file,
			       uint64_t *entry);
int probe_finder__addr_info(struct probe_elf *pe, uint64_t addr, char **func,
			    uint64_t *offset, char **file, int *line);

#endif
