// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option parsing for every subcommand: see parse-options.h for the forms.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/levenshtein.h"
#include "util/lib/parse-options.h"

#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP 2

enum { PARSE_OK = 0, PARSE_ERROR = -1, PARSE_HELP = -2, PARSE_LIST_OPTS = -3,
       PARSE_CB_ERROR = -4, PARSE_UNKNOWN = -5 };

struct parse_ctx {
	const struct option *opts;
	int flags;
	char *err;
	size_t errsize;
	bool quiet_callbacks;
};

static int set_err(struct parse_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int set_err(struct parse_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->err && ctx->errsize) {
		va_start(ap, fmt);
		vsnprintf(ctx->err, ctx->errsize, fmt, ap);
		va_end(ap);
	}
	return PARSE_ERROR;
}

/* How the option was named on the command line, for messages. */
static const char *opt_name(const struct option *o, bool is_long, char *buf, size_t size)
{
	if (is_long || !o->short_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

static bool takes_value(const struct option *o)
{
	switch (o->type) {
	case OPTION_INTEGER:
	case OPTION_UINTEGER:
	case OPTION_U64:
	case OPTION_DOUBLE:
	case OPTION_STRING:
		return true;
	case OPTION_CALLBACK:
		return !(o->flags & PARSE_OPT_NOARG);
	default:
		return false;
	}
}

static int parse_number(struct parse_ctx *ctx, const struct option *o, const char *name,
			const char *arg)
{
	char *end;

	if (!*arg)
		return set_err(ctx, "option '%s' expects a numerical value", name);
	errno = 0;
	switch (o->type) {
	case OPTION_INTEGER: {
		long v = strtol(arg, &end, 0);

		if (*end || errno || v < INT32_MIN || v > INT32_MAX)
			return set_err(ctx, "option '%s' expects a numerical value, not '%s'", name, arg);
		*(int *)o->value = (int)v;
		break;
	}
	case OPTION_UINTEGER: {
		unsigned long v = strtoul(arg, &end, 0);

		if (*end || errno || strchr(arg, '-') || v > UINT32_MAX)
			return set_err(ctx, "option '%s' expects a non-negative number, not '%s'", name, arg);
		*(unsigned int *)o->value = (unsigned int)v;
		break;
	}
	case OPTION_U64: {
		unsigned long long v = strtoull(arg, &end, 0);

		if (*end || errno || strchr(arg, '-'))
			return set_err(ctx, "option '%s' expects a non-negative number, not '%s'", name, arg);
		*(uint64_t *)o->value = v;
		break;
	}
	case OPTION_DOUBLE: {
		double v = strtod(arg, &end);

		if (*end || errno)
			return set_err(ctx, "option '%s' expects a number, not '%s'", name, arg);
		*(double *)o->value = v;
		break;
	}
	default:
		break;
	}
	return PARSE_OK;
}

/*
 * Apply option @o.  @arg is the value already attached to it (`--x=v`,
 * `-xv`) or NULL; when the option needs a value and none is attached, it is
 * taken from the next argument (*@idx is advanced).
 */
static int apply_option(struct parse_ctx *ctx, const struct option *o, bool is_long,
			int unset, const char *arg, int argc, const char **argv, int *idx)
{
	char name[128];
	int r;

	opt_name(o, is_long, name, sizeof(name));
	if (unset && (o->flags & PARSE_OPT_NONEG))
		return set_err(ctx, "option '%s' cannot be negated", name);
	if (unset && arg)
		return set_err(ctx, "option '--no-%s' takes no value", o->long_name);
	if (!takes_value(o) && arg)
		return set_err(ctx, "option '%s' takes no value", name);
	if (takes_value(o) && !unset && !arg && !(o->flags & PARSE_OPT_OPTARG)) {
		if (*idx + 1 >= argc)
			return set_err(ctx, "option '%s' requires a value", name);
		arg = argv[++*idx];
	}
	if (takes_value(o) && !unset && !arg && (o->flags & PARSE_OPT_LASTARG_DEFAULT) &&
	    *idx + 1 < argc && argv[*idx + 1][0] != '-')
		arg = argv[++*idx];
	if (arg && !*arg && (o->flags & PARSE_OPT_NOEMPTY))
		return set_err(ctx, "option '%s' requires a non-empty value", name);
	if (o->set)
		*o->set = true;

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return PARSE_OK;
	case OPTION_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return PARSE_OK;
	case OPTION_SET_UINT:
		*(unsigned int *)o->value = unset ? 0 : (unsigned int)o->defval;
		return PARSE_OK;
	case OPTION_STRING:
		if (unset)
			*(const char **)o->value = NULL;
		else
			*(const char **)o->value = arg ? arg : (const char *)o->defval;
		return PARSE_OK;
	case OPTION_INTEGER:
	case OPTION_UINTEGER:
	case OPTION_U64:
	case OPTION_DOUBLE:
		if (unset) {
			memset(o->value, 0, o->type == OPTION_INTEGER || o->type == OPTION_UINTEGER ?
				sizeof(int) : sizeof(uint64_t));
			return PARSE_OK;
		}
		if (!arg) { /* OPTARG without a value: the default */
			if (o->type == OPTION_INTEGER)
				*(int *)o->value = (int)o->defval;
			return PARSE_OK;
		}
		return parse_number(ctx, o, name, arg);
	case OPTION_CALLBACK:
		r = o->callback(o, arg, unset);
		if (r < 0) {
			if (ctx->err && ctx->errsize && !ctx->err[0])
				snprintf(ctx->err, ctx->errsize, "bad value for option '%s'", name);
			return PARSE_CB_ERROR;
		}
		return PARSE_OK;
	default:
		return set_err(ctx, "internal error: option '%s' has no type", name);
	}
}

static const struct option *find_short(const struct option *opts, int c)
{
	for (const struct option *o = opts; o->type != OPTION_END; o++)
		if (o->type != OPTION_GROUP && o->short_name == c)
			return o;
	return NULL;
}

/* Collect the long names (and their --no- forms) for suggestions. */
static size_t long_names(const struct option *opts, const char **names, size_t max)
{
	size_t n = 0;

	for (const struct option *o = opts; o->type != OPTION_END && n < max; o++)
		if (o->long_name && !(o->flags & PARSE_OPT_HIDDEN))
			names[n++] = o->long_name;
	return n;
}

static int unknown_long(struct parse_ctx *ctx, const char *name, size_t len)
{
	const char *names[512];
	char word[256];
	const char *best;
	size_t n;

	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	n = long_names(ctx->opts, names, 512);
	best = closest_match(word, names, n);
	if (!best && !strncmp(word, "no-", 3))
		best = closest_match(word + 3, names, n);
	if (best)
		set_err(ctx, "unknown option '--%s'; did you mean '--%s'?", word, best);
	else
		set_err(ctx, "unknown option '--%s'", word);
	return PARSE_UNKNOWN;
}

/*
 * Match a long option name: exact names first, then --no-X, then an
 * option named no-X given as --X, then unique prefixes of any of these.
 */
static int parse_long(struct parse_ctx *ctx, const char *arg, int argc, const char **argv,
		      int *idx)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const char *val = eq ? eq + 1 : NULL;
	const struct option *match = NULL, *o;
	int match_unset = 0, nmatch = 0;
	const char *cands[2] = { NULL, NULL };

	if (len == 4 && !strncmp(arg, "help", 4)) {
		for (o = ctx->opts; o->type != OPTION_END; o++)
			if (o->long_name && !strcmp(o->long_name, "help"))
				break;
		if (o->type == OPTION_END)
			return PARSE_HELP;
	}
	if (len == 9 && !strncmp(arg, "list-opts", 9))
		return PARSE_LIST_OPTS;

	/* exact matches */
	for (o = ctx->opts; o->type != OPTION_END; o++) {
		if (!o->long_name)
			continue;
		if (strlen(o->long_name) == len && !strncmp(o->long_name, arg, len))
			return apply_option(ctx, o, true, 0, val, argc, argv, idx);
	}
	for (o = ctx->opts; o->type != OPTION_END; o++) {
		if (!o->long_name)
			continue;
		if (len > 3 && !strncmp(arg, "no-", 3) && strlen(o->long_name) == len - 3 &&
		    !strncmp(o->long_name, arg + 3, len - 3))
			return apply_option(ctx, o, true, 1, val, argc, argv, idx);
		if (!strncmp(o->long_name, "no-", 3) && strlen(o->long_name + 3) == len &&
		    !strncmp(o->long_name + 3, arg, len))
			return apply_option(ctx, o, true, 1, val, argc, argv, idx);
	}
	/* unique prefixes */
	for (o = ctx->opts; o->type != OPTION_END; o++) {
		int unset = -1;

		if (!o->long_name || (o->flags & PARSE_OPT_HIDDEN))
			continue;
		if (!strncmp(o->long_name, arg, len))
			unset = 0;
		else if (len > 3 && !strncmp(arg, "no-", 3) &&
			 !strncmp(o->long_name, arg + 3, len - 3) && !(o->flags & PARSE_OPT_NONEG))
			unset = 1;
		if (unset < 0 || o == match)
			continue;
		if (nmatch < 2)
			cands[nmatch] = o->long_name;
		nmatch++;
		match = o;
		match_unset = unset;
	}
	if (nmatch == 1)
		return apply_option(ctx, match, true, match_unset, val, argc, argv, idx);
	if (nmatch > 1)
		return set_err(ctx, "ambiguous option '--%.*s' (could be '--%s' or '--%s')",
			       (int)len, arg, cands[0], cands[1]);
	return unknown_long(ctx, arg, len);
}

/* A group of short options: "-ag", "-x,", "-e" "cycles", "-F99". */
static int parse_short(struct parse_ctx *ctx, const char *arg, int argc, const char **argv,
		       int *idx)
{
	for (const char *p = arg; *p; p++) {
		const struct option *o = find_short(ctx->opts, (unsigned char)*p);
		int r;

		if (!o) {
			if (*p == 'h')
				return PARSE_HELP;
			if (ctx->flags & PARSE_OPT_KEEP_UNKNOWN)
				return PARSE_UNKNOWN;
			set_err(ctx, "unknown switch '-%c'", *p);
			return PARSE_UNKNOWN;
		}
		if (takes_value(o)) {
			const char *val = p[1] ? p + 1 : NULL;

			return apply_option(ctx, o, false, 0, val, argc, argv, idx);
		}
		r = apply_option(ctx, o, false, 0, NULL, argc, argv, idx);
		if (r)
			return r;
	}
	return PARSE_OK;
}

static int parse_all(struct parse_ctx *ctx, int argc, const char **argv)
{
	int out = 0, i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int r;

		if (arg[0] != '-' || !arg[1]) {
			if (ctx->flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (ctx->flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = arg;
			i++;
			break;
		}
		if (arg[1] == '-')
			r = parse_long(ctx, arg + 2, argc, argv, &i);
		else
			r = parse_short(ctx, arg + 1, argc, argv, &i);
		if (r == PARSE_UNKNOWN && (ctx->flags & PARSE_OPT_KEEP_UNKNOWN)) {
			argv[out++] = arg;
			continue;
		}
		if (r)
			return r;
	}
	while (i < argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	return out;
}

int parse_options_noexit(int argc, const char **argv, const struct option *options,
			 int flags, char *errbuf, size_t errsize)
{
	struct parse_ctx ctx = { .opts = options, .flags = flags, .err = errbuf,
				 .errsize = errsize };
	int r;

	if (errbuf && errsize)
		errbuf[0] = '\0';
	r = parse_all(&ctx, argc, argv);
	if (r == PARSE_HELP || r == PARSE_LIST_OPTS)
		return -2;
	if (r < 0)
		return -1;
	return r;
}

static void list_opts(const struct option *opts)
{
	for (const struct option *o = opts; o->type != OPTION_END; o++)
		if (o->long_name && !(o->flags & PARSE_OPT_HIDDEN))
			printf("--%s\n", o->long_name);
}

void usage_with_options_fp(FILE *fp, const char *const usagestr[],
			   const struct option *opts)
{
	if (usagestr && *usagestr) {
		fprintf(fp, "\n Usage: %s\n", *usagestr++);
		while (*usagestr && **usagestr)
			fprintf(fp, "    or: %s\n", *usagestr++);
		while (*usagestr) {
			fprintf(fp, "%s%s\n", **usagestr ? "    " : "", *usagestr);
			usagestr++;
		}
	}
	if (opts->type != OPTION_GROUP)
		fputc('\n', fp);

	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		int pos;

		if (o->type == OPTION_GROUP) {
			fprintf(fp, "\n%s\n", o->help);
			continue;
		}
		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		pos = fprintf(fp, "    ");
		if (o->short_name)
			pos += fprintf(fp, "-%c", o->short_name);
		else
			pos += fprintf(fp, "    ");
		if (o->long_name && o->short_name)
			pos += fprintf(fp, ", ");
		if (o->long_name)
			pos += fprintf(fp, "--%s", o->long_name);
		if (takes_value(o)) {
			const char *argh = o->argh ? o->argh : "value";

			if (o->flags & PARSE_OPT_OPTARG)
				pos += fprintf(fp, o->long_name ? "[=<%s>]" : "[<%s>]", argh);
			else
				pos += fprintf(fp, " <%s>", argh);
		}
		if (pos <= USAGE_OPTS_WIDTH) {
			fprintf(fp, "%*s", USAGE_OPTS_WIDTH + USAGE_GAP - pos, "");
		} else {
			fputc('\n', fp);
			fprintf(fp, "%*s", USAGE_OPTS_WIDTH + USAGE_GAP, "");
		}
		fprintf(fp, "%s\n", o->help ? o->help : "");
	}
	fputc('\n', fp);
}

void usage_with_options(const char *const usagestr[], const struct option *options)
{
	usage_with_options_fp(stderr, usagestr, options);
	exit(PARSE_OPT_USAGE_EXIT);
}

void usage_with_options_msg(const char *const usagestr[], const struct option *options,
			    const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options(usagestr, options);
}

int parse_options_exit(int argc, const char **argv, const struct option *options,
		       const char *const usagestr[], int flags, int status)
{
	char err[512] = "";
	struct parse_ctx ctx = { .opts = options, .flags = flags, .err = err,
				 .errsize = sizeof(err) };
	int r = parse_all(&ctx, argc, argv);

	switch (r) {
	case PARSE_HELP:
		usage_with_options_fp(stdout, usagestr, options);
		fflush(stdout);
		exit(PARSE_OPT_USAGE_EXIT);
	case PARSE_LIST_OPTS:
		list_opts(options);
		fflush(stdout);
		exit(0);
	case PARSE_CB_ERROR:
		/* the callback printed what was wrong */
		exit(status);
	case PARSE_ERROR:
	case PARSE_UNKNOWN:
		fprintf(stderr, "error: %s\n", err);
		usage_with_options_fp(stderr, usagestr, options);
		exit(status);
	default:
		return r;
	}
}

int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usagestr[], int flags)
{
	return parse_options_exit(argc, argv, options, usagestr, flags, PARSE_OPT_USAGE_EXIT);
}

int parse_opt_string_list(const struct option *opt, const char *arg, int unset)
{
	struct string_list *l = opt->value;
	const char **nv;

	if (unset) {
		free(l->v);
		l->v = NULL;
		l->n = 0;
		return 0;
	}
	nv = realloc(l->v, (l->n + 2) * sizeof(*nv));
	if (!nv)
		return -1;
	l->v = nv;
	l->v[l->n++] = arg;
	l->v[l->n] = NULL;
	return 0;
}
