// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf 6.1's `perf annotate --stdio` text of an annotation: -l's summary,
 * the header with its rule, then each objdump line: instructions with
 * their percentage (or sample count) and address, source and other lines
 * with their number.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/report/annotate-stdio.h"

/* perf's rule under the header: as long as the header, a string of 207 dashes at most */
#define RULE_MAX 207

#define COLOR_RED	"\033[31m"
#define COLOR_GREEN	"\033[32m"
#define COLOR_BLUE	"\033[34m"
#define COLOR_MAGENTA	"\033[35m"
#define COLOR_RESET	"\033[m"

/* perf's colour of a percentage: red from 5%, green above 0.5%, else none */
static const char *percent_color(bool on, double pct)
{
	if (!on)
		return NULL;
	return fabs(pct) >= 5.0 ? COLOR_RED : fabs(pct) > 0.5 ? COLOR_GREEN : NULL;
}

/* @fmt in @color (NULL: plain), the reset after all of it, its newline too, as perf */
__attribute__((format(printf, 3, 4)))
static void cprintf(FILE *fp, const char *color, const char *fmt, ...)
{
	va_list ap;

	if (color)
		fputs(color, fp);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	if (color)
		fputs(COLOR_RESET, fp);
}

static void print_summary(const struct annotation_src *src, size_t nr, int nr_events,
			  const char *file, bool color, FILE *fp)
{
	fprintf(fp, "\nSorted summary for file %s\n", file);
	fprintf(fp, "----------------------------------------------\n\n");
	if (!nr)
		fprintf(fp, " Nothing higher than %1.1f%%\n", 0.5);
	for (size_t i = 0; i < nr; i++) {
		double max = 0.0;

		for (int k = 0; k < nr_events; k++) {
			cprintf(fp, percent_color(color, src[i].percent[k]), " %7.2f", src[i].percent[k]);
			if (src[i].percent[k] > max)
				max = src[i].percent[k];
		}
		cprintf(fp, percent_color(color, max), " %s\n", src[i].path);
	}
}

static void print_header(const struct annotate_stdio *p, FILE *fp)
{
	const char *name = p->dso_name;
	const char *slash = strrchr(name, '/');
	int len;

	if (!p->full_paths && slash)
		name = slash + 1;
	len = fprintf(fp, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64
		      " samples, percent: %s)\n", 8 * p->ev->nr, 8 * p->ev->nr,
		      p->show_nr_samples ? "Samples" : "Percent", name, p->event,
		      p->ev->h[0]->nr_samples, annotate_percent__name(p->type));
	for (int i = 0; i < len; i++)
		fputc(i < RULE_MAX ? '-' : ' ', fp);
	fputs("----\n", fp);
}

int annotation__fprintf(const struct annotation *an, const struct annotate_stdio *p,
			const struct annotation_src *src, size_t nr_src, const char **prev_path,
			FILE *fp)
{
	if (p->print_line)
		print_summary(src, nr_src, p->ev->nr, p->dso_name, p->color, fp);
	int width = 8 * p->ev->nr;

	print_header(p, fp);
	for (size_t i = 0; i < an->nr; i++) {
		const struct annotation_line *al = &an->lines[i];

		if (al->offset < 0) {
			if (!al->text[0])
				fprintf(fp, " %*s:\n", width, " ");
			else
				fprintf(fp, " %*s: %-*d %s\n", width, " ", an->addr_width, al->line_nr,
					al->text);
			continue;
		}
		double max = 0.0;
		const char *c;

		for (int k = 0; k < p->ev->nr; k++) {
			double pct = annotation__percent(an, i, k, p->type, p->ev);

			c = percent_color(p->color, pct);
			if (p->show_nr_samples)
				cprintf(fp, c, " %7" PRIu64, annotation__nr_samples(an, i, k));
			else
				cprintf(fp, c, " %7.2f", pct);
			if (pct > max)
				max = pct;
		}
		c = percent_color(p->color, max);
		fprintf(fp, " : ");
		cprintf(fp, p->color ? COLOR_MAGENTA : NULL, "  %*" PRIx64 ":", an->addr_width,
			an->start + al->offset);
		cprintf(fp, p->color ? COLOR_BLUE : NULL, "%s", al->text);
		/* perf names a line once for a run of instructions of the same line */
		if (al->path && (!*prev_path || strcmp(*prev_path, al->path))) {
			cprintf(fp, c, " // %s", al->path);
			*prev_path = al->path;
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -EIO : 0;
}
