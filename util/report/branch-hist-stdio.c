// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report's branch mode on stdio: perf 6.1's columns, widths and texts
 * (see branch-hist.h), and its branch type statistics.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "util/report/branch.h"
#include "util/report/branch-hist.h"

/* perf's "%-*.*s" of a NULL string, as glibc prints it */
static const char *null_text(const char *s, int prec)
{
	return s ? s : prec >= 6 ? "(null)" : "";
}

static int dso_len(const struct branch_hists *h, const struct map *m)
{
	return (int)strlen(h->verbose ? m->dso->long_name : m->dso->short_name);
}

/* perf's hists__calc_col_len() for the branch keys, over the entries shown */
static int key_width(const struct branch_hists *h, enum bkey k, size_t n)
{
	int w = (int)strlen(branch_hists__header(k));

	for (size_t i = 0; i < n; i++) {
		const struct bhist_entry *e = h->sorted[i];
		const struct bend *b = NULL;
		int len = 0;

		switch (k) {
		case BKEY_COMM:
			len = (int)strlen(e->comm->str);
			break;
		case BKEY_PID:
			len = (int)strlen(e->thread->comm->str) + 8;
			break;
		case BKEY_DSO_FROM:
		case BKEY_DSO_TO:
			b = k == BKEY_DSO_FROM ? &e->from : &e->to;
			len = b->sym ? dso_len(h, b->map) : 16;
			break;
		case BKEY_SYM_FROM:
		case BKEY_SYM_TO:
		case BKEY_SYM:
			b = k == BKEY_SYM_FROM ? &e->from : &e->to;
			len = b->sym ? b->sym->namelen + 4 : 16 + 4 + 2;
			break;
		case BKEY_ADDR_FROM:	/* perf sizes these by the unresolved ones only */
		case BKEY_ADDR_TO:
			b = k == BKEY_ADDR_FROM ? &e->from : &e->to;
			len = b->sym ? 0 : 16 + 4 + 2;
			break;
		case BKEY_DSO:	/* the DSO's name; 16 at least with an unresolved symbol */
			len = e->to.map ? dso_len(h, e->to.map) : 0;
			if (!e->to.sym && len < 16)
				len = 16;
			break;
		case BKEY_SRCLINE_FROM:
			len = e->srcline_from ? (int)strlen(e->srcline_from) : 0;
			break;
		case BKEY_SRCLINE_TO:
			len = e->srcline_to ? (int)strlen(e->srcline_to) : 0;
			break;
		default:
			break;
		}
		if (len > w)
			w = len;
	}
	return w;
}

static u64 unmap_ip(const struct map *m, u64 ip)
{
	return m->identity ? ip : ip + m->start - m->pgoff;
}

/*
 * perf's _hist_entry__sym_snprintf() (addr: _hist_entry__addr_snprintf())
 * of address @ip: the map-relative one of symbol_from/to and addr_from/to,
 * the sampled one of sym
 */
static int end_snprintf(char *buf, size_t size, const struct bend *b, u64 ip, char level, int w,
			bool addr)
{
	int n = snprintf(buf, size, "[%c] ", level);

	if (!b->sym || !b->map)
		return n + snprintf(buf + n, size - n, "%-#.*" PRIx64, 16, ip);
	if (b->sym->type == STT_OBJECT)
		return n + snprintf(buf + n, size - n, "%s+0x%" PRIx64, b->sym->name,
				    ip - unmap_ip(b->map, b->sym->start));
	n += snprintf(buf + n, size - n, "%.*s", w - n > 0 ? w - n : 0, b->sym->name);
	if (addr && ip != b->sym->start)
		n += snprintf(buf + n, size - n, "+0x%" PRIx64, ip - b->sym->start);
	else if (!addr && b->sym->inlined)
		n += snprintf(buf + n, size - n, " (inlined)");
	return n;
}

/* perf prints mispredict with a static: an entry with neither flag shows the last one's */
struct print_state {
	const char *mispredict;
};

static void key_snprintf(char *buf, size_t size, const struct branch_hists *h,
			 const struct bhist_entry *e, enum bkey k, int w, struct print_state *ps)
{
	const struct bend *b;

	switch (k) {
	case BKEY_COMM:
		snprintf(buf, size, "%-*.*s", w, w, e->comm->str);
		break;
	case BKEY_PID:
		snprintf(buf, size, "%7d:%-*.*s", e->thread->tid, w - 8, w - 8,
			 e->thread->comm->str);
		break;
	case BKEY_DSO_FROM:
	case BKEY_DSO_TO:
		b = k == BKEY_DSO_FROM ? &e->from : &e->to;
		snprintf(buf, size, "%-*.*s", w, w,
			 b->map ? (h->verbose ? b->map->dso->long_name : b->map->dso->short_name)
				: "[unknown]");
		break;
	case BKEY_SYM_FROM:
		end_snprintf(buf, size, &e->from, e->from.al_addr, e->from.level, w, false);
		break;
	case BKEY_SYM_TO:
		end_snprintf(buf, size, &e->to, e->to.al_addr, e->to.level, w, false);
		break;
	case BKEY_ADDR_FROM:	/* perf shows the entry's level: the sample's */
		end_snprintf(buf, size, &e->from, e->from.al_addr, e->level, w, true);
		break;
	case BKEY_ADDR_TO:
		end_snprintf(buf, size, &e->to, e->to.al_addr, e->level, w, true);
		break;
	case BKEY_DSO:
		snprintf(buf, size, "%-*.*s", w, w,
			 e->to.map ? (h->verbose ? e->to.map->dso->long_name :
				      e->to.map->dso->short_name) : "[unknown]");
		break;
	case BKEY_SYM:
		end_snprintf(buf, size, &e->to, e->to.addr, e->level, w, false);
		break;
	case BKEY_IPC:	/* no annotation in stdio: perf's zeros */
		snprintf(buf, size, "%-*s", w, e->to.sym ? "0.00  [  0.0%]" : "-");
		break;
	case BKEY_MISPREDICT:
		if (BRANCH_PREDICTED(e->flags))
			ps->mispredict = "N";
		else if (BRANCH_MISPRED(e->flags))
			ps->mispredict = "Y";
		snprintf(buf, size, "%-*.*s", w, w, ps->mispredict);
		break;
	case BKEY_IN_TX:
		snprintf(buf, size, "%-*s", w, BRANCH_IN_TX(e->flags) ? "T" : ".");
		break;
	case BKEY_ABORT:
		snprintf(buf, size, "%-*s", w, BRANCH_ABORT(e->flags) ? "A" : ".");
		break;
	case BKEY_CYCLES:
		if (!BRANCH_CYCLES(e->flags))
			snprintf(buf, size, "%-*s", w, "-");
		else	/* perf's %hd: 32768 and more are negative */
			snprintf(buf, size, "%-*d", w, (int)(short)BRANCH_CYCLES(e->flags));
		break;
	case BKEY_SRCLINE_FROM:
		snprintf(buf, size, "%-*.*s", w, w, null_text(e->srcline_from, w));
		break;
	case BKEY_SRCLINE_TO:
		snprintf(buf, size, "%-*.*s", w, w, null_text(e->srcline_to, w));
		break;
	default:
		buf[0] = '\0';
	}
}

#define COLOR_RED	"\033[31m"
#define COLOR_GREEN	"\033[32m"
#define COLOR_RESET	"\033[m"

int branch_hists__fprintf(struct branch_hists *h, bool header, double min_percent, bool color,
			  FILE *fp)
{
	int w[BHIST_MAX_KEYS];
	struct print_state ps = { "N/A" };
	size_t shown = 0;
	char buf[4096];

	for (size_t i = 0; i < h->nr_sorted; i++) {
		double pct = h->total_period ? h->sorted[i]->period * 100.0 / h->total_period : 0;

		if (pct < min_percent)
			break;
		shown++;
	}
	for (int k = 0; k < h->nr_keys; k++)
		w[k] = key_width(h, h->keys[k], h->nr_sorted);
	if (header) {
		fprintf(fp, "# Overhead");
		for (int k = 0; k < h->nr_keys; k++)
			fprintf(fp, "  %-*.*s", w[k], w[k], branch_hists__header(h->keys[k]));
		fprintf(fp, "\n# ........");
		for (int k = 0; k < h->nr_keys; k++) {
			fputs("  ", fp);
			for (int i = 0; i < w[k]; i++)
				fputc('.', fp);
		}
		fprintf(fp, "\n#\n");
	}
	for (size_t i = 0; i < shown; i++) {
		const struct bhist_entry *e = h->sorted[i];
		double pct = h->total_period ? e->period * 100.0 / h->total_period : 0;
		const char *c = !color ? NULL : pct >= 5.0 ? COLOR_RED : pct > 0.5 ? COLOR_GREEN : NULL;

		fprintf(fp, " %s %7.2f%%%s", c ? c : "", pct, c ? COLOR_RESET : "");
		for (int k = 0; k < h->nr_keys; k++) {
			int len;

			key_snprintf(buf, sizeof(buf), h, e, h->keys[k], w[k], &ps);
			len = fprintf(fp, "  %s", buf) - 2;
			if (k < h->nr_keys - 1 && len < w[k])
				fprintf(fp, "%*s", w[k] - len, "");
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -EIO : 0;
}

void branch_hists__fprintf_stat(const struct branch_hists *h, FILE *fp)
{
	const struct bhist_type_stat *st = &h->st;
	u64 total = 0;

	for (int i = 0; i < 16; i++)	/* the extended types are not in perf's total */
		total += st->counts[i];
	if (!total)
		return;
	fprintf(fp, "\n#\n# Branch Statistics:\n#");
	if (st->cond_fwd)
		fprintf(fp, "\n%8s: %5.1f%%", "COND_FWD", 100.0 * st->cond_fwd / total);
	if (st->cond_bwd)
		fprintf(fp, "\n%8s: %5.1f%%", "COND_BWD", 100.0 * st->cond_bwd / total);
	if (st->cross_4k)
		fprintf(fp, "\n%8s: %5.1f%%", "CROSS_4K", 100.0 * st->cross_4k / total);
	if (st->cross_2m)
		fprintf(fp, "\n%8s: %5.1f%%", "CROSS_2M", 100.0 * st->cross_2m / total);
	for (int i = 1; i < 15; i++)
		if (st->counts[i])
			fprintf(fp, "\n%8s: %5.1f%%", branch__type_name((u64)i << 20),
				100.0 * st->counts[i] / total);
	for (int i = 0; i < 8; i++)	/* perf's PERF_BR_NEW_MAX: the named ones */
		if (st->new_counts[i])
			fprintf(fp, "\n%8s: %5.1f%%", branch__type_name(15ULL << 20 | (u64)i << 26),
				100.0 * st->new_counts[i] / total);
}
