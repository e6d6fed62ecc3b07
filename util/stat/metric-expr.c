// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Metric expressions: a hand-written lexer and a recursive-descent parser
 * with perf's precedence (loosest first): `if else`, '|', '^', '&',
 * '<' '>', '+' '-', '*' '/' '%', unary '-'; all binary operators group to
 * the left.  A name is a run of [0-9a-zA-Z_.:@?] and backslash escapes; a
 * number the longest of /[0-9]*\.?[0-9]*(e-?[0-9]+)?/ that is not
 * shorter than the name at the same place (so "1e3" is a number and
 * "10abc" a name, as perf's lexer decides).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/stat/metric-expr.h"

#define MAX_DEPTH 64
#define MAX_TEXT 4096

enum tok {
	T_END, T_NUM, T_NAME, T_LITERAL, T_IF, T_ELSE, T_MIN, T_MAX, T_D_RATIO,
	T_SOURCE_COUNT, T_CHAR,
};

struct parser {
	const char *text, *p;
	const char *start;	/* where the current token starts, for messages */
	enum tok tok;
	char ch;		/* T_CHAR */
	double num;		/* T_NUM */
	char *name;		/* T_NAME, T_LITERAL: malloc'ed, taken by the tree */
	int depth;
	int err;
	char *msg;
	size_t size;
	struct metric_expr *expr;
};

static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->err)
		return ps->err;
	ps->err = -EINVAL;
	n = snprintf(ps->msg, ps->size, "column %d: ", (int)(ps->start - ps->text) + 1);
	if (n >= 0 && (size_t)n < ps->size) {
		va_start(ap, fmt);
		vsnprintf(ps->msg + n, ps->size - n, fmt, ap);
		va_end(ap);
	}
	return ps->err;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '@' ||
	       c == '?';
}

/* Length of the name at @s (0: none); a backslash takes the next byte. */
static size_t name_len(const char *s)
{
	size_t n = 0;

	for (;;) {
		if (s[n] == '\\' && s[n + 1])
			n += 2;
		else if (name_char(s[n]))
			n++;
		else
			return n;
	}
}

/* Length of the number at @s, 0: none. */
static size_t number_len(const char *s)
{
	size_t n = 0, digits = 0;

	while (isdigit((unsigned char)s[n])) {
		n++;
		digits++;
	}
	if (s[n] == '.') {
		n++;
		while (isdigit((unsigned char)s[n])) {
			n++;
			digits++;
		}
	}
	if (!digits)
		return 0;
	if (s[n] == 'e') {
		size_t m = n + 1;

		if (s[m] == '-')
			m++;
		if (isdigit((unsigned char)s[m])) {
			while (isdigit((unsigned char)s[m]))
				m++;
			n = m;
		}
	}
	return n;
}

/* The name of @len bytes at @s without its escapes, '?' as the runtime parameter 0. */
static char *unescape(const char *s, size_t len)
{
	char *out = malloc(len + 1), *d = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len)
			*d++ = s[++i];
		else
			*d++ = s[i] == '?' ? '0' : s[i];
	}
	*d = '\0';
	return out;
}

static void next(struct parser *ps)
{
	static const struct {
		const char *word;
		enum tok tok;
	} words[] = {
		{ "if", T_IF }, { "else", T_ELSE }, { "min", T_MIN }, { "max", T_MAX },
		{ "d_ratio", T_D_RATIO }, { "source_count", T_SOURCE_COUNT },
	};
	size_t nl, ml;

	free(ps->name);
	ps->name = NULL;
	while (isspace((unsigned char)*ps->p))
		ps->p++;
	ps->start = ps->p;
	if (!*ps->p) {
		ps->tok = T_END;
		return;
	}
	if (*ps->p == '#') {
		nl = 1;
		while (isalnum((unsigned char)ps->p[nl]) || ps->p[nl] == '_')
			nl++;
		if (nl == 1) {
			fail(ps, "'#' without a name after it");
			ps->tok = T_END;
			return;
		}
		ps->name = unescape(ps->p, nl);
		ps->p += nl;
		ps->tok = T_LITERAL;
		if (!ps->name) {
			ps->err = -ENOMEM;
			ps->tok = T_END;
		}
		return;
	}
	nl = name_len(ps->p);
	ml = number_len(ps->p);
	if (ml && ml >= nl) {
		char buf[64];

		if (ml >= sizeof(buf)) {
			fail(ps, "number too long");
			ps->tok = T_END;
			return;
		}
		memcpy(buf, ps->p, ml);
		buf[ml] = '\0';
		ps->num = strtod(buf, NULL);
		ps->p += ml;
		ps->tok = T_NUM;
		if (!isfinite(ps->num))
			fail(ps, "number '%s' out of range", buf);
		return;
	}
	if (nl) {
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].word) == nl && !strncmp(ps->p, words[i].word, nl)) {
				ps->p += nl;
				ps->tok = words[i].tok;
				return;
			}
		ps->name = unescape(ps->p, nl);
		ps->p += nl;
		ps->tok = T_NAME;
		if (!ps->name) {
			ps->err = -ENOMEM;
			ps->tok = T_END;
		}
		return;
	}
	if (strchr("+-*/%<>|&^(),", *ps->p)) {
		ps->ch = *ps->p++;
		ps->tok = T_CHAR;
		return;
	}
	fail(ps, "unexpected character '%c'", isprint((unsigned char)*ps->p) ? *ps->p : '?');
	ps->tok = T_END;
}

static bool is_char(const struct parser *ps, char c)
{
	return ps->tok == T_CHAR && ps->ch == c;
}

static struct metric_node *node(struct parser *ps, enum metric_op op, struct metric_node *a,
				struct metric_node *b)
{
	struct metric_node *n = calloc(1, sizeof(*n));

	if (!n) {
		ps->err = -ENOMEM;
		return NULL;
	}
	n->op = op;
	n->a = a;
	n->b = b;
	return n;
}

static void node_delete(struct metric_node *n)
{
	if (!n)
		return;
	node_delete(n->a);
	node_delete(n->b);
	node_delete(n->c);
	free(n->name);
	free(n);
}

static int add_id(struct metric_expr *expr, const char *name)
{
	char **ids;

	for (int i = 0; i < expr->nr_ids; i++)
		if (!strcmp(expr->ids[i], name))
			return 0;
	ids = realloc(expr->ids, (expr->nr_ids + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	expr->ids = ids;
	ids[expr->nr_ids] = strdup(name);
	if (!ids[expr->nr_ids])
		return -ENOMEM;
	expr->nr_ids++;
	return 0;
}

static struct metric_node *if_expr(struct parser *ps);

static bool expect(struct parser *ps, char c)
{
	if (!is_char(ps, c)) {
		fail(ps, "'%c' expected", c);
		return false;
	}
	next(ps);
	return true;
}

/* min(a, b), max(a, b), d_ratio(a, b) after the keyword */
static struct metric_node *call2(struct parser *ps, enum metric_op op)
{
	struct metric_node *a = NULL, *b = NULL;

	next(ps);
	if (!expect(ps, '('))
		return NULL;
	a = if_expr(ps);
	if (!a || !expect(ps, ','))
		goto err;
	b = if_expr(ps);
	if (!b || !expect(ps, ')'))
		goto err;
	a = node(ps, op, a, b);
	if (a)
		return a;
	b = NULL;
err:
	node_delete(a);
	node_delete(b);
	return NULL;
}

static struct metric_node *primary(struct parser *ps)
{
	struct metric_node *n;
	enum metric_op op;

	if (ps->err)
		return NULL;
	switch (ps->tok) {
	case T_NUM:
		n = node(ps, MOP_NUM, NULL, NULL);
		if (n)
			n->val = ps->num;
		next(ps);
		return n;
	case T_NAME:
	case T_LITERAL:
		op = ps->tok == T_NAME ? MOP_ID : MOP_LITERAL;
		n = node(ps, op, NULL, NULL);
		if (!n)
			return NULL;
		n->name = ps->name;
		ps->name = NULL;
		if (op == MOP_ID && add_id(ps->expr, n->name)) {
			ps->err = -ENOMEM;
			node_delete(n);
			return NULL;
		}
		next(ps);
		return n;
	case T_MIN:
		return call2(ps, MOP_MIN);
	case T_MAX:
		return call2(ps, MOP_MAX);
	case T_D_RATIO:
		return call2(ps, MOP_D_RATIO);
	case T_SOURCE_COUNT:
		next(ps);
		if (!expect(ps, '('))
			return NULL;
		if (ps->tok != T_NAME) {
			fail(ps, "an event name expected in source_count()");
			return NULL;
		}
		n = node(ps, MOP_SOURCE_COUNT, NULL, NULL);
		if (!n)
			return NULL;
		n->name = ps->name;
		ps->name = NULL;
		if (add_id(ps->expr, n->name)) {
			ps->err = -ENOMEM;
			node_delete(n);
			return NULL;
		}
		next(ps);
		if (!expect(ps, ')')) {
			node_delete(n);
			return NULL;
		}
		return n;
	case T_CHAR:
		if (ps->ch == '(') {
			next(ps);
			n = if_expr(ps);
			if (n && !expect(ps, ')')) {
				node_delete(n);
				return NULL;
			}
			return n;
		}
		if (ps->ch == '-') {
			if (++ps->depth > MAX_DEPTH) {
				fail(ps, "expression nested too deep");
				return NULL;
			}
			next(ps);
			n = primary(ps);
			ps->depth--;
			if (!n)
				return NULL;
			return node(ps, MOP_NEG, n, NULL) ?: (node_delete(n), NULL);
		}
		break;
	default:
		break;
	}
	if (ps->tok == T_END && !ps->err)
		fail(ps, "unexpected end of the expression");
	else
		fail(ps, "a number, a name or '(' expected");
	return NULL;
}

/* Binary operators by level, loosest first; each level's operators and ops. */
static const struct {
	const char *chars;
	enum metric_op ops[3];
} levels[] = {
	{ "|", { MOP_OR } },
	{ "^", { MOP_XOR } },
	{ "&", { MOP_AND } },
	{ "<>", { MOP_LT, MOP_GT } },
	{ "+-", { MOP_ADD, MOP_SUB } },
	{ "*/%", { MOP_MUL, MOP_DIV, MOP_MOD } },
};
#define NR_LEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

static struct metric_node *binary(struct parser *ps, int level)
{
	struct metric_node *left, *right, *n;

	if (level == NR_LEVELS)
		return primary(ps);
	left = binary(ps, level + 1);
	while (left && ps->tok == T_CHAR && strchr(levels[level].chars, ps->ch)) {
		enum metric_op op = levels[level].ops[strchr(levels[level].chars, ps->ch) -
						     levels[level].chars];

		next(ps);
		right = binary(ps, level + 1);
		if (!right) {
			node_delete(left);
			return NULL;
		}
		n = node(ps, op, left, right);
		if (!n) {
			node_delete(left);
			node_delete(right);
			return NULL;
		}
		left = n;
	}
	return left;
}

static struct metric_node *if_expr(struct parser *ps)
{
	struct metric_node *a, *cond = NULL, *b = NULL, *n;

	if (++ps->depth > MAX_DEPTH) {
		fail(ps, "expression nested too deep");
		return NULL;
	}
	a = binary(ps, 0);
	if (a && ps->tok == T_IF) {
		next(ps);
		cond = binary(ps, 0);
		if (!cond)
			goto err;
		if (ps->tok != T_ELSE) {
			fail(ps, "'else' expected");
			goto err;
		}
		next(ps);
		b = if_expr(ps);
		if (!b)
			goto err;
		n = node(ps, MOP_IF, a, cond);
		if (!n)
			goto err;
		n->c = b;
		a = n;
	}
	ps->depth--;
	return a;
err:
	node_delete(a);
	node_delete(cond);
	node_delete(b);
	return NULL;
}

/**
 * metric_expr__delete - free a parsed expression
 * @expr: from metric_expr__parse(), or NULL
 */
void metric_expr__delete(struct metric_expr *expr)
{
	if (!expr)
		return;
	node_delete(expr->root);
	for (int i = 0; i < expr->nr_ids; i++)
		free(expr->ids[i]);
	free(expr->ids);
	free(expr);
}

/**
 * metric_expr__parse - parse a MetricExpr
 * @text: the expression
 * @res: receives the tree
 * @msg: receives "column N: what" when the text is not an expression
 * @size: its size
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int metric_expr__parse(const char *text, struct metric_expr **res, char *msg, size_t size)
{
	struct parser ps = { .text = text, .p = text, .start = text, .msg = msg, .size = size };

	*res = NULL;
	if (size)
		*msg = '\0';
	if (strlen(text) > MAX_TEXT) {
		snprintf(msg, size, "expression longer than %d bytes", MAX_TEXT);
		return -EINVAL;
	}
	ps.expr = calloc(1, sizeof(*ps.expr));
	if (!ps.expr)
		return -ENOMEM;
	next(&ps);
	ps.expr->root = if_expr(&ps);
	if (ps.expr->root && ps.tok != T_END)
		fail(&ps, "unexpected text after the expression");
	free(ps.name);
	if (ps.err || !ps.expr->root) {
		if (!ps.err)
			ps.err = -ENOMEM;
		if (ps.err == -ENOMEM)
			snprintf(msg, size, "out of memory");
		metric_expr__delete(ps.expr);
		return ps.err;
	}
	*res = ps.expr;
	return 0;
}

static int eval(const struct metric_node *n, metric_lookup_fn lookup, void *arg, double *v)
{
	double a = 0, b = 0, c = 0;
	int err;

	switch (n->op) {
	case MOP_NUM:
		*v = n->val;
		return 0;
	case MOP_ID:
	case MOP_LITERAL:
	case MOP_SOURCE_COUNT:
		return lookup(n->op, n->name, v, arg);
	default:
		break;
	}
	err = eval(n->a, lookup, arg, &a);
	if (!err && n->b)
		err = eval(n->b, lookup, arg, &b);
	if (!err && n->c)
		err = eval(n->c, lookup, arg, &c);
	if (err)
		return err;
	switch (n->op) {
	case MOP_NEG: *v = -a; break;
	case MOP_ADD: *v = a + b; break;
	case MOP_SUB: *v = a - b; break;
	case MOP_MUL: *v = a * b; break;
	case MOP_DIV: *v = b == 0 ? NAN : a / b; break;
	case MOP_MOD:
		/* perf takes the remainder of the whole parts */
		*v = trunc(b) == 0 ? NAN : fmod(trunc(a), trunc(b));
		break;
	case MOP_LT: *v = a < b; break;
	case MOP_GT: *v = a > b; break;
	case MOP_OR: *v = a != 0 || b != 0; break;
	case MOP_AND: *v = a != 0 && b != 0; break;
	case MOP_XOR: *v = (a != 0) != (b != 0); break;
	case MOP_MIN: *v = a < b ? a : b; break;
	case MOP_MAX: *v = a > b ? a : b; break;
	case MOP_D_RATIO: *v = b == 0 ? 0 : a / b; break;
	case MOP_IF: *v = b != 0 ? a : c; break;
	default: return -EINVAL;
	}
	return 0;
}

/**
 * metric_expr__eval - compute an expression
 * @expr: parsed
 * @lookup: gives each name its value
 * @arg: for @lookup
 * @val: receives the value
 *
 * Return: 0 or the first error of @lookup.
 */
int metric_expr__eval(const struct metric_expr *expr, metric_lookup_fn lookup, void *arg,
		      double *val)
{
	*val = 0;
	return eval(expr->root, lookup, arg, val);
}

/**
 * metric_expr__event_name - an id as an event string
 * @id: unescaped, as in metric_expr.ids
 * @buf: receives the event ('@' as '/')
 * @size: its size
 */
void metric_expr__event_name(const char *id, char *buf, size_t size)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; id[i] && i + 1 < size; i++)
		buf[i] = id[i] == '@' ? '/' : id[i];
	buf[i] = '\0';
}
