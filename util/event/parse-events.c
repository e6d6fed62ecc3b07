// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event grammar, a hand-written recursive descent parser:
 *
 *   list   := item (',' item)*
 *   item   := '{' event (',' event)* '}' [':' mods]  |  event
 *   event  := sym [ '/' terms '/' ] [':' mods]      symbolic, cache, raw rNNN
 *           | pmu '/' terms '/' [[':'] mods]         PMU/event=1,umask=2/
 *           | sys ':' name [':' mods]                tracepoints (globs)
 *           | 'mem:' addr ['/' len] [':' rwx] [':' mods]
 *           | alias [':' mods]                       a PMU's sysfs event name
 *   terms  := term (',' term)*,  term := name ['=' value]
 *
 * Each event gets the attr Linux perf 6.1 gives it and perf's name: the
 * text as written ("cycles:u", "msr/tsc/"), "sys:name" for tracepoints,
 * or the name= term.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <unistd.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/cpumap.h"
#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/lib/fs.h"
#include "util/lib/levenshtein.h"
#include "util/event/parse-events.h"
#include "util/event/pmu.h"
#include "util/event/powercap.h"

#include <linux/hw_breakpoint.h>

const struct event_symbol event_symbols_hw[] = {
	{ "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", "", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", "", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", "", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", "", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", "", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", "", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};
const int nr_event_symbols_hw = sizeof(event_symbols_hw) / sizeof(event_symbols_hw[0]);

const struct event_symbol event_symbols_sw[] = {
	{ "cpu-clock", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", "", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", "", PERF_TYPE_SOFTWARE, 11 /* PERF_COUNT_SW_CGROUP_SWITCHES */ },
};
const int nr_event_symbols_sw = sizeof(event_symbols_sw) / sizeof(event_symbols_sw[0]);

/* Generic cache events: every spelling perf accepts (case-sensitive). */
#define MAX_ALIASES 6
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};
#define OPS(r, w, p) ((r) | (w) << 1 | (p) << 2)
/* Which operations each cache type has (perf lists only these). */
static const unsigned char cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	OPS(1, 1, 1), OPS(1, 0, 1), OPS(1, 1, 1), OPS(1, 1, 1), OPS(1, 0, 0),
	OPS(1, 0, 0), OPS(1, 1, 1),
};

static bool cache_op_valid(int type, int op)
{
	return cache_valid_ops[type] & (1 << op);
}

/**
 * for_each_hw_cache_event - call @cb with every valid generic cache event
 * @cb: gets the name ("L1-dcache-load-misses") and the config; non-zero stops
 * @data: passed to @cb
 *
 * Types, then operations, then results, skipping the operations a type
 * does not have (as `perf list` shows them).
 * Return: 0, or what @cb returned when it stopped the walk.
 */
int for_each_hw_cache_event(int (*cb)(const char *name, uint64_t config, void *data),
			    void *data)
{
	char name[256];
	int ret;

	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!cache_op_valid(t, op))
				continue;
			for (int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				if (r)
					snprintf(name, sizeof(name), "%s-%s-%s", cache_types[t][0],
						 cache_ops[op][0], cache_results[r][0]);
				else
					snprintf(name, sizeof(name), "%s-%s", cache_types[t][0],
						 cache_ops[op][1]);
				ret = cb(name, (uint64_t)t | (uint64_t)op << 8 | (uint64_t)r << 16,
					 data);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/* ---- state and errors ---- */

struct pe_state {
	const char *str;		/* the whole string */
	const char *p;			/* cursor */
	struct evlist *list;		/* events parsed so far (spliced on success) */
	struct parse_events_error *err;
	struct parse_events_opts *opts;	/* of the list parsed into */
	/* "ldlat=?" terms of an alias that the user must still give */
	char required[4][256];
	int nr_required;
	const char *required_at;
};

static int pe_error(struct pe_state *st, const char *at, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int pe_error(struct pe_state *st, const char *at, const char *help, const char *fmt, ...)
{
	struct parse_events_error *err = st->err;
	va_list ap;

	if (!err || err->msg)
		return -EINVAL;
	va_start(ap, fmt);
	if (vasprintf(&err->msg, fmt, ap) < 0)
		err->msg = NULL;
	va_end(ap);
	err->str = strdup(st->str);
	err->idx = (int)(at - st->str);
	err->help = help ? strdup(help) : NULL;
	return -EINVAL;
}

/**
 * parse_events_error__print - print a parse error with a caret under the token
 * @err: the error filled by parse_events()
 * @fp: where to (stderr)
 *
 * "tperf: event syntax error: 'STR'", a line with '^' under byte err->idx
 * followed by the message, then the help line when there is one.
 */
void parse_events_error__print(const struct parse_events_error *err, FILE *fp)
{
	static const char prefix[] = "tperf: event syntax error: '";

	if (!err || !err->msg)
		return;
	fprintf(fp, "%s%s'\n", prefix, err->str ? err->str : "");
	fprintf(fp, "%*s^ %s\n", (int)(sizeof(prefix) - 1) + err->idx, "", err->msg);
	if (err->help)
		fprintf(fp, "%s\n", err->help);
}

/**
 * parse_events_error__exit - free what parse_events() put into @err
 * @err: the error (may be NULL or empty)
 */
void parse_events_error__exit(struct parse_events_error *err)
{
	if (!err)
		return;
	free(err->str);
	free(err->msg);
	free(err->help);
	err->str = err->msg = err->help = NULL;
	err->idx = 0;
}

/* ---- lexing helpers ---- */

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.' || c == '*' || c == '?' ||
	       c == '[' || c == ']' || c == '!';
}

/* A name at the cursor, into @buf; its length (0: none, -1: too long). */
static int lex_name(const char *p, char *buf, size_t size)
{
	size_t n = 0;

	while (is_name_char((unsigned char)p[n]))
		n++;
	if (n >= size)
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return (int)n;
}

/* A number: decimal or 0x hex.  Its length, 0 when none or too big. */
static int lex_number(const char *p, uint64_t *val)
{
	const char *s = p;
	int base = 10;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		base = 16;
		s += 2;
	} else if (!isdigit((unsigned char)*p)) {
		return 0;
	}
	for (; base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s); s++) {
		int d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;

		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return 0;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*val = v;
	return (int)(s - p);
}

/* perf's lexer skips blanks between tokens: "cpu-clock, task-clock" */
static void skip_ws(struct pe_state *st)
{
	while (*st->p == ' ' || *st->p == '\t' || *st->p == '\n')
		st->p++;
}

static bool at_event_end(const char *p)
{
	return !*p || *p == ',' || *p == '}';
}

/* ---- evsel creation ---- */

static struct evsel *pe_new_evsel(struct pe_state *st, struct perf_event_attr *attr)
{
	struct evsel *evsel;

	/* perf's default: count the host only (exclude_guest) */
	attr->exclude_guest = 1;
	attr->size = sizeof(*attr);
	evsel = evsel__new(attr);
	if (evsel)
		evlist__add(st->list, evsel);
	return evsel;
}

/* ---- modifiers ---- */

struct pe_mods {
	int eu, ek, eh, eH, eG, eI, precise, precise_max, exclude_GH;
	int sample_read, pinned, weak, exclusive;
};

/*
 * Parse the modifier letters at @p (length @len) into @m, starting from the
 * bits of @start (a group's modifiers add to its members) or from zero.
 */
static int pe_parse_mods(struct pe_state *st, const char *p, int len, const struct evsel *start,
			 struct pe_mods *m)
{
	const struct perf_event_attr *a = start ? &start->attr : NULL;
	int exclude;
	int seen[128] = { 0 };

	memset(m, 0, sizeof(*m));
	if (a) {
		m->eu = a->exclude_user;
		m->ek = a->exclude_kernel;
		m->eh = a->exclude_hv;
		m->eH = a->exclude_host;
		m->eG = a->exclude_guest;
		m->eI = a->exclude_idle;
		m->precise = a->precise_ip;
		m->exclude_GH = start->exclude_GH;
		m->exclusive = a->exclusive;
		m->pinned = a->pinned;
		m->sample_read = start->sample_read_leader;
		m->weak = start->weak_group;
		m->precise_max = start->precise_max;
	}
	exclude = m->eu | m->ek | m->eh;
	for (int i = 0; i < len; i++) {
		int c = (unsigned char)p[i];

		if (c < 128 && c != 'p' && seen[c]++)
			return pe_error(st, p + i, NULL, "modifier '%c' is given twice", c);
		switch (c) {
		case 'u':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			if (!m->exclude_GH)
				m->eG = 1;
			m->eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			m->ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			m->eh = 0;
			break;
		case 'G':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = 1;
			m->eG = 0;
			break;
		case 'H':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = 1;
			m->eH = 0;
			break;
		case 'I':
			m->eI = 1;
			break;
		case 'p':
			m->precise++;
			if (!m->exclude_GH)
				m->eG = 1;
			break;
		case 'P':
			m->precise_max = 1;
			break;
		case 'S':
			m->sample_read = 1;
			break;
		case 'D':
			m->pinned = 1;
			break;
		case 'W':
			m->weak = 1;
			break;
		case 'e':
			m->exclusive = 1;
			break;
		default:
			return pe_error(st, p + i, "valid modifiers: u,k,h,G,H,I,p,pp,ppp,P,S,D,W,e",
					"unknown modifier '%c'", c);
		}
	}
	if (m->precise > 3)
		return pe_error(st, p, NULL, "precise level ':%.*s' is too high (at most ppp)",
				len, p);
	return 0;
}

static void pe_apply_mods(struct evsel *e, const struct pe_mods *m)
{
	e->attr.exclude_user = m->eu;
	e->attr.exclude_kernel = m->ek;
	e->attr.exclude_hv = m->eh;
	e->attr.exclude_host = m->eH;
	e->attr.exclude_guest = m->eG;
	e->attr.exclude_idle = m->eI;
	e->attr.precise_ip = m->precise;
	/*
	 * Only a leader may be pinned or exclusive: "{a,b}:D" pins a, as
	 * perf does (a member's own "b:D" stays, and the kernel refuses it).
	 */
	if (evsel__is_group_leader(e)) {
		e->attr.pinned = m->pinned;
		e->attr.exclusive = m->exclusive;
	}
	e->exclude_GH = m->exclude_GH;
	e->precise_max = m->precise_max;
	e->sample_read_leader = m->sample_read;
	e->weak_group = m->weak;
}

static bool is_mod_char(int c)
{
	return c && strchr("ukhGHIpPSDWe", c);
}

/* Length of a modifier string at @p (letters up to the end of the event). */
static int mods_len(const char *p)
{
	int n = 0;

	while (p[n] && !at_event_end(p + n) && p[n] != ':' && p[n] != '/' &&
	       !isspace((unsigned char)p[n]))
		n++;
	return n;
}

/*
 * Parse ":mods" (or "mods" when @colon_optional and the cursor is on a
 * letter) and apply them to the events of the list from index @first.
 */
static int pe_event_mods(struct pe_state *st, int first, bool colon_optional)
{
	struct pe_mods m;
	struct evsel *e;
	int len, ret;

	if (*st->p == ':') {
		st->p++;
		skip_ws(st);
	} else if (!colon_optional || !is_mod_char((unsigned char)*st->p)) {
		return 0;
	}
	len = mods_len(st->p);
	if (!len)
		return pe_error(st, st->p, "valid modifiers: u,k,h,G,H,I,p,pp,ppp,P,S,D,W,e",
				"missing modifier after ':'");
	ret = pe_parse_mods(st, st->p, len, NULL, &m);
	if (ret)
		return ret;
	evlist__for_each_entry(st->list, e)
		if (e->idx >= first)
			pe_apply_mods(e, &m);
	st->p += len;
	return 0;
}

/* ---- terms ---- */

struct pe_term {
	const char *at;		/* where it starts, for errors */
	char name[256];
	bool has_val, is_num;
	uint64_t num;
	char str[256];
};

static const char *const config_term_names[] = {
	"config", "config1", "config2", "name", "period", "freq", "branch_type", "time",
	"call-graph", "stack-size", "no-inherit", "inherit", "max-stack", "nr",
	"no-overwrite", "overwrite", "driver-config", "percore", "aux-output",
	"aux-sample-size", "metric-id",
};
static const char *const stat_term_names[] = {
	"config", "config1", "config2", "name", "period", "percore", "metric-id",
};

static bool term_is_config(const char *name)
{
	for (size_t i = 0; i < sizeof(config_term_names) / sizeof(config_term_names[0]); i++)
		if (!strcmp(name, config_term_names[i]))
			return true;
	return false;
}

/* The terms perf 6.1 takes on a tracepoint (config_term_tracepoint()). */
static bool term_is_tracepoint(const char *name)
{
	static const char *const names[] = {
		"call-graph", "stack-size", "inherit", "no-inherit", "max-stack", "nr",
		"overwrite", "no-overwrite", "aux-output", "aux-sample-size",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static bool term_usable(const struct pe_state *st, const char *name)
{
	if (!st->opts->stat_terms)
		return true;
	for (size_t i = 0; i < sizeof(stat_term_names) / sizeof(stat_term_names[0]); i++)
		if (!strcmp(name, stat_term_names[i]))
			return true;
	return false;
}

/* "valid terms: <formats>,config,config1,..." for @pmu (may be NULL). */
static char *valid_terms_help(const struct pe_state *st, struct pmu *pmu)
{
	char buf[1024];
	const char *const *names = st->opts->stat_terms ? stat_term_names : config_term_names;
	size_t n = st->opts->stat_terms ? sizeof(stat_term_names) / sizeof(stat_term_names[0])
				   : sizeof(config_term_names) / sizeof(config_term_names[0]);
	size_t len;

	len = (size_t)snprintf(buf, sizeof(buf), "valid terms: ");
	if (pmu) {
		len += (size_t)pmu__format_list(pmu, buf + len, sizeof(buf) - len);
	}
	for (size_t i = 0; i < n && len < sizeof(buf); i++) {
		if (!strcmp(names[i], "time") || !strcmp(names[i], "nr") ||
		    !strcmp(names[i], "driver-config") || !strcmp(names[i], "aux-sample-size"))
			continue;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					len > 13 ? "," : "", names[i]);
	}
	return strdup(buf);
}

/* Parse one term at st->p (stops at ',' or '/'). */
static int pe_lex_term(struct pe_state *st, struct pe_term *t)
{
	const char *p = st->p;
	int n;

	memset(t, 0, sizeof(*t));
	t->at = p;
	n = 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-' || p[n] == '.')
		n++;
	if (!n)
		return pe_error(st, p, NULL, *p ? "expected a term name" : "missing '/' at the end of the terms");
	if ((size_t)n >= sizeof(t->name))
		return pe_error(st, p, NULL, "term name too long");
	memcpy(t->name, p, (size_t)n);
	p += n;
	if (*p == '=') {
		const char *v = ++p;
		int vn;

		t->has_val = true;
		while (*p && *p != ',' && *p != '/' && !isspace((unsigned char)*p))
			p++;
		vn = lex_number(v, &t->num);
		if (vn && vn == p - v) {
			t->is_num = true;
		} else if (p == v) {
			return pe_error(st, v, NULL, "missing value for term '%s'", t->name);
		} else if (p - v >= (int)sizeof(t->str)) {
			return pe_error(st, v, NULL, "value of term '%s' too long", t->name);
		}
		memcpy(t->str, v, (size_t)(p - v));
		t->str[p - v] = '\0';
	}
	if (*p != ',' && *p != '/')
		return pe_error(st, p, NULL, *p ? "expected ',' or '/' after a term" :
				"missing '/' at the end of the terms");
	st->p = p;
	return 0;
}

static int term_need_num(struct pe_state *st, const struct pe_term *t, uint64_t *v)
{
	if (!t->has_val) {
		*v = 1;
		return 0;
	}
	if (!t->is_num)
		return pe_error(st, t->at, NULL, "term '%s' takes a number, not '%s'", t->name, t->str);
	*v = t->num;
	return 0;
}

static int term_need_str(struct pe_state *st, const struct pe_term *t, char *dst, size_t size)
{
	if (!t->has_val || !t->str[0])
		return pe_error(st, t->at, NULL, "term '%s' needs a value", t->name);
	if (strlen(t->str) >= size)
		return pe_error(st, t->at, NULL, "value of term '%s' too long", t->name);
	strcpy(dst, t->str);
	return 0;
}

/*
 * name=: perf's characters only, in a pair of quotes or not (the quotes
 * are not part of the name), so that no quote or backslash reaches the
 * names printed in CSV and JSON.
 */
static int pe_name_term(struct pe_state *st, struct evsel *e, const struct pe_term *t)
{
	const char *v = t->str, *at = t->at + strlen("name=");
	char name[sizeof(t->str)];
	size_t n = strlen(v);

	if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
		v++, at++;
		n -= 2;
	}
	if (!t->has_val || !n)
		return pe_error(st, t->at, NULL, "term 'name' needs a value");
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr("_*?.[]!:=-", v[i]))
			return pe_error(st, at + i, NULL, "'%c' cannot be in an event name", v[i]);
	memcpy(name, v, n);
	name[n] = '\0';
	e->name_term = true;
	return evsel__set_name(e, name);
}

/* perf 6.1's branch filter names (parse_branch_str()) */
static const struct {
	const char *name;
	uint64_t mode;
} branch_modes[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

/*
 * branch_type=any|u|... (one name: ',' ends the term): record samples the
 * branch stack with that filter; a privilege level alone means any branch
 * at that level (perf's rule); "no" samples none.
 */
static int pe_branch_term(struct pe_state *st, const struct pe_term *t,
			  struct evsel_config_terms *ct)
{
	size_t i, n = sizeof(branch_modes) / sizeof(branch_modes[0]);
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;
	int ret = term_need_str(st, t, ct->branch_type, sizeof(ct->branch_type));

	if (ret)
		return ret;
	ct->branch_sample_type = 0;
	if (!strcmp(t->str, "no"))
		return 0;
	for (i = 0; i < n && strcmp(t->str, branch_modes[i].name); i++)
		;
	if (i == n)
		return pe_error(st, t->at, "valid branch filters: u,k,hv,any,any_call,any_ret,"
				"ind_call,abort_tx,in_tx,no_tx,cond,ind_jmp,call,save_type,"
				"stack,priv", "unknown branch filter '%s'", t->str);
	ct->branch_sample_type = branch_modes[i].mode;
	if (!(ct->branch_sample_type & ~plm))
		ct->branch_sample_type |= PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/* Apply a config term (config=, name=, period= ...) to @e. */
static int pe_config_term(struct pe_state *st, struct evsel *e, const struct pe_term *t)
{
	struct evsel_config_terms *ct = &e->terms;
	uint64_t v = 0;
	int ret = 0;

	if (!term_usable(st, t->name))
		return pe_error(st, t->at, NULL, "'%s' is not usable in 'tperf stat'", t->name);
	if (!strcmp(t->name, "name"))
		return pe_name_term(st, e, t);
	if (!strcmp(t->name, "call-graph"))
		return term_need_str(st, t, ct->call_graph, sizeof(ct->call_graph));
	if (!strcmp(t->name, "metric-id"))
		return term_need_str(st, t, ct->metric_id, sizeof(ct->metric_id));
	if (!strcmp(t->name, "branch_type"))
		return pe_branch_term(st, t, ct);
	if (!strcmp(t->name, "driver-config"))
		return term_need_str(st, t, (char[128]){ 0 }, 128);
	ret = term_need_num(st, t, &v);
	if (ret)
		return ret;
	if (!strcmp(t->name, "config"))
		e->attr.config = v;
	else if (!strcmp(t->name, "config1"))
		e->attr.config1 = v;
	else if (!strcmp(t->name, "config2"))
		e->attr.config2 = v;
	else if (!strcmp(t->name, "period"))	/* the later of period= and freq= wins */
		ct->period_set = true, ct->period = v, ct->freq_set = false;
	else if (!strcmp(t->name, "freq"))
		ct->freq_set = true, ct->freq = v, ct->period_set = false;
	else if (!strcmp(t->name, "time"))
		ct->time = v ? 1 : 0;
	else if (!strcmp(t->name, "inherit"))
		ct->inherit = v ? 1 : 0;
	else if (!strcmp(t->name, "no-inherit"))
		ct->inherit = v ? 0 : 1;
	else if (!strcmp(t->name, "overwrite"))
		ct->overwrite = v ? 1 : 0;
	else if (!strcmp(t->name, "no-overwrite"))
		ct->overwrite = v ? 0 : 1;
	else if (!strcmp(t->name, "stack-size"))
		ct->stack_size = (uint32_t)v;
	else if (!strcmp(t->name, "max-stack"))
		ct->max_stack = (int)v;
	else if (!strcmp(t->name, "percore"))
		ct->percore = v != 0;
	else if (!strcmp(t->name, "aux-output"))
		ct->aux_output = v != 0;
	else if (!strcmp(t->name, "aux-sample-size"))
		ct->aux_sample_size = v;
	return 0;
}

static int pe_pmu_term(struct pe_state *st, struct evsel *e, struct pmu *pmu,
		       const struct pe_term *t, int depth);

/* Expand a sysfs alias ("event=0x3c,umask=0x00") into @e. */
static int pe_apply_alias(struct pe_state *st, struct evsel *e, struct pmu *pmu,
			  struct pmu_alias *a, const struct pe_term *at, int depth)
{
	const char *p = a->terms;

	if (depth > 2)
		return pe_error(st, at->at, NULL, "alias '%s' of PMU '%s' refers to itself",
				a->name, pmu->name);
	while (*p) {
		struct pe_term t;
		size_t n;
		char *eq;
		int ret;

		while (isspace((unsigned char)*p))
			p++;
		n = strcspn(p, ",");

		memset(&t, 0, sizeof(t));
		t.at = at->at;
		if (n >= sizeof(t.str))
			return pe_error(st, at->at, NULL, "alias '%s' of PMU '%s' is too long",
					a->name, pmu->name);
		memcpy(t.str, p, n);
		t.str[n] = '\0';
		while (n && isspace((unsigned char)t.str[n - 1]))
			t.str[--n] = '\0';
		eq = strchr(t.str, '=');
		if (eq) {
			*eq = '\0';
			snprintf(t.name, sizeof(t.name), "%s", t.str);
			memmove(t.str, eq + 1, strlen(eq + 1) + 1);
			t.has_val = true;
			t.is_num = lex_number(t.str, &t.num) == (int)strlen(t.str) && t.str[0];
		} else {
			snprintf(t.name, sizeof(t.name), "%s", t.str);
			t.str[0] = '\0';
		}
		if (t.has_val && !strcmp(t.str, "?")) {
			/* a parameter: the user gives it ("cpu/mem-loads,ldlat=30/") */
			if (st->nr_required < 4)
				snprintf(st->required[st->nr_required++], sizeof(st->required[0]),
					 "%s", t.name);
			st->required_at = at->at;
		} else if (t.name[0]) {
			ret = pe_pmu_term(st, e, pmu, &t, depth + 1);
			if (ret)
				return ret;
		}
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	e->scale = a->scale;
	e->unit = a->unit;
	e->per_pkg = a->per_pkg;
	e->snapshot = a->snapshot;
	return 0;
}

static int pe_pmu_term(struct pe_state *st, struct evsel *e, struct pmu *pmu,
		       const struct pe_term *t, int depth)
{
	struct pmu_format *f = pmu__find_format(pmu, t->name);
	struct pmu_alias *a;
	uint64_t v = 0;
	int ret;

	for (int i = 0; f && i < st->nr_required; i++) {
		if (!strcmp(st->required[i], t->name))
			st->required[i][0] = '\0';	/* given */
	}
	if (f) {
		ret = term_need_num(st, t, &v);
		if (ret)
			return ret;
		ret = pmu__format_encode(pmu, t->name, v, &e->attr);
		if (ret == -ERANGE) {
			int w = __builtin_popcountll(f->bits);
			char help[384];

			snprintf(help, sizeof(help), "the largest value of '%s' is %#llx", t->name,
				 (unsigned long long)(w >= 64 ? ~0ULL : (1ULL << w) - 1));
			return pe_error(st, t->at, help,
					"value %#llx too big for term '%s' of PMU '%s'",
					(unsigned long long)v, t->name, pmu->name);
		}
		if (ret)
			return pe_error(st, t->at, NULL, "cannot encode term '%s' of PMU '%s'",
					t->name, pmu->name);
		return 0;
	}
	if (term_is_config(t->name))
		return pe_config_term(st, e, t);
	a = !t->has_val ? pmu__find_alias(pmu, t->name) : NULL;
	if (a)
		return pe_apply_alias(st, e, pmu, a, t, depth);
	{
		char *help = valid_terms_help(st, pmu);

		ret = pe_error(st, t->at, help, "unknown term '%s' for PMU '%s'", t->name,
			       pmu->name);
		free(help);
		return ret;
	}
}

/* Parse "term,term/" after the opening '/', calling the term handler. */
/* Every "term=?" of the aliases used must have been given. */
static int pe_check_required(struct pe_state *st)
{
	int n = st->nr_required;

	st->nr_required = 0;
	for (int i = 0; i < n; i++) {
		if (st->required[i][0])
			return pe_error(st, st->required_at, NULL,
					"this event needs a value for '%s': add ',%s=N'",
					st->required[i], st->required[i]);
	}
	return 0;
}

static int pe_terms(struct pe_state *st, struct evsel *e, struct pmu *pmu,
		    const char *ev_name)
{
	st->nr_required = 0;
	if (*st->p == '/') {
		st->p++;
		return 0;
	}
	for (;;) {
		struct pe_term t;
		int ret = pe_lex_term(st, &t);

		if (ret)
			return ret;
		if (pmu) {
			ret = pe_pmu_term(st, e, pmu, &t, 0);
		} else if (e->attr.type == PERF_TYPE_TRACEPOINT && !term_is_tracepoint(t.name)) {
			ret = pe_error(st, t.at, "valid terms: call-graph,stack-size,max-stack,"
				       "inherit,no-inherit,overwrite,no-overwrite,aux-output",
				       "unknown term '%s' for tracepoint '%s:%s'", t.name,
				       e->tp_sys, e->tp_name);
		} else if (term_is_config(t.name)) {
			ret = pe_config_term(st, e, &t);
		} else {
			char *help = valid_terms_help(st, NULL);

			ret = pe_error(st, t.at, help, "unknown term '%s' for event '%s'",
				       t.name, ev_name);
			free(help);
		}
		if (ret)
			return ret;
		if (*st->p == '/') {
			st->p++;
			return pe_check_required(st);
		}
		st->p++; /* ',' */
	}
}

/* Parse the same "terms/" (cursor after the '/') for every event from @first. */
static int pe_terms_each(struct pe_state *st, int first, struct pmu *pmu, const char *ev_name)
{
	const char *terms = st->p, *end = terms;
	struct evsel *e;
	int ret;

	evlist__for_each_entry(st->list, e) {
		if (e->idx < first)
			continue;
		st->p = terms;
		ret = pe_terms(st, e, pmu, ev_name);
		if (ret)
			return ret;
		end = st->p;
	}
	st->p = end;
	return 0;
}

/* ---- the event kinds ---- */

static const struct event_symbol *find_symbol(const char *name)
{
	for (int i = 0; i < nr_event_symbols_hw; i++)
		if (!strcmp(name, event_symbols_hw[i].symbol) ||
		    !strcmp(name, event_symbols_hw[i].alias))
			return &event_symbols_hw[i];
	for (int i = 0; i < nr_event_symbols_sw; i++)
		if (!strcmp(name, event_symbols_sw[i].symbol) ||
		    !strcmp(name, event_symbols_sw[i].alias))
			return &event_symbols_sw[i];
	return NULL;
}

static int find_alias_index(const char *const tab[][MAX_ALIASES], int n, const char *s,
			    size_t len)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < MAX_ALIASES && tab[i][j]; j++)
			if (strlen(tab[i][j]) == len && !strncmp(tab[i][j], s, len))
				return i;
	return -1;
}

/*
 * A cache event name: TYPE[-OP_OR_RESULT[-OP_OR_RESULT]].  Parts may
 * contain '-' themselves ("L1-dcache", "speculative-read"), so every split
 * is tried.  Returns 1 with *config, 0 when not a cache name, -EINVAL when
 * the type has no such operation (error set).
 */
static int cache_part(const char *s, size_t len, int *op, int *res)
{
	int o = find_alias_index(cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, s, len);
	int r = find_alias_index(cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, s, len);

	if (o < 0 && r < 0)
		return -1;
	/* perf: the first part that is an op sets the op, else the result */
	if (*op < 0 && o >= 0)
		*op = o;
	else if (*res < 0 && r >= 0)
		*res = r;
	return 0;
}

static int parse_cache_name(const char *name, int *type, int *op, int *res)
{
	size_t n = strlen(name);

	for (size_t i = 1; i <= n; i++) {
		int t;

		if (name[i] != '-' && name[i] != '\0')
			continue;
		t = find_alias_index(cache_types, PERF_COUNT_HW_CACHE_MAX, name, i);
		if (t < 0)
			continue;
		*type = t;
		*op = *res = -1;
		if (!name[i])
			return 1;
		/* one or two parts after the type */
		{
			const char *rest = name + i + 1;
			size_t rl = strlen(rest);
			int o1 = -1, r1 = -1;

			if (!cache_part(rest, rl, &o1, &r1)) {
				*op = o1;
				*res = r1;
				return 1;
			}
			for (size_t j = 1; j < rl; j++) {
				if (rest[j] != '-')
					continue;
				o1 = r1 = -1;
				if (!cache_part(rest, j, &o1, &r1) &&
				    !cache_part(rest + j + 1, rl - j - 1, &o1, &r1)) {
					*op = o1;
					*res = r1;
					return 1;
				}
			}
		}
	}
	return 0;
}

static bool is_raw_name(const char *name, uint64_t *config)
{
	if (name[0] != 'r' || !name[1])
		return false;
	for (const char *p = name + 1; *p; p++)
		if (!isxdigit((unsigned char)*p))
			return false;
	if (strlen(name + 1) > 16)
		return false;
	*config = strtoull(name + 1, NULL, 16);
	return true;
}

/* Name the events from @first that have none with the text they were written as. */
static int pe_name_events(struct pe_state *st, int first, const char *start, const char *end)
{
	struct evsel *e;
	char *text = strndup(start, (size_t)(end - start));

	if (!text)
		return -ENOMEM;
	evlist__for_each_entry(st->list, e) {
		if (e->idx >= first && !e->name && evsel__set_name(e, text)) {
			free(text);
			return -ENOMEM;
		}
	}
	free(text);
	return 0;
}

/*
 * Add a legacy hardware, cache or raw event.  On a hybrid machine (PMUs
 * cpu_core and cpu_atom) perf opens one per core PMU: hardware and cache
 * events carry the PMU type in config bits 32-63, raw events take it as
 * attr.type, and each covers its PMU's CPUs.
 */
static int pe_add_numeric(struct pe_state *st, const struct perf_event_attr *attr,
			  const char *name)
{
	struct pmu *pmu = NULL;
	int n = 0;

	if (attr->type != PERF_TYPE_SOFTWARE) {
		while ((pmu = pmu__scan(pmu))) {
			struct perf_event_attr a = *attr;
			struct evsel *e;

			if (!pmu__is_hybrid(pmu))
				continue;
			if (a.type == PERF_TYPE_RAW)
				a.type = pmu->type;
			else
				a.config |= (uint64_t)pmu->type << 32;
			e = pe_new_evsel(st, &a);
			if (!e || (name && evsel__set_name(e, name)))
				return -ENOMEM;
			e->pmu = pmu;
			e->own_cpus = pmu->cpus ? cpu_map__get(pmu->cpus) : NULL;
			n++;
		}
	}
	if (!n) {
		struct perf_event_attr a = *attr;
		struct evsel *e = pe_new_evsel(st, &a);

		if (!e || (name && evsel__set_name(e, name)))
			return -ENOMEM;
	}
	return 0;
}

static int pe_symbolic(struct pe_state *st, const char *name, const char *start)
{
	struct perf_event_attr attr = { 0 };
	const struct event_symbol *sym = find_symbol(name);
	int type, op, res;
	uint64_t raw;

	if (sym) {
		attr.type = sym->type;
		attr.config = sym->config;
	} else if (parse_cache_name(name, &type, &op, &res)) {
		if (op < 0)
			op = PERF_COUNT_HW_CACHE_OP_READ;
		if (res < 0)
			res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
		if (!cache_op_valid(type, op))
			return pe_error(st, start, "run 'tperf list cache' for the valid cache events",
					"cache '%s' has no '%s' events", cache_types[type][0],
					cache_ops[op][0]);
		attr.type = PERF_TYPE_HW_CACHE;
		attr.config = (uint64_t)type | (uint64_t)op << 8 | (uint64_t)res << 16;
		/* perf names a cache event by its name as written, without modifiers */
		return pe_add_numeric(st, &attr, name);
	} else if (is_raw_name(name, &raw)) {
		attr.type = PERF_TYPE_RAW;
		attr.config = raw;
	} else {
		return 1;	/* not ours */
	}
	return pe_add_numeric(st, &attr, NULL);
}

/* Every name a user might have meant, for suggestions. */
static const char *suggest_event(const char *name, char *buf, size_t size)
{
	const char *cands[256];
	size_t n = 0;
	const char *best;
	struct pmu *pmu = NULL;

	for (int i = 0; i < nr_event_symbols_hw; i++) {
		cands[n++] = event_symbols_hw[i].symbol;
		if (event_symbols_hw[i].alias[0])
			cands[n++] = event_symbols_hw[i].alias;
	}
	for (int i = 0; i < nr_event_symbols_sw; i++) {
		cands[n++] = event_symbols_sw[i].symbol;
		if (event_symbols_sw[i].alias[0])
			cands[n++] = event_symbols_sw[i].alias;
	}
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
		cands[n++] = cache_types[t][0];
	while ((pmu = pmu__scan(pmu)) && n < 250) {
		struct pmu_alias *a;

		list_for_each_entry(a, &pmu->aliases, node) {
			if (n >= 250)
				break;
			cands[n++] = a->name;
		}
	}
	best = closest_match(name, cands, n);
	if (!best)
		return NULL;
	snprintf(buf, size, "did you mean '%s'? ('tperf list' shows every event)", best);
	return buf;
}

/*
 * The PMU's CPUs: an uncore-like PMU (cpumask, not a core PMU) counts only
 * there and per CPU; a hybrid core PMU (cpu_core "cpus") on its own CPUs.
 */
static void pe_set_pmu_cpus(struct evsel *e, struct pmu *pmu)
{
	if (!pmu->cpus)
		return;
	e->own_cpus = cpu_map__get(pmu->cpus);
	e->requires_cpu = !pmu->is_core;
}

/* A PMU event: pmu->type, cpumask, terms. */
static int pe_pmu_event(struct pe_state *st, struct pmu *pmu)
{
	struct perf_event_attr attr = { 0 };
	struct evsel *e;

	attr.type = pmu->type;
	e = pe_new_evsel(st, &attr);
	if (!e)
		return -ENOMEM;
	e->pmu = pmu;
	pe_set_pmu_cpus(e, pmu);
	return pe_terms(st, e, pmu, pmu->name);
}

/* @name is @prefix followed by "_N" (N: digits). */
static bool pmu_suffix_match(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) || name[n] != '_' || !isdigit((unsigned char)name[n + 1]))
		return false;
	for (name += n + 1; *name; name++)
		if (!isdigit((unsigned char)*name))
			return false;
	return true;
}

/*
 * The PMUs having alias @alias (when not NULL), or else those named @name_N
 * (or @uncore_N unless @name starts with "uncore_"), in sysfs order; *@n
 * gets their number.  NULL when out of memory.
 */
static struct pmu **pe_pmus_matching(const char *alias, const char *name, const char *uncore,
				     int *n)
{
	struct pmu *pmu = NULL, **v;
	int nr = 0;

	while ((pmu = pmu__scan(pmu)))
		nr++;
	v = calloc(nr + 1, sizeof(*v));
	if (!v)
		return NULL;
	*n = 0;
	while ((pmu = pmu__scan(pmu))) {
		if (alias ? !pmu__find_alias(pmu, alias) :
		    !pmu_suffix_match(pmu->name, name) &&
		    (!strncmp(name, "uncore_", 7) || !pmu_suffix_match(pmu->name, uncore)))
			continue;
		v[(*n)++] = pmu;
	}
	pmu__sort_sysfs_order(v, *n);
	return v;
}

/*
 * The events from @from on came from a name several PMUs may have: stat
 * shows the PMUs' counts as one unless --no-merge (perf's auto_merge_stats).
 */
static void pe_auto_merge(struct pe_state *st, int from)
{
	struct evsel *e;
	int i = 0;

	evlist__for_each_entry(st->list, e)
		if (i++ >= from)
			e->auto_merge_stats = true;
}

/*
 * "uncore_imc/terms/" (or "imc/terms/") for every PMU uncore_imc_N, as perf
 * does; the terms are parsed again for each.  1 when no PMU matches.
 */
static int pe_pmu_wildcard(struct pe_state *st, const char *name, int first)
{
	const char *terms = st->p;
	struct pmu *pmu = NULL, **found;
	char uncore[300];
	int n = 0, ret = 0;

	snprintf(uncore, sizeof(uncore), "uncore_%s", name);
	found = pe_pmus_matching(NULL, name, uncore, &n);
	if (!found)
		return -ENOMEM;
	for (int i = 0; i < n && !ret; i++) {
		int from = st->list->nr_entries;

		pmu = found[i];
		st->p = terms;
		ret = pe_pmu_event(st, pmu);
		if (!ret)
			pe_auto_merge(st, from);
	}
	free(found);
	(void)first;
	if (ret)
		return ret;
	if (!n)
		st->p = terms;
	return n ? 0 : 1;
}

/* power/energy-X/ read from /sys/class/powercap when there is no "power" PMU. */
static int pe_powercap_event(struct pe_state *st, const char *start)
{
	struct perf_event_attr attr = { 0 };
	const char *p = st->p;
	char name[256];
	struct evsel *e;
	int n = lex_name(p, name, sizeof(name));

	if (n <= 0 || p[n] != '/')
		return pe_error(st, p, NULL, "expected 'power/energy-NAME/' (powercap)");
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	e = pe_new_evsel(st, &attr);
	if (!e)
		return -ENOMEM;
	e->powercap = powercap__find(name);
	if (!e->powercap) {
		char help[256] = "valid events:";
		const char *names[POWERCAP_NR_EVENTS + 1];

		powercap__event_names(names);
		for (int i = 0; names[i]; i++)
			snprintf(help + strlen(help), sizeof(help) - strlen(help), "%s%s",
				 i ? "," : " ", names[i]);
		return pe_error(st, p, help, "unknown powercap event '%s'", name);
	}
	e->unit = "Joules";
	e->scale = 1e-6;
	e->requires_cpu = true;
	st->p = p + n + 1;
	(void)start;
	return 0;
}

static int pe_breakpoint(struct pe_state *st, const char *start)
{
	struct perf_event_attr attr = { 0 };
	const char *p = st->p;	/* after "mem:" */
	uint64_t addr, len = 0;
	int n, type = 0;
	const char *name_end;

	n = lex_number(p, &addr);
	if (!n)
		return pe_error(st, p, NULL, "breakpoint address must be a number (mem:0x1000)");
	p += n;
	name_end = p;
	if (*p == '/') {
		p++;
		n = lex_number(p, &len);
		if (!n)
			return pe_error(st, p, NULL, "breakpoint length must be a number (mem:ADDR/8)");
		/* like perf, any length: the kernel checks it (0: the default) */
		p += n;
	}
	if (*p == ':' && strchr("rwx", p[1]) && p[1]) {
		p++;
		while (*p && strchr("rwx", *p)) {
			int bit = *p == 'r' ? HW_BREAKPOINT_R : *p == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;

			if (type & bit)
				return pe_error(st, p, NULL, "breakpoint access '%c' is given twice", *p);
			type |= bit;
			p++;
		}
		if (!at_event_end(p) && *p != ':')
			return pe_error(st, p, "access is r, w, x or a combination (mem:ADDR:rw)",
					"bad breakpoint access '%c'", *p);
	}
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (!len)
		len = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = (uint32_t)type;
	attr.bp_addr = addr;
	attr.bp_len = len;
	attr.sample_period = 1;
	if (!pe_new_evsel(st, &attr))
		return -ENOMEM;
	st->p = p;
	/* perf names a breakpoint by its text up to a '/' */
	if (name_end[0] == '/')
		return pe_name_events(st, st->list->nr_entries - 1, start, name_end);
	return 0;
}

/* ---- tracepoints ---- */

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int tp_read_id(const char *tracefs, const char *sys, const char *name, uint64_t *id)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	return filename__read_u64(path, id);
}

static int tp_add(struct pe_state *st, const char *sys, const char *name, uint64_t id)
{
	struct perf_event_attr attr = { 0 };
	struct evsel *e;
	char buf[512];

	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	attr.sample_period = 1;
	e = pe_new_evsel(st, &attr);
	if (!e)
		return -ENOMEM;
	snprintf(buf, sizeof(buf), "%s:%s", sys, name);
	e->tp_sys = strdup(sys);
	e->tp_name = strdup(name);
	if (!e->tp_sys || !e->tp_name || evsel__set_name(e, buf))
		return -ENOMEM;
	return 0;
}

/* Names of the directories in @dir (NULL-terminated array, caller frees). */
static char **list_dirs(const char *dir, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (n + 1 >= cap) {
			char **nv = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[n] = strdup(de->d_name);
		if (v[n])
			n++;
	}
	closedir(d);
	if (v)
		v[n] = NULL;
	*nr = n;
	return v;
}

static void free_dirs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int tp_unknown(struct pe_state *st, const char *at, const char *tracefs,
		      const char *sys, const char *name)
{
	char path[PATH_MAX], help[512];
	const char *best = NULL;
	size_t nsys, nev = 0;
	char **systems, **events = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	systems = list_dirs(path, &nsys);
	help[0] = '\0';
	if (systems && !has_glob(sys)) {
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, sys);
		events = list_dirs(path, &nev);
		if (events) {
			best = closest_match(name, (const char *const *)events, nev);
			if (best)
				snprintf(help, sizeof(help), "did you mean '%s:%s'?", sys, best);
		} else {
			best = closest_match(sys, (const char *const *)systems, nsys);
			if (best)
				snprintf(help, sizeof(help), "did you mean '%s:%s'?", best, name);
		}
	}
	if (!help[0])
		snprintf(help, sizeof(help), "'tperf list tracepoint' shows the tracepoints");
	if (has_glob(sys) || has_glob(name))
		ret = pe_error(st, at, help, "no tracepoint matches '%s:%s'", sys, name);
	else
		ret = pe_error(st, at, help, "unknown tracepoint '%s:%s'", sys, name);
	free_dirs(systems, nsys);
	free_dirs(events, nev);
	return ret;
}

/* tracefs exists but this user may not look into it (mode 700, not root) */
static bool tp_no_access(const char *tracefs)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events", tracefs);
	return access(path, R_OK | X_OK) && errno == EACCES;
}

static const char *tp_access_help(const char *tracefs, char *help, size_t size)
{
	snprintf(help, size, "run as root, or as root: mount -o remount,mode=755 %s", tracefs);
	return help;
}

static int pe_tracepoint(struct pe_state *st, const char *at, const char *sys, const char *name)
{
	const char *tracefs = tracefs__mount(&st->opts->tracefs_mounted);
	char path[PATH_MAX];
	char **systems, **events;
	size_t nsys, nev;
	int found = 0, ret = 0;
	uint64_t id;

	if (st->opts->sdt_create && tracefs && !strncmp(sys, "sdt_", 4) &&
	    st->opts->sdt_create(st->opts->sdt_ctx, sys, name, path, sizeof(path)))
		return pe_error(st, at, NULL, "%s", path);
	if (!tracefs && (errno == EPERM || errno == EACCES))
		return pe_error(st, at, "run as root, or mount it: mount -t tracefs nodev /sys/kernel/tracing",
				"tracefs is not mounted and mounting it needs root, cannot find tracepoint '%s:%s'",
				sys, name);
	if (!tracefs)
		return pe_error(st, at, "mount it: mount -t tracefs nodev /sys/kernel/tracing",
				"tracefs is not mounted, cannot find tracepoint '%s:%s'", sys, name);
	if (tp_no_access(tracefs))
		return pe_error(st, at, tp_access_help(tracefs, path, sizeof(path)),
				"no permission to read tracefs ('%s'), cannot find tracepoint '%s:%s'",
				tracefs, sys, name);
	if (!has_glob(sys) && !has_glob(name)) {
		if (tp_read_id(tracefs, sys, name, &id))
			return tp_unknown(st, at, tracefs, sys, name);
		return tp_add(st, sys, name, id);
	}
	snprintf(path, sizeof(path), "%s/events", tracefs);
	systems = list_dirs(path, &nsys);
	for (size_t i = 0; i < nsys && !ret; i++) {
		if (fnmatch(sys, systems[i], 0))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, systems[i]);
		events = list_dirs(path, &nev);
		for (size_t j = 0; j < nev && !ret; j++) {
			if (fnmatch(name, events[j], 0) ||
			    tp_read_id(tracefs, systems[i], events[j], &id))
				continue;
			ret = tp_add(st, systems[i], events[j], id);
			found++;
		}
		free_dirs(events, nev);
	}
	free_dirs(systems, nsys);
	if (ret)
		return ret;
	return found ? 0 : tp_unknown(st, at, tracefs, sys, name);
}

/* ---- events and groups ---- */

/* Events named @name in any PMU's events/ ("tsc" -> msr/tsc/). */
static int pe_bare_alias(struct pe_state *st, const char *name, const char *at)
{
	struct pmu **pmus;
	int n = 0, ret = 0;

	pmus = pe_pmus_matching(name, NULL, NULL, &n);
	if (!pmus)
		return -ENOMEM;
	for (int i = 0; i < n && !ret; i++) {
		struct pmu *pmu = pmus[i];
		struct pmu_alias *a = pmu__find_alias(pmu, name);
		struct perf_event_attr attr = { 0 };
		struct pe_term t;
		struct evsel *e;

		attr.type = pmu->type;
		e = pe_new_evsel(st, &attr);
		if (!e) {
			ret = -ENOMEM;
			break;
		}
		e->pmu = pmu;
		e->auto_merge_stats = true;
		pe_set_pmu_cpus(e, pmu);
		memset(&t, 0, sizeof(t));
		t.at = at;
		snprintf(t.name, sizeof(t.name), "%s", name);
		st->nr_required = 0;
		ret = pe_apply_alias(st, e, pmu, a, &t, 0);
		if (!ret)
			ret = pe_check_required(st);
	}
	free(pmus);
	return ret ? ret : n;
}

static bool all_mod_chars(const char *s)
{
	for (; *s; s++)
		if (!is_mod_char((unsigned char)*s))
			return false;
	return true;
}

static bool any_pmu_alias(const char *name)
{
	struct pmu *pmu = NULL;

	while ((pmu = pmu__scan(pmu)))
		if (pmu__find_alias(pmu, name))
			return true;
	return false;
}

static int pe_event(struct pe_state *st)
{
	const char *start, *end;
	int first = st->list->nr_entries;
	char name[256], name2[256];
	int n, ret;

	skip_ws(st);
	start = st->p;
	if (at_event_end(st->p) || *st->p == '{')
		return pe_error(st, st->p, NULL, *st->p == '{' ? "groups cannot be nested" :
				"empty event");
	n = lex_name(st->p, name, sizeof(name));
	if (n < 0)
		return pe_error(st, st->p, NULL, "event name too long");
	if (n == 0)
		return pe_error(st, st->p, NULL, "unexpected character '%c'", *st->p);
	st->p += n;
	if (isspace((unsigned char)*st->p)) {
		const char *q = st->p;

		while (isspace((unsigned char)*q))
			q++;
		if (*q == ':')
			st->p = q;
	}

	if (*st->p == '/') {
		struct pmu *pmu = pmu__find(name);

		st->p++;
		if (pmu) {
			ret = pe_pmu_event(st, pmu);
		} else if ((ret = pe_pmu_wildcard(st, name, first)) != 1) {
			/* uncore_imc/x/: every uncore_imc_N */
		} else if (!strcmp(name, "power") && powercap__available()) {
			ret = pe_powercap_event(st, start);
		} else if ((ret = pe_symbolic(st, name, start)) == 1) {
			char help[256];
			struct pmu *p = NULL;
			size_t len = 0;

			len += (size_t)snprintf(help, sizeof(help), "PMUs here:");
			while ((p = pmu__scan(p)) && len < sizeof(help))
				len += (size_t)snprintf(help + len, sizeof(help) - len, " %s",
							p->name);
			return pe_error(st, start, help, "unknown PMU '%s'", name);
		} else if (!ret) {
			ret = pe_terms_each(st, first, NULL, name);
		}
		if (ret)
			return ret;
		ret = pe_event_mods(st, first, true);
	} else if (!strcmp(name, "mem") && *st->p == ':') {
		st->p++;
		ret = pe_breakpoint(st, start);
		if (!ret)
			ret = pe_event_mods(st, first, false);
	} else if ((ret = pe_symbolic(st, name, start)) != 1) {
		if (ret)
			return ret;
		ret = pe_event_mods(st, first, false);
	} else if (*st->p == ':' && st->p[1] != ':' ) {
		const char *tp_at = start;

		st->p++;
		n = lex_name(st->p, name2, sizeof(name2));
		if (n <= 0 || (all_mod_chars(name2) && any_pmu_alias(name))) {
			/* "name:mods" for a bare PMU alias */
			st->p--;
			goto bare;
		}
		st->p += n;
		bool terms = false;

		ret = pe_tracepoint(st, tp_at, name, name2);
		if (!ret && *st->p == '/') {
			st->p++;
			ret = pe_terms_each(st, first, NULL, name);
			terms = true;
		}
		if (!ret)
			ret = pe_event_mods(st, first, terms);
	} else {
bare:
		ret = pe_bare_alias(st, name, start);
		if (ret < 0)
			return ret;
		if (!ret) {
			char help[256];

			return pe_error(st, start, suggest_event(name, help, sizeof(help)),
					"unknown event '%s'", name);
		}
		ret = pe_event_mods(st, first, false);
	}
	if (ret)
		return ret;
	end = st->p;
	skip_ws(st);
	if (!at_event_end(st->p))
		return pe_error(st, st->p, NULL, "unexpected '%s' after the event", st->p);
	return pe_name_events(st, first, start, end);
}

static int pe_group(struct pe_state *st, const char *group_name)
{
	const char *open = st->p;
	int first = st->list->nr_entries, ret;
	struct evsel *leader = NULL, *e;

	st->p++;
	for (;;) {
		ret = pe_event(st);
		if (ret)
			return ret;
		if (*st->p == '}')
			break;
		if (!*st->p)
			return pe_error(st, open, "close it with '}'", "unterminated group");
		st->p++; /* ',' */
	}
	st->p++;
	evlist__for_each_entry(st->list, e) {
		if (e->idx < first)
			continue;
		if (!leader) {
			leader = e;
			leader->nr_members = 0;
			if (group_name && !(leader->group_name = strdup(group_name)))
				return -ENOMEM;
		}
		e->leader = leader;
		leader->nr_members++;
	}
	if (leader && leader->nr_members > 1)
		st->list->nr_groups++;
	skip_ws(st);
	if (*st->p == ':') {
		const char *mp;
		int len;

		st->p++;
		skip_ws(st);
		mp = st->p;
		len = mods_len(mp);
		struct pe_mods m;

		if (!len)
			return pe_error(st, mp, NULL, "missing modifier after ':'");
		evlist__for_each_entry(st->list, e) {
			if (e->idx < first)
				continue;
			ret = pe_parse_mods(st, mp, len, e, &m);
			if (ret)
				return ret;
			pe_apply_mods(e, &m);
		}
		st->p += len;
	}
	skip_ws(st);
	if (!at_event_end(st->p) || *st->p == '}')
		return pe_error(st, st->p, NULL, "unexpected '%s' after the group", st->p);
	return 0;
}

static int pe_list(struct pe_state *st)
{
	int ret;

	for (;;) {
		char gname[256];
		int n;

		skip_ws(st);
		n = lex_name(st->p, gname, sizeof(gname));
		if (*st->p == '{')
			ret = pe_group(st, NULL);
		else if (n > 0 && st->p[n] == '{' && (st->p += n))
			ret = pe_group(st, gname);	/* "name{a,b}" */
		else
			ret = pe_event(st);
		if (ret)
			return ret;
		if (!*st->p)
			return 0;
		if (*st->p == '}')
			return pe_error(st, st->p, NULL, "'}' without '{'");
		st->p++; /* ',' */
		skip_ws(st);
		if (!*st->p)
			return pe_error(st, st->p, NULL, "empty event after ','");
	}
}

/**
 * parse_events - parse an event list and append its events to @evlist
 * @evlist: where the events go (appended, so -e can repeat)
 * @str: "cycles:u,{cpu-clock,task-clock}:S,sched:sched_switch"
 * @err: filled on error (free with parse_events_error__exit()); may be NULL
 * Return: 0, or -EINVAL (syntax, unknown name) or -ENOMEM.
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err)
{
	struct pe_state st = { .str = str, .p = str, .err = err, .opts = &evlist->parse };
	struct evsel *e, *n;
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	st.list = evlist__new();
	if (!st.list)
		return -ENOMEM;
	ret = pe_list(&st);
	if (ret == -ENOMEM && err && !err->msg)
		pe_error(&st, st.p, NULL, "out of memory");
	if (ret) {
		evlist__delete(st.list);
		return ret;
	}
	evlist->nr_groups += st.list->nr_groups;
	list_for_each_entry_safe(e, n, &st.list->entries, node) {
		list_del_init(&e->node);
		evlist__add(evlist, e);
	}
	evlist__delete(st.list);
	return 0;
}

/*
 * Call @fn for each event of the last -e option, last first (perf's
 * foreach_evsel_in_last_glob(): "-e 'sched:*' --filter F" filters every
 * event the glob gave).  @fn gets NULL when there is no event.  0 or the
 * first non-zero @fn returns.
 */
static int foreach_evsel_in_last_option(struct evlist *evlist,
					int (*fn)(struct evsel *e, const char *arg, bool alone,
						  char *msg, size_t size),
					const char *arg, char *msg, size_t size)
{
	struct evsel *e;
	bool alone;
	int ret;

	if (!evlist || list_empty(&evlist->entries))
		return fn(NULL, arg, true, msg, size);
	e = evlist__last(evlist);
	alone = e->node.prev == &evlist->entries ||
		list_entry(e->node.prev, struct evsel, node)->cmdline_group_boundary;
	for (;;) {
		ret = fn(e, arg, alone, msg, size);
		if (ret || e->node.prev == &evlist->entries)
			return ret;
		e = list_entry(e->node.prev, struct evsel, node);
		if (e->cmdline_group_boundary)
			return 0;
	}
}

void parse_events__end_option(struct evlist *evlist)
{
	if (evlist->nr_entries)
		evlist__last(evlist)->cmdline_group_boundary = true;
}

static int set_filter(struct evsel *e, const char *str, bool alone, char *msg, size_t size)
{
	if (!e) {
		snprintf(msg, size, "'--filter %s' must follow a tracepoint event: "
			 "-e sys:name --filter ...", str);
		return -EINVAL;
	}
	if (e->attr.type != PERF_TYPE_TRACEPOINT) {
		if (alone)
			snprintf(msg, size, "'--filter %s' must follow a tracepoint event, not '%s'",
				 str, evsel__name(e));
		else
			snprintf(msg, size, "'--filter %s' applies to every event of the -e before "
				 "it, and '%s' is not a tracepoint: give it its own -e", str,
				 evsel__name(e));
		return -EINVAL;
	}
	if (evsel__append_tp_filter(e, str)) {
		snprintf(msg, size, "out of memory setting filter '%s'", str);
		return -ENOMEM;
	}
	return 0;
}

int parse_events__filter_last(struct evlist *evlist, const char *filter, char *msg, size_t size)
{
	return foreach_evsel_in_last_option(evlist, set_filter, filter, msg, size);
}

static int exclude_perf(struct evsel *e, const char *filter, bool alone, char *msg, size_t size)
{
	if (!e || e->attr.type != PERF_TYPE_TRACEPOINT) {
		if (e)
			snprintf(msg, size, "'--exclude-perf' must follow a tracepoint event, not '%s'",
				 evsel__name(e));
		else
			snprintf(msg, size, "'--exclude-perf' must follow a tracepoint event: "
				 "-e sys:name --exclude-perf");
		return -EINVAL;
	}
	if (evsel__append_tp_filter(e, filter)) {
		snprintf(msg, size, "out of memory setting filter '%s'", filter);
		return -ENOMEM;
	}
	return 0;
}

int parse_events__exclude_perf_last(struct evlist *evlist, char *msg, size_t size)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	return foreach_evsel_in_last_option(evlist, exclude_perf, filter, msg, size);
}
