// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe definitions (perf's syntax), naming and uprobe_events lines.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "util/lib/fs.h"
#include "util/probe/probe-event.h"

static int parse_fail(struct probe_parse_error *err, int pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int parse_fail(struct probe_parse_error *err, int pos, const char *fmt, ...)
{
	va_list ap;

	err->pos = pos;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Length of the identifier at @s (0 if none). */
static size_t ident_len(const char *s)
{
	size_t n = 0;

	if (!is_ident_start(s[0]))
		return 0;
	while (is_ident(s[n]))
		n++;
	return n;
}

bool probe_name__valid(const char *name)
{
	size_t n = ident_len(name);

	return n && !name[n] && n < 64;
}

static const char *const types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"x8", "x16", "x32", "x64", "string", NULL
};

static bool type_valid(const char *t)
{
	for (int i = 0; types[i]; i++)
		if (!strcmp(t, types[i]))
			return true;
	return false;
}

static char *dup_n(const char *s, size_t n)
{
	return strndup(s, n);
}

/* One field accessor at *@p: "->name", ".name" or "[N]". */
static int parse_field(const char *base, const char **p, struct probe_arg *a,
		       struct probe_parse_error *err)
{
	struct probe_field *f = &a->fields[a->nr_fields];
	const char *s = *p;
	size_t n;

	if (a->nr_fields == PROBE_MAX_FIELDS)
		return parse_fail(err, (int)(s - base), "too many fields (at most %d)",
				  PROBE_MAX_FIELDS);
	if (*s == '[') {
		char *end;

		errno = 0;
		f->index = strtol(s + 1, &end, 10);
		if (end == s + 1 || *end != ']' || errno || f->index < 0)
			return parse_fail(err, (int)(s + 1 - base),
					  "expected a non-negative index and ']'");
		*p = end + 1;
		a->nr_fields++;
		return 0;
	}
	f->ref = s[0] == '-';
	s += f->ref ? 2 : 1;
	n = ident_len(s);
	if (!n)
		return parse_fail(err, (int)(s - base), "expected a member name");
	f->name = dup_n(s, n);
	if (!f->name)
		return -ENOMEM;
	a->nr_fields++;
	*p = s + n;
	return 0;
}

static const char *const specials[] = { "$retval", "$comm", "$params", "$vars" };
static const enum probe_arg_kind special_kinds[] = {
	PROBE_ARG_RETVAL, PROBE_ARG_COMM, PROBE_ARG_PARAMS, PROBE_ARG_VARS
};

/* The variable part of an argument: identifier, $special or %reg. */
static int parse_var(const char *base, const char **p, struct probe_arg *a,
		     struct probe_parse_error *err)
{
	const char *s = *p;
	size_t n;

	if (*s == '$') {
		n = 1 + ident_len(s + 1);
		for (size_t i = 0; i < 4; i++)
			if (strlen(specials[i]) == n && !strncmp(s, specials[i], n))
				a->kind = special_kinds[i];
		if (a->kind == PROBE_ARG_VAR)
			return parse_fail(err, (int)(s - base), "unknown special variable "
					  "(use $retval, $comm, $params or $vars)");
	} else if (*s == '%') {
		n = 1 + ident_len(s + 1);
		if (n == 1)
			return parse_fail(err, (int)(s + 1 - base), "expected a register name");
		a->kind = PROBE_ARG_REG;
	} else {
		n = ident_len(s);
		if (!n)
			return parse_fail(err, (int)(s - base), "expected a variable name");
	}
	a->var = dup_n(s, n);
	*p = s + n;
	return a->var ? 0 : -ENOMEM;
}

/* One argument, @s of length @len at @off in the definition @base. */
static int parse_arg(const char *base, const char *s, size_t len, struct probe_arg *a,
		     struct probe_parse_error *err)
{
	const char *end = s + len, *p = s;
	size_t n = ident_len(s);
	int ret;

	if (n && s[n] == '=') {
		a->name = dup_n(s, n);
		if (!a->name)
			return -ENOMEM;
		p = s + n + 1;
	}
	ret = parse_var(base, &p, a, err);
	if (ret)
		return ret;
	while (p < end && (*p == '[' || *p == '.' || (p[0] == '-' && p[1] == '>'))) {
		if (a->kind != PROBE_ARG_VAR)
			return parse_fail(err, (int)(p - base), "'%s' has no fields", a->var);
		ret = parse_field(base, &p, a, err);
		if (ret)
			return ret;
	}
	if (p < end && *p == ':') {
		a->type = dup_n(p + 1, (size_t)(end - p - 1));
		if (!a->type)
			return -ENOMEM;
		if (!type_valid(a->type))
			return parse_fail(err, (int)(p + 1 - base), "unknown type '%s' "
					  "(use u8..u64, s8..s64, x8..x64 or string)", a->type);
		if (a->kind == PROBE_ARG_PARAMS || a->kind == PROBE_ARG_VARS ||
		    a->kind == PROBE_ARG_COMM)
			return parse_fail(err, (int)(p - base), "'%s' takes no type", a->var);
		p = end;
	}
	if (p != end)
		return parse_fail(err, (int)(p - base), "unexpected '%c' in the argument", *p);
	if (a->name && a->kind != PROBE_ARG_VAR && a->kind != PROBE_ARG_REG &&
	    a->kind != PROBE_ARG_RETVAL)
		return parse_fail(err, (int)(s - base), "'%s' cannot be renamed", a->var);
	return 0;
}

static int parse_args(const char *base, const char *s, struct probe_def *def,
		      struct probe_parse_error *err)
{
	while (*s) {
		size_t n;
		int ret;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		n = strcspn(s, " ");
		if (def->nr_args == PROBE_MAX_ARGS)
			return parse_fail(err, (int)(s - base), "too many arguments (at most %d)",
					  PROBE_MAX_ARGS);
		ret = parse_arg(base, s, n, &def->args[def->nr_args++], err);
		if (ret)
			return ret;
		s += n;
	}
	return 0;
}

/* "[GROUP:]EVENT=" at the start of the point, if any. */
static int parse_event(const char *base, const char **p, size_t plen, struct probe_def *def,
		       struct probe_parse_error *err)
{
	const char *s = *p, *semi = memchr(s, ';', plen), *colon;
	const char *eq = memchr(s, '=', semi ? (size_t)(semi - s) : plen);

	if (!eq)
		return 0;
	colon = memchr(s, ':', (size_t)(eq - s));
	if (colon) {
		def->group = dup_n(s, (size_t)(colon - s));
		if (!def->group)
			return -ENOMEM;
		if (!probe_name__valid(def->group))
			return parse_fail(err, (int)(s - base), "invalid group name '%s' "
					  "(letters, digits and '_', not starting with a digit)",
					  def->group);
		s = colon + 1;
	}
	def->event = dup_n(s, (size_t)(eq - s));
	if (!def->event)
		return -ENOMEM;
	if (!probe_name__valid(def->event))
		return parse_fail(err, (int)(s - base), "invalid event name '%s' "
				  "(letters, digits and '_', not starting with a digit)",
				  def->event);
	*p = eq + 1;
	return 0;
}

/* "%[sdt_]PROVIDER:NAME" or "sdt_PROVIDER:NAME"; names may hold globs. */
static int parse_sdt(const char *base, const char *s, size_t n, struct probe_def *def,
		     struct probe_parse_error *err)
{
	const char *colon = memchr(s, ':', n);

	if (*s == '%')
		s++, n--;
	if (n > 4 && !strncmp(s, "sdt_", 4))
		s += 4, n -= 4;
	if (!colon || colon == s)
		return parse_fail(err, (int)(s - base), "expected PROVIDER:NAME for an SDT marker");
	def->sdt = true;
	def->func = dup_n(s, (size_t)(colon - s));
	def->file = dup_n(colon + 1, n - (size_t)(colon + 1 - s));
	if (!def->func || !def->file)
		return -ENOMEM;
	for (const char *c = s; c < s + n; c++)
		if (!is_ident(*c) && !strchr(":*?", *c))
			return parse_fail(err, (int)(c - base), "unexpected '%c' in the marker name", *c);
	if (!*def->file)
		return parse_fail(err, (int)(colon + 1 - base), "expected the marker name");
	return 0;
}

static bool is_sdt(const char *s, size_t n)
{
	if (*s == '%')
		return true;
	return n > 4 && !strncmp(s, "sdt_", 4) && memchr(s, ':', n);
}

static int parse_number(const char *base, const char *s, const char *end, uint64_t *val,
			struct probe_parse_error *err, const char *what)
{
	char *e;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return parse_fail(err, (int)(s - base), "expected %s", what);
	*val = strtoull(s, &e, 0);
	if (errno || e != end)
		return parse_fail(err, (int)(s - base), "expected %s", what);
	return 0;
}

/* The part after FUNC[@SRC]: ":RLN", "+OFFS" or "%return". */
static int parse_suffix(const char *base, const char *s, const char *end, struct probe_def *def,
			struct probe_parse_error *err)
{
	uint64_t v;
	int ret;

	if (s == end)
		return 0;
	switch (*s) {
	case ':':
		ret = parse_number(base, s + 1, end, &v, err, "a line number");
		if (!ret && (v == 0 || v > 1000000))
			return parse_fail(err, (int)(s + 1 - base), "line number out of range");
		def->line = (int)v;
		return ret;
	case '+':
		return parse_number(base, s + 1, end, &def->offset, err, "a byte offset");
	case '%':
		if ((size_t)(end - s) != 7 || strncmp(s, "%return", 7))
			return parse_fail(err, (int)(s - base), "expected '%%return'");
		def->retprobe = true;
		return 0;
	case ';':
		if (s + 1 == end)
			return parse_fail(err, (int)(s + 1 - base), "expected a line pattern "
					  "after ';'");
		def->lazy = dup_n(s + 1, (size_t)(end - s - 1));
		return def->lazy ? 0 : -ENOMEM;
	}
	return parse_fail(err, (int)(s - base), "unexpected '%c' after the function", *s);
}

static bool is_path_char(char c)
{
	return is_ident(c) || c == '.' || c == '/' || c == '-' || c == '+';
}

/*
 * A C++ function name at @s: IDENT or "::"-joined IDENTs, each with
 * optional <TEMPLATE ARGS>, then optional (PARAMS); *@p is set after it.
 */
static int cxx_name(const char *base, const char *s, const char *end, const char **p,
		    struct probe_parse_error *err)
{
	const char *c = s;

	for (;;) {
		size_t n = ident_len(c);

		if (!n || c + n > end)
			return parse_fail(err, (int)(c - base), "invalid function name");
		c += n;
		if (c < end && *c == '<') {
			int depth = 0;

			for (; c < end; c++) {
				depth += *c == '<';
				depth -= *c == '>';
				if (!depth)
					break;
				if (!is_ident(*c) && !strchr("<:,*&", *c))
					return parse_fail(err, (int)(c - base), "unexpected '%c' "
							  "in the template arguments", *c);
			}
			if (c++ == end)
				return parse_fail(err, (int)(end - base), "expected '>'");
		}
		if (end - c < 2 || c[0] != ':' || c[1] != ':')
			break;
		if (end - c < 3 || !is_ident_start(c[2]))
			return parse_fail(err, (int)(c + 2 - base), "expected a name after '::'");
		c += 2;
	}
	if (c < end && *c == '(') {
		const char *close = memchr(c, ')', (size_t)(end - c));

		if (!close)
			return parse_fail(err, (int)(end - base), "expected ')' after the parameters");
		for (const char *q = c + 1; q < close; q++)
			if (!is_ident(*q) && !strchr("<>:,*&", *q))
				return parse_fail(err, (int)(q - base), "unexpected '%c' in the "
						  "parameters", *q);
		c = close + 1;
	}
	*p = c;
	return 0;
}

static int parse_point(const char *base, const char *s, size_t n, struct probe_def *def,
		       struct probe_parse_error *err)
{
	const char *end = s + n, *p = s;
	size_t fn;
	int ret;

	while (p < end && is_path_char(*p) && *p != '+')
		p++;
	fn = (size_t)(p - s);
	if (!fn)
		return parse_fail(err, (int)(s - base), "expected a function or SRC:LINE");
	if (fn > 2 && s[0] == '0' && s[1] == 'x') {	/* 0xADDR, as perf */
		ret = parse_number(base, s, p, &def->addr, err, "a hexadecimal address");
		if (ret)
			return ret;
		def->abs = true;
		if (p < end && *p != '+' && *p != '%')
			return parse_fail(err, (int)(p - base), "expected '+OFFS' or '%%return' "
					  "after the address");
		return parse_suffix(base, p, end, def, err);
	}
	if (memchr(s, '.', fn) || memchr(s, '/', fn)) {
		def->file = dup_n(s, fn);
		if (!def->file)
			return -ENOMEM;
		if (p == end || (*p != ':' && *p != ';'))
			return parse_fail(err, (int)(p - base), "expected ':LINE' or ';PTN' "
					  "after the source file");
		ret = parse_suffix(base, p, end, def, err);
		return ret;
	}
	if (ident_len(s) != fn || (p < end && strchr(":<(", *p) && p + 1 < end &&
				   (*p != ':' || p[1] == ':'))) {
		ret = cxx_name(base, s, end, &p, err);
		if (ret)
			return ret;
		fn = (size_t)(p - s);
	}
	def->func = dup_n(s, fn);
	if (!def->func)
		return -ENOMEM;
	if (p < end && *p == '@') {
		const char *f = ++p;

		while (p < end && is_path_char(*p) && *p != '+')
			p++;
		if (p == f)
			return parse_fail(err, (int)(f - base), "expected a source file after '@'");
		def->file = dup_n(f, (size_t)(p - f));
		if (!def->file)
			return -ENOMEM;
	}
	return parse_suffix(base, p, end, def, err);
}

static int parse_def(const char *str, struct probe_def *def, struct probe_parse_error *err)
{
	const char *s = str;
	size_t n;
	int ret;

	memset(def, 0, sizeof(*def));
	memset(err, 0, sizeof(*err));
	while (*s == ' ')
		s++;
	for (const char *c = str; *c; c++)
		if (*c == '\n' || *c == '\t' || *c == '\r' || (unsigned char)*c < 0x20 ||
		    strchr("`'\"\\|&;<>(){}!#~^", *c))
			if ((!strchr(";<>(),", *c) || c >= s + strcspn(s, " ")) &&
			    (*c != '>' || c == str || c[-1] != '-'))
				return parse_fail(err, (int)(c - str), "unexpected character '%s'",
						  *c == '\n' ? "\\n" : *c == '\t' ? "\\t" :
						  (char[2]){ *c, 0 });
	n = strcspn(s, " ");
	if (!n)
		return parse_fail(err, (int)(s - str), "empty probe definition");
	ret = parse_event(str, &s, n, def, err);
	if (ret)
		return ret;
	n = strcspn(s, " ");
	if (!n)
		return parse_fail(err, (int)(s - str), "expected a probe point after '='");
	if (is_sdt(s, n)) {
		ret = parse_sdt(str, s, n, def, err);
		if (!ret && s[n] && s[n + strspn(s + n, " ")])
			return parse_fail(err, (int)(s + n + strspn(s + n, " ") - str),
					  "SDT markers take no arguments (they have their own)");
		return ret;
	}
	ret = parse_point(str, s, n, def, err);
	if (ret)
		return ret;
	return parse_args(str, s + n, def, err);
}

int probe_def__parse(const char *str, struct probe_def *def, struct probe_parse_error *err)
{
	int ret = parse_def(str, def, err);

	if (ret)
		probe_def__exit(def);	/* nothing half-parsed to free */
	return ret;
}

void probe_def__exit(struct probe_def *def)
{
	free(def->group);
	free(def->event);
	free(def->func);
	free(def->file);
	free(def->lazy);
	for (int i = 0; i < def->nr_args; i++) {
		struct probe_arg *a = &def->args[i];

		free(a->name);
		free(a->var);
		free(a->type);
		for (int j = 0; j < a->nr_fields; j++)
			free(a->fields[j].name);
	}
	memset(def, 0, sizeof(*def));
}

void probe_site__exit(struct probe_site *s)
{
	free(s->path);
	free(s->fetchargs);
	free(s->desc);
	s->path = s->fetchargs = s->desc = NULL;
}

int probe_site__line(const struct probe_site *s, char *buf, size_t size)
{
	char ref[32] = "";
	int n;

	if (s->ref_offset)
		snprintf(ref, sizeof(ref), "(0x%" PRIx64 ")", s->ref_offset);
	n = snprintf(buf, size, "%c:%s/%s %s:0x%" PRIx64 "%s%s%s", s->retprobe ? 'r' : 'p',
		     s->group, s->event, s->path, s->offset, ref,
		     s->fetchargs && *s->fetchargs ? " " : "", s->fetchargs ?: "");
	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}

int probe_site__check(const struct probe_site *s)
{
	if (!probe_name__valid(s->group) || !probe_name__valid(s->event))
		return -EINVAL;
	for (const char *c = s->path; *c; c++)
		if ((unsigned char)*c <= ' ' || strchr("`'\"\\|&;<>(){}$!#*?~^:", *c))
			return -EINVAL;
	for (const char *c = s->fetchargs ?: ""; *c; c++)
		if ((unsigned char)*c < ' ' || strchr("`'\"\\|&;<>{}!#*?~^", *c))
			return -EINVAL;
	return 0;
}

void probe__default_group(const char *path, char *buf, size_t size)
{
	const char *b = strrchr(path, '/');
	size_t n = 0;

	b = b ? b + 1 : path;
	n = (size_t)snprintf(buf, size, "probe_");
	for (; *b && *b != '.' && n + 1 < size && n < 63; b++)
		buf[n++] = is_ident(*b) ? *b : '_';
	buf[n] = '\0';
}

#define UPROBE_TYPES (TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE)

bool probe__exists(const char *group, const char *event)
{
	struct tracefs_dynevent **evs = tracefs_dynevent_get_all(UPROBE_TYPES, group);
	bool found = false;

	for (int i = 0; evs && evs[i] && !found; i++) {
		char *g = NULL, *e = NULL;

		tracefs_dynevent_info(evs[i], &g, &e, NULL, NULL, NULL);
		found = e && !strcmp(e, event);
		free(g);
		free(e);
	}
	tracefs_dynevent_list_free(evs);
	return found;
}

int probe__name_sites(struct probe_site *sites, int nr, bool force)
{
	for (int i = 0; i < nr; i++) {
		struct probe_site *s = &sites[i];
		char base[64];
		bool shared = false;

		/* sites of one definition share their event, as perf's do */
		for (int j = 0; j < i; j++)
			if (!strcmp(sites[j].group, s->group) && !strcmp(sites[j].base, s->base)) {
				snprintf(s->event, sizeof(s->event), "%s", sites[j].event);
				shared = true;
			}
		if (shared)
			continue;
		snprintf(base, sizeof(base), "%s", s->base);
		snprintf(s->event, sizeof(s->event), "%s", base);
		if (!probe__exists(s->group, s->event))
			continue;
		if (!force)
			return -EEXIST;
		for (int k = 1; probe__exists(s->group, s->event); k++) {
			if (k > 999)
				return -EEXIST;
			snprintf(s->event, sizeof(s->event), "%.56s_%d", base, k);
		}
	}
	return 0;
}

int probe_site__create(const struct probe_site *s)
{
	struct tracefs_dynevent *ev;
	int ret;

	if (probe_site__check(s))
		return -EINVAL;
	errno = 0;
	if (s->ref_offset) {
		/* tracefs_uprobe_alloc() has no reference counter: write the line */
		char line[4096];

		if (probe_site__line(s, line, sizeof(line) - 1) < 0)
			return -ENOSPC;
		strcat(line, "\n");
		ret = tracefs_instance_file_append(NULL, "uprobe_events", line);
		return ret < 0 ? (errno ? -errno : -EIO) : 0;
	}
	if (s->retprobe)
		ev = tracefs_uretprobe_alloc(s->group, s->event, s->path, s->offset,
					     s->fetchargs);
	else
		ev = tracefs_uprobe_alloc(s->group, s->event, s->path, s->offset, s->fetchargs);
	if (!ev)
		return -ENOMEM;
	errno = 0;
	ret = tracefs_dynevent_create(ev);
	if (ret)
		ret = errno ? -errno : -EIO;
	tracefs_dynevent_free(ev);
	return ret;
}

static bool filter_match(const char *filter, const char *group, const char *event)
{
	const char *colon;
	char g[128];

	if (!filter)
		return true;
	colon = strchr(filter, ':');
	if (!colon)
		return !fnmatch(filter, event, 0);
	snprintf(g, sizeof(g), "%.*s", (int)(colon - filter), filter);
	return !fnmatch(g, group, 0) && !fnmatch(colon + 1, event, 0);
}

int probe__for_each(const char *filter,
		    int (*fn)(const char *group, const char *event, bool ret,
			      const char *addr, const char *args, void *arg),
		    void *arg)
{
	struct tracefs_dynevent **evs;
	int nr = 0, ret = 0;

	errno = 0;
	evs = tracefs_dynevent_get_all(UPROBE_TYPES, NULL);
	if (!evs && errno && errno != ENOENT)
		return -errno;
	for (int i = 0; evs && evs[i] && !ret; i++) {
		char *g = NULL, *e = NULL, *addr = NULL, *fmt = NULL;
		enum tracefs_dynevent_type t;

		t = tracefs_dynevent_info(evs[i], &g, &e, NULL, &addr, &fmt);
		if (g && e && filter_match(filter, g, e)) {
			nr++;
			if (fn)
				ret = fn(g, e, t == TRACEFS_DYNEVENT_URETPROBE, addr ?: "",
					 fmt ?: "", arg);
		}
		free(g), free(e), free(addr), free(fmt);
	}
	tracefs_dynevent_list_free(evs);
	return ret < 0 ? ret : nr;
}

/* Was GROUP:EVENT listed before @i?  (Its probes all went with the first.) */
static bool seen_before(struct tracefs_dynevent **evs, int i, const char *group,
			const char *event)
{
	bool seen = false;

	for (int j = 0; j < i && !seen; j++) {
		char *g = NULL, *e = NULL;

		tracefs_dynevent_info(evs[j], &g, &e, NULL, NULL, NULL);
		seen = g && e && !strcmp(g, group) && !strcmp(e, event);
		free(g), free(e);
	}
	return seen;
}

int probe__delete(const char *filter,
		  void (*deleted)(const char *group, const char *event))
{
	struct tracefs_dynevent **evs;
	int nr = 0, err = 0;

	errno = 0;
	evs = tracefs_dynevent_get_all(UPROBE_TYPES, NULL);
	if (!evs && errno && errno != ENOENT)
		return -errno;
	for (int i = 0; evs && evs[i]; i++) {
		char *g = NULL, *e = NULL;

		tracefs_dynevent_info(evs[i], &g, &e, NULL, NULL, NULL);
		if (g && e && filter_match(filter, g, e) && !seen_before(evs, i, g, e)) {
			errno = 0;
			if (tracefs_dynevent_destroy(evs[i], false)) {
				err = errno ? -errno : -EIO;
			} else {
				nr++;
				if (deleted)
					deleted(g, e);
			}
		}
		free(g), free(e);
	}
	tracefs_dynevent_list_free(evs);
	return err ? err : nr;
}

/*
 * probe__tracefs_dir - see util/probe/probe-event.h
 */
void probe__tracefs_dir(void)
{
	const char *mnt = tracefs__mountpoint();

	if (mnt)
		tracefs_set_tracing_dir((char *)mnt);
}
