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

static bool dyn_key(enum sort_key_id k)
{
	return k >= SORT_DYN0 && k <= SORT_DYN_LAST;
}

/* Is key @i a column of @h (tracepoint keys only show for their events)? */
static bool key_shown(const struct hists *h, int i)
{
	return !dyn_key(h->keys[i]) || h->dyn_header[h->keys[i] - SORT_DYN0];
}

static const char *column_header(const struct hists *h, int i)
{
	return dyn_key(h->keys[i]) ? h->dyn_header[h->keys[i] - SORT_DYN0] : key_header(h->keys[i]);
}

static bool field_key_shown(const struct hists *h)
{
	for (int d = 0; d < SORT_DYN_MAX; d++)
		if (h->dyn_header[d] && !h->dyn_left[d])
			return true;
	return false;
}

/* The width of a tracepoint column: fixed, or (trace) its longest text. */
static int dyn_len(const struct hists *h, const struct hist_entry *e, enum sort_key_id k)
{
	int d = k - SORT_DYN0, len = e->dyn_val[d] ? (int)strlen(e->dyn_val[d]) : 0;

	if (h->dyn_left[d])	/* perf: the texts it compared or a field key computed */
		return (e->dyn_compared & (1u << d)) || field_key_shown(h) ? len : 0;
	return len > h->dyn_width[d] ? len : h->dyn_width[d];
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
				if (dyn_key(h->keys[i]))
					len = dyn_len(h, e, h->keys[i]);
				break;
			}
			if (len > w[i])
				w[i] = len;
		}
	}
	for (int i = 0; i < h->nr_keys; i++) {
		int hl = key_shown(h, i) ? (int)strlen(column_header(h, i)) : 0;

		if (h->keys[i] == SORT_DSO && unresolved && w[i] < 16)
			w[i] = 16;
		if (w[i] < hl)
			w[i] = hl;
	}
}

/* perf pads the trace text only when another column follows */
static void print_dyn(FILE *fp, const struct hists *h, const struct hist_entry *e, int d, int w,
		      bool last)
{
	const char *v = e->dyn_val[d] ? e->dyn_val[d] : "";

	if (h->dyn_left[d] && last)
		fprintf(fp, "%.*s", w, v);
	else if (h->dyn_left[d])
		fprintf(fp, "%-*.*s", w, w, v);
	else
		fprintf(fp, "%*.*s", w, w, v);
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
			fprintf(fp, "%.*s", w > 4 ? w - 4 : 0, e->sym->name);
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
	for (int i = 0; i < h->nr_keys; i++) {
		if (!key_shown(h, i))
			continue;
		if (dyn_key(h->keys[i]) && !h->dyn_left[h->keys[i] - SORT_DYN0])
			fprintf(fp, "  %*.*s", w[i], w[i], column_header(h, i));
		else
			fprintf(fp, "  %-*.*s", w[i], w[i], column_header(h, i));
	}
	fprintf(fp, "\n# ");
	fprintf(fp, "%s", h->children ? "........  ........" : "........");
	if (o->show_nr_samples)
		fprintf(fp, "  ............");
	for (int i = 0; i < h->nr_keys; i++) {
		if (!key_shown(h, i))
			continue;
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
			if (!key_shown(h, i))
				continue;
			fprintf(fp, "  ");
			if (dyn_key(h->keys[i]))
				print_dyn(fp, h, e, h->keys[i] - SORT_DYN0, w[i], i == h->nr_keys - 1);
			else
				print_key(fp, e, h->keys[i], w[i]);
		}
		fprintf(fp, "\n");
		if (chains)
			callchain__fprintf_graph(fp, (struct cc_node *)&e->callchain, h->total_period,
						 shown, min_hit, o->skip_first_frame, h->cc);
	}
	return ferror(fp) ? -EIO : 0;
}
