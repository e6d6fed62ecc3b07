/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf 6.1's `perf annotate --stdio` text of an annotation (annotate.h). */
#ifndef TPERF_ANNOTATE_STDIO_H
#define TPERF_ANNOTATE_STDIO_H

#include <stdio.h>

#include "util/report/annotate.h"

struct annotate_stdio {
	const struct annotate_events *ev;	/* the symbol's counts, each event's totals */
	const char *dso_name;		/* the DSO's long name */
	const char *event;		/* the event's name (a group's description) */
	enum annotate_percent type;	/* --percent-type */
	bool show_nr_samples;		/* -n: sample counts, not percentages */
	bool print_line;		/* -l: the summary of source lines first */
	bool full_paths;		/* -P: the DSO's path in the header */
	bool color;			/* perf's colours: percentages, addresses, instructions */
};

/**
 * annotation__fprintf - print @an to @fp: with -l the summary @src (@nr_src
 * lines) first, then the header and the lines
 * @prev_path: the last source line named after an instruction (perf names
 *	it again only when it changes, across symbols too); NULL at first
 * Return: 0, or -EIO when writing failed.
 */
int annotation__fprintf(const struct annotation *an, const struct annotate_stdio *p,
			const struct annotation_src *src, size_t nr_src, const char **prev_path,
			FILE *fp);

#endif
