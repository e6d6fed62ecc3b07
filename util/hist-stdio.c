// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stdio output of a histogram, laid out as perf 6.1's `report --stdio`:
 * "# " headers with dotted rules, columns separated by two spaces, widths
 * from the longest value (at least the header), percentages "%6.2f%%".
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "hist.h"

static const char *key_header(enum sort_key_id k)
{
	switch (k) {
	case SORT_COMM:
		return "Command";
	case SORT_DSO:
		return "Shared Object";
	case SORT_SYM:
		return "Symbol";
	case SORT_PID:
	case SORT_TID:
		return "    Pid:Command";
	case SORT_CPU:
		return "CPU";
	default:
		return "";
	}
}

static size_t comm_len(const struct hist_entry *e)
{
	return e->thread ? strlen(e->thread->comm->str) : strlen(e->comm->str);
}

/* perf's column widths: the longest value, the header, 16 for raw addresses. */
static void compute_widths(const struct hists *h, int *w)
{
	bool unresolved = false;

	for (int i = 0; i < h->nr_keys; i++)
		w[i] = 0;
	for (size_t n = 0; n < h->nr_sorted; n++) {
		const struct hist_entry *e = h->sorted[n];

		unresolved |= !e->sym;
		for (int i = 0; i < h->nr_keys; i++) {
			int len = 0;

			switch (h->keys[i]) {
			case SORT_COMM:
				len = comm_len(e);
				break;
			case SORT_DSO:
				len = e->dso ? (int)strlen(e->dso->short_name) : 0;
				break;
			case SORT_SYM:
				len = e->sym ? e->sym->namelen + 4 : 16 + 6;
				break;
			case SORT_PID:
			case SORT_TID:
				len = comm_len(e) + 8;
				break;
			default:
				break;
			}
			if (len > w[i])
				w[i] = len;
		}
	}
	for (int i = 0; i < h->nr_keys; i++) {
		int hl = strlen(key_header(h->keys[i]));

		if (h->keys[i] == SORT_DSO && unresolved && w[i] < 16)
			w[i] = 16;
		if (w[i] < hl)
			w[i] = hl;
	}
}

static void print_key(FILE *fp, const struct hist_entry *e, enum sort_key_id k, int w)
{
	switch (k) {
	case SORT_COMM:
		fprintf(fp, "%-*.*s", w, w, e->comm->str);
		break;
	case SORT_DSO:
		fprintf(fp, "%-*.*s", w, w, e->dso ? e->dso->short_name : "[unknown]");
		break;
	case SORT_SYM:
		fprintf(fp, "[%c] ", e->level);
		if (!e->sym)
			fprintf(fp, "%-#.*" PRIx64, 16, e->ip);
		else if (e->sym->type == STT_OBJECT)
			fprintf(fp, "%s+0x%" PRIx64, e->sym->name, e->ip - e->sym->start);
		else
			fprintf(fp, "%.*s%s", w > 4 ? w - 4 : 0, e->sym->name,
				e->sym->inlined ? " (inlined)" : "");
		break;
	case SORT_PID:
	case SORT_TID:
		/* perf shows the thread's last comm here, not the sample's */
		fprintf(fp, "%7d:%-*.*s", e->thread ? e->thread->tid : -1, w - 8, w - 8,
			e->thread ? e->thread->comm->str : e->comm->str);
		break;
	case SORT_CPU:
		fprintf(fp, "%*.*d", w, w, e->cpu);
		break;
	default:
		break;
	}
}

static void print_headers(FILE *fp, const struct hists *h, const struct hists_print_opts *o,
			  const int *w)
{
	fprintf(fp, "# ");
	if (h->children)
		fprintf(fp, "%8s  %8s", "Children", "Self");
	else
		fprintf(fp, "%8s", "Overhead");
	if (o->show_nr_samples)
		fprintf(fp, "  %12s", "Samples");
	for (int i = 0; i < h->nr_keys; i++)
		fprintf(fp, "  %-*.*s", w[i], w[i], key_header(h->keys[i]));
	fprintf(fp, "\n# ");
	fprintf(fp, "%s", h->children ? "........  ........" : "........");
	if (o->show_nr_samples)
		fprintf(fp, "  ............");
	for (int i = 0; i < h->nr_keys; i++) {
		fprintf(fp, "  ");
		for (int k = 0; k < w[i]; k++)
			fputc('.', fp);
	}
	fprintf(fp, "\n#\n");
}

static double pct(u64 v, u64 total)
{
	return total ? v * 100.0 / total : 0.0;
}

int hists__fprintf(struct hists *h, const struct hists_print_opts *o, FILE *fp)
{
	int w[SORT_NR_KEYS * 2];
	u64 min_hit = h->cc ? (u64)(h->total_period * (h->cc->min_percent / 100)) : 0;
	bool chains = h->has_callchain && h->cc && h->cc->mode != CHAIN_NONE;

	compute_widths(h, w);
	if (o->show_header)
		print_headers(fp, h, o, w);
	for (size_t n = 0; n < h->nr_sorted; n++) {
		const struct hist_entry *e = h->sorted[n];
		u64 shown = h->children ? e->period_acc : e->period;

		if ((float)pct(shown, h->total_period) < o->min_percent)
			continue;
		fprintf(fp, "  ");
		if (h->children)
			fprintf(fp, " %6.2f%%   %6.2f%%", pct(e->period_acc, h->total_period),
				pct(e->period, h->total_period));
		else
			fprintf(fp, " %6.2f%%", pct(e->period, h->total_period));
		if (o->show_nr_samples)
			fprintf(fp, "  %12" PRIu64, e->nr_samples);
		for (int i = 0; i < h->nr_keys; i++) {
			fprintf(fp, "  ");
			print_key(fp, e, h->keys[i], w[i]);
		}
		fprintf(fp, "\n");
		if (chains)
			callchain__fprintf_graph(fp, (struct cc_node *)&e->callchain, h->total_period,
						 shown, min_hit, o->skip_first_frame, h->cc);
	}
	return ferror(fp) ? -EIO : 0;
}
