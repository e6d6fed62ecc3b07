// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stdio output of a histogram, laid out as perf 6.1's `report --stdio`:
 * "# " headers with dotted rules, columns separated by two spaces, widths
 * from the longest value (at least the header), percentages "%6.2f%%".
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/report/hist.h"

struct hist_cols {
	enum sort_key_id id[HIST_MAX_COLS + 4];
	int n;
	bool self;			/* the overhead column is "Self" */
	bool verbose;			/* -v: DSO long names, symbol addresses and origins */
};

static const char *key_header_more(enum sort_key_id k)
{
	static const char *const names[SORT_NR_KEYS] = {
		[SORT_SYMOFF] = "Symbol Offset", [SORT_SRCLINE] = "Source:Line",
		[SORT_SRCFILE] = "Source File", [SORT_PARENT] = "Parent symbol",
		[SORT_SOCKET] = "Socket", [SORT_WEIGHT] = "Weight",
		[SORT_LOCAL_WEIGHT] = "Local Weight", [SORT_OVERHEAD] = "Overhead",
		[SORT_OVERHEAD_SYS] = "sys", [SORT_OVERHEAD_US] = "usr",
		[SORT_OVERHEAD_GUEST_SYS] = "guest sys", [SORT_OVERHEAD_GUEST_US] = "guest usr",
		[SORT_OVERHEAD_CHILDREN] = "Children", [SORT_SAMPLE] = "Samples",
		[SORT_PERIOD] = "Period",
	};

	return k < SORT_NR_KEYS && names[k] ? names[k] : "";
}

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
		return key_header_more(k);
	}
}

static size_t comm_len(const struct hist_entry *e)
{
	return e->thread ? strlen(e->thread->comm->str) : strlen(e->comm->str);
}

static bool dyn_key(enum sort_key_id k)
{
	return k >= SORT_DYN0 && k <= SORT_DYN_LAST;
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
	int d = k - SORT_DYN0;
	int len = e->dyn && e->dyn[d].val ? (int)strlen(e->dyn[d].val) : 0;

	if (h->dyn_left[d])	/* perf: the texts it compared or a field key computed */
		return (e->dyn_compared & (1ull << d)) || field_key_shown(h) ? len : 0;
	if (h->dyn_raw_print[d] || !e->dyn || !e->dyn[d].in_text)
		len = 0;
	if (h->dyn_dynamic[d] && (e->dyn_sized & (1ull << d)) && e->dyn && e->dyn[d].raw &&
	    (int)e->dyn[d].size > len)
		len = (int)e->dyn[d].size;
	return len > h->dyn_width[d] ? len : h->dyn_width[d];
}

/* perf pads the trace text only when another column follows */
static void print_dyn(FILE *fp, const struct hists *h, const struct hist_entry *e, int d, int w,
		      bool last)
{
	const char *v = e->dyn && e->dyn[d].val ? e->dyn[d].val : "";

	if (h->dyn_left[d] && last)
		fprintf(fp, "%.*s", w, v);
	else if (h->dyn_left[d])
		fprintf(fp, "%-*.*s", w, w, v);
	else
		fprintf(fp, "%*.*s", w, w, v);
}

/* The printed text of the keys added after comm/dso/sym/pid/cpu. */
static int key_snprintf_more(char *buf, size_t size, const struct hist_entry *e,
			     enum sort_key_id k, int w)
{
	switch (k) {
	case SORT_SYMOFF:
		if (!e->sym)
			return snprintf(buf, size, "[%c] %-#.*" PRIx64, e->level, 16, e->ip);
		return snprintf(buf, size, "[%c] %s+0x%" PRIx64, e->level, e->sym->name,
				e->ip - e->sym->start);
	case SORT_SRCLINE:
		return snprintf(buf, size, "%-.*s", w, e->srcline);
	case SORT_SRCFILE:
		return snprintf(buf, size, "%-.*s", w, e->srcfile);
	case SORT_PARENT:
		return snprintf(buf, size, "%-*.*s", w, w, e->parent ? e->parent->name : "[other]");
	case SORT_SOCKET:
		return snprintf(buf, size, "%*.*d", w, w > 3 ? w - 3 : 0, e->socket);
	case SORT_WEIGHT:
		return snprintf(buf, size, "%-*" PRIu64, w, e->weight * e->nr_samples);
	case SORT_LOCAL_WEIGHT:
		return snprintf(buf, size, "%-*" PRIu64, w, e->weight);
	default:
		return snprintf(buf, size, "%s", "");
	}
}

static int key_len_more(const struct hist_entry *e, enum sort_key_id k)
{
	char buf[64];

	switch (k) {
	case SORT_SRCLINE:
		return strlen(e->srcline);
	case SORT_SRCFILE:
		return strlen(e->srcfile);
	case SORT_PARENT:
		return e->parent ? e->parent->namelen : 0;
	case SORT_SYMOFF:
		return key_snprintf_more(buf, sizeof(buf), e, k, 0) + (e->sym ? e->sym->namelen : 0);
	default:
		return 0;
	}
}

/* The least width of a column (its header, perf's fixed widths). */
static int min_width(enum sort_key_id k)
{
	int hl = strlen(key_header(k));

	switch (k) {
	case SORT_SAMPLE:
	case SORT_PERIOD:
	case SORT_WEIGHT:
	case SORT_LOCAL_WEIGHT:
		return 12;
	default:
		return sort_key__is_value(k) && hl < 8 ? 8 : hl;
	}
}

static const char *dso_shown(const struct dso *d, bool verbose)
{
	return verbose ? d->long_name : d->short_name;
}

/* -v's symbol prefix: the address and where the symbols came from */
static int sym_prefix(char *buf, size_t size, const struct hist_entry *e, bool verbose)
{
	if (!verbose)
		return 0;
	return snprintf(buf, size, "%-#*" PRIx64 " %c ", 18, e->ip,
			e->dso && e->dso->origin ? e->dso->origin : '!');
}

/* perf's column widths: the longest value, the header, 16 for raw addresses. */
static void compute_widths(const struct hists *h, const struct hist_cols *c, int *w)
{
	bool *compared[HIST_MAX_COLS + 4] = { NULL };
	bool unresolved = false;

	for (int i = 0; i < c->n; i++) {
		w[i] = 0;
		if (c->id[i] == SORT_SRCLINE || c->id[i] == SORT_SRCFILE)
			compared[i] = hists__text_compared(h, c->id[i]);
	}
	for (size_t n = 0; n < h->nr_sorted; n++) {
		const struct hist_entry *e = h->sorted[n];

		unresolved |= !e->sym;
		for (int i = 0; i < c->n; i++) {
			int len = 0;

			switch (c->id[i]) {
			case SORT_COMM:
				len = comm_len(e);
				break;
			case SORT_DSO:
				len = e->dso ? (int)strlen(dso_shown(e->dso, c->verbose)) : 0;
				break;
			case SORT_SYM:
				len = (e->sym ? e->sym->namelen + 4 : 16 + 6) + (c->verbose ? 21 : 0);
				break;
			case SORT_PID:
			case SORT_TID:
				len = comm_len(e) + 8;
				break;
			default:
				len = dyn_key(c->id[i]) ? dyn_len(h, e, c->id[i])
							: key_len_more(e, c->id[i]);
				break;
			}
			/* perf sizes by the source lines it has looked up so far */
			if (compared[i] && !compared[i][n])
				len = 0;
			if (len > w[i])
				w[i] = len;
		}
	}
	for (int i = 0; i < c->n; i++)
		free(compared[i]);
	for (int i = 0; i < c->n; i++) {
		int hl = dyn_key(c->id[i]) ? (int)strlen(h->dyn_header[c->id[i] - SORT_DYN0])
					   : min_width(c->id[i]);

		if (sort_key__is_value(c->id[i]))
			hl *= 1 + h->nr_members;	/* --group: a value per member */
		if (c->id[i] == SORT_DSO && unresolved && w[i] < 16)
			w[i] = 16;
		if (w[i] < hl)
			w[i] = hl;
	}
}

/*
 * Where perf places a data object's start for its "+0x" offset: mapped
 * back into the address space.  An entry of a callchain frame has the
 * frame's address, a sample's entry the DSO-relative one (so perf's offset
 * is then that less the mapped start, as shown here too).
 */
static u64 obj_start(const struct hist_entry *e)
{
	const struct map *m = e->map;

	return m && !m->identity ? e->sym->start + m->start - m->pgoff : e->sym->start;
}

/* The text of key @k of @e in a column of @w (not padded). */
static void key_snprintf(char *buf, size_t size, const struct hist_entry *e, enum sort_key_id k,
			 int w, bool verbose)
{
	switch (k) {
	case SORT_COMM:
		snprintf(buf, size, "%-*.*s", w, w, e->comm->str);
		break;
	case SORT_DSO:
		snprintf(buf, size, "%-*.*s", w, w, e->dso ? dso_shown(e->dso, verbose) : "[unknown]");
		break;
	case SORT_SYM: {
		int n = sym_prefix(buf, size, e, verbose);

		buf += n;
		size -= n;
		w -= n;
		if (!e->sym)
			snprintf(buf, size, "[%c] %-#.*" PRIx64, e->level, 16, e->ip);
		else if (e->sym->type == STT_OBJECT)	/* perf: ip less the start's address */
			snprintf(buf, size, "[%c] %s+0x%" PRIx64, e->level, e->sym->name,
				 e->ip - obj_start(e));
		else
			snprintf(buf, size, "[%c] %.*s%s", e->level, w > 4 ? w - 4 : 0, e->sym->name,
				 e->sym->inlined ? " (inlined)" : "");
		break;
	}
	case SORT_PID:
	case SORT_TID:
		/* perf shows the thread's last comm here, not the sample's */
		snprintf(buf, size, "%7d:%-*.*s", e->thread ? e->thread->tid : -1, w - 8, w - 8,
			 e->thread ? e->thread->comm->str : e->comm->str);
		break;
	case SORT_CPU:
		snprintf(buf, size, "%*.*d", w, w, e->cpu);
		break;
	default:
		key_snprintf_more(buf, size, e, k, w);
		break;
	}
}

/* A key's text; every column but the last is padded to its width, as perf does. */
static void print_key(FILE *fp, const struct hist_entry *e, enum sort_key_id k, int w, bool last,
		      bool verbose)
{
	char buf[4096];
	int len;

	key_snprintf(buf, sizeof(buf), e, k, w, verbose);
	len = fprintf(fp, "%s", buf);
	if (!last && len < w)
		fprintf(fp, "%*s", w - len, "");
}

static const char *col_header(const struct hists *h, const struct hist_cols *c,
			      enum sort_key_id k)
{
	if (dyn_key(k))
		return h->dyn_header[k - SORT_DYN0];
	if (k == SORT_OVERHEAD && c->self)
		return "Self";
	return key_header(k);
}

static void print_headers(FILE *fp, const struct hists *h, const struct hist_cols *c,
			  const int *w)
{
	fprintf(fp, "# ");
	for (int i = 0; i < c->n; i++) {
		const char *name = col_header(h, c, c->id[i]);

		if (i)
			fprintf(fp, "  ");
		if (sort_key__is_value(c->id[i]) ||
		    (dyn_key(c->id[i]) && !h->dyn_left[c->id[i] - SORT_DYN0]))
			fprintf(fp, "%*s", w[i], name);
		else
			fprintf(fp, "%-*.*s", w[i], w[i], name);
	}
	fprintf(fp, "\n# ");
	for (int i = 0; i < c->n; i++) {
		if (i)
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

#define COLOR_RED	"\033[31m"
#define COLOR_GREEN	"\033[32m"
#define COLOR_RESET	"\033[m"

/* A percentage as perf prints it: red from 5%, green above 0.5% (with colour). */
static void print_percent(FILE *fp, double v, int w, bool color)
{
	const char *c = !color ? NULL : v >= 5.0 ? COLOR_RED : v > 0.5 ? COLOR_GREEN : NULL;

	fprintf(fp, "%s %*.2f%%%s", c ? c : "", w - 2, v, c ? COLOR_RESET : "");
}

/* The value of column @k of @e (of @h) in @w characters. */
static void print_one_value(FILE *fp, const struct hists *h, const struct hist_entry *e,
			    enum sort_key_id k, int w, bool color)
{
	static const struct hist_entry none;
	u64 v;

	if (!e)
		e = &none;
	switch (k) {
	case SORT_SAMPLE:
		fprintf(fp, " %*" PRIu64, w - 1, e->nr_samples);
		return;
	case SORT_PERIOD:
		fprintf(fp, " %*" PRIu64, w - 1, e->period);
		return;
	case SORT_OVERHEAD_CHILDREN:
		if (!h->children) {
			fprintf(fp, "%*s", w, "N/A");
			return;
		}
		v = e->period_acc;
		break;
	case SORT_OVERHEAD_SYS:
		v = e->period_sys;
		break;
	case SORT_OVERHEAD_US:
		v = e->period_us;
		break;
	case SORT_OVERHEAD_GUEST_SYS:
		v = e->period_guest_sys;
		break;
	case SORT_OVERHEAD_GUEST_US:
		v = e->period_guest_us;
		break;
	default:
		v = e->period;
		break;
	}
	print_percent(fp, pct(v, h->total_period), w, color);
}

/* A value column: the entry's, then (--group) each member's. */
static void print_value(FILE *fp, const struct hists *h, const struct hist_entry *e,
			enum sort_key_id k, int w, bool color)
{
	int each = w / (1 + h->nr_members);

	print_one_value(fp, h, e, k, each, color);
	for (int m = 0; m < h->nr_members; m++)
		print_one_value(fp, h->members[m], e->pairs ? e->pairs[m] : NULL, k, each, color);
}

/* A tracepoint key is a column only of the events it applies to. */
static bool col_shown(const struct hists *h, enum sort_key_id k)
{
	return !dyn_key(k) || h->dyn_header[k - SORT_DYN0];
}

/* The columns: the format's, or overheads, -n's Samples and the keys. */
static void columns_of(const struct hists *h, const struct hists_print_opts *o,
		       struct hist_cols *c)
{
	c->n = 0;
	if (h->fmt) {
		for (int i = 0; i < h->fmt->nr_fields; i++)
			if (col_shown(h, h->fmt->fields[i]))
				c->id[c->n++] = h->fmt->fields[i];
		c->self = h->fmt->self_header;
		return;
	}
	c->self = h->children;
	if (h->children)
		c->id[c->n++] = SORT_OVERHEAD_CHILDREN;
	c->id[c->n++] = SORT_OVERHEAD;
	if (o->show_nr_samples)
		c->id[c->n++] = SORT_SAMPLE;
	for (int i = 0; i < h->nr_keys; i++)
		if (col_shown(h, h->keys[i]))
			c->id[c->n++] = h->keys[i];
}

/*
 * Is @k the last column of the format?  perf pads a column unless it is,
 * whether the columns after it are shown in this event's section or not
 * (another event's field keys).
 */
static bool last_field(const struct hists *h, enum sort_key_id k)
{
	if (h->fmt)
		return h->fmt->nr_fields && h->fmt->fields[h->fmt->nr_fields - 1] == k;
	return h->nr_keys && h->keys[h->nr_keys - 1] == k;
}

/* The value the percent limit and the callchain percentages use. */
static u64 shown_period(const struct hists *h, const struct hist_entry *e)
{
	return h->children ? e->period_acc : e->period;
}

static void print_callchain(FILE *fp, const struct hists *h, const struct hist_entry *e, u64 shown,
			    u64 min_hit, const struct hists_print_opts *o)
{
	struct cc_node *root = (struct cc_node *)&e->callchain;

	if (h->cc->mode == CHAIN_FLAT)
		callchain__fprintf_flat(fp, root, h->chain_total, min_hit, h->cc);
	else if (h->cc->mode == CHAIN_FOLDED)
		callchain__fprintf_folded(fp, root, h->chain_total, min_hit, h->cc);
	else
		callchain__fprintf_graph(fp, root, h->chain_total, shown, min_hit,
					 o->skip_first_frame, h->cc);
}

int hists__fprintf(struct hists *h, const struct hists_print_opts *o, FILE *fp)
{
	struct hist_cols c;
	int w[HIST_MAX_COLS + 4];
	u64 min_hit = h->cc ? (u64)(h->threshold_total * (h->cc->min_percent / 100)) : 0;
	bool chains = h->has_callchain && h->cc && h->cc->mode != CHAIN_NONE;

	columns_of(h, o, &c);
	c.verbose = o->verbose;
	compute_widths(h, &c, w);
	if (o->show_header)
		print_headers(fp, h, &c, w);
	for (size_t n = 0; n < h->nr_sorted; n++) {
		const struct hist_entry *e = h->sorted[n];
		u64 shown = shown_period(h, e);

		if ((float)pct(shown, h->total_period) < o->min_percent)
			continue;
		fprintf(fp, "  ");
		for (int i = 0; i < c.n; i++) {
			if (i)
				fprintf(fp, "  ");
			if (sort_key__is_value(c.id[i]))
				print_value(fp, h, e, c.id[i], w[i], o->color);
			else if (dyn_key(c.id[i]))
				print_dyn(fp, h, e, c.id[i] - SORT_DYN0, w[i], last_field(h, c.id[i]));
			else
				print_key(fp, e, c.id[i], w[i], last_field(h, c.id[i]), c.verbose);
		}
		fprintf(fp, "\n");
		if (chains)
			print_callchain(fp, h, e, shown, min_hit, o);
	}
	return ferror(fp) ? -EIO : 0;
}
