// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compiled print fmts (see trace-fast.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/trace/trace-fast.h"

enum tf_kind { TF_LIT, TF_INT, TF_STR };

struct tf_op {
	enum tf_kind kind;
	const char *lit;		/* TF_LIT: into the event's format */
	int lit_len;
	int offset, size;		/* TF_INT: the value's bytes; TF_STR: the field's */
	bool dynamic;			/* TF_STR: a __data_loc string */
	bool relative;			/* __rel_loc */
	char conv;			/* 'd', 'u', 'x' */
	int ls;				/* length modifier: 0, 1 (l), 2 (ll) */
	int width;
	bool zero, left;
};

struct trace_fast {
	int nr;
	struct tf_op ops[];
};

/* libtraceevent may resolve an argument's field on first use only */
static struct tep_format_field *arg_field(struct tep_event *ev, struct tep_print_arg *a)
{
	if (a->type == TEP_PRINT_FIELD) {
		if (!a->field.field && a->field.name)
			a->field.field = tep_find_any_field(ev, a->field.name);
		return a->field.field;
	}
	if (a->type == TEP_PRINT_STRING) {
		if (!a->string.field && a->string.string)
			a->string.field = tep_find_any_field(ev, a->string.string);
		return a->string.field;
	}
	return NULL;
}

/* The value an argument reads: a plain field, or an element of an array field. */
static bool int_arg(struct tep_event *ev, struct tep_print_arg *a, struct tf_op *op)
{
	const struct tep_format_field *f;
	long idx = 0;

	if (a->type == TEP_PRINT_OP && !strcmp(a->op.op, "[") && a->op.left &&
	    a->op.left->type == TEP_PRINT_FIELD && a->op.right &&
	    a->op.right->type == TEP_PRINT_ATOM) {
		char *end;

		f = arg_field(ev, a->op.left);
		idx = strtol(a->op.right->atom.atom, &end, 10);
		if (!f || *end || idx < 0 || !(f->flags & TEP_FIELD_IS_ARRAY) ||
		    (f->flags & TEP_FIELD_IS_DYNAMIC) || !f->elementsize ||
		    (unsigned long)idx >= f->arraylen)
			return false;
		op->offset = f->offset + (int)(idx * f->elementsize);
		op->size = (int)f->elementsize;
		return true;
	}
	if (a->type != TEP_PRINT_FIELD || !(f = arg_field(ev, a)) ||
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	op->offset = f->offset;
	op->size = f->size;
	return true;
}

static bool str_arg(struct tep_event *ev, struct tep_print_arg *a, struct tf_op *op)
{
	const struct tep_format_field *f = arg_field(ev, a);

	if (!f || !(f->flags & TEP_FIELD_IS_ARRAY))
		return false;
	if (a->type == TEP_PRINT_FIELD && (f->flags & TEP_FIELD_IS_DYNAMIC))
		return false;
	op->offset = f->offset;
	op->size = f->size;
	op->dynamic = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
	op->relative = !!(f->flags & TEP_FIELD_IS_RELATIVE);
	return true;
}

/* One conversion at *@fmt (after its '%'): flags, width, length, type. */
static bool parse_conv(const char **fmt, struct tf_op *op)
{
	const char *p = *fmt;

	for (; *p == '0' || *p == '-'; p++) {
		op->zero |= *p == '0';
		op->left |= *p == '-';
	}
	for (; *p >= '0' && *p <= '9'; p++)
		op->width = op->width * 10 + (*p - '0');
	if (op->width > 64)
		return false;
	for (; *p == 'l'; p++)
		op->ls++;
	if (op->ls > 2)
		return false;
	switch (*p) {
	case 'd': case 'i':
		op->conv = 'd';
		break;
	case 'u': case 'x':
		op->conv = *p;
		break;
	case 's':
		if (op->ls || op->zero)
			return false;
		op->conv = 's';
		break;
	default:
		return false;
	}
	*fmt = p + 1;
	return true;
}

static bool add_conv(struct tep_event *ev, struct trace_fast *p, const char **fmt,
		     struct tep_print_arg **arg)
{
	struct tf_op *op = &p->ops[p->nr];

	memset(op, 0, sizeof(*op));
	if (!*arg || !parse_conv(fmt, op))
		return false;
	if (op->conv == 's') {
		op->kind = TF_STR;
		if (!str_arg(ev, *arg, op))
			return false;
	} else {
		op->kind = TF_INT;
		/* the value's size must be the conversion's: no implicit widening */
		if (!int_arg(ev, *arg, op) || op->size != (op->ls ? 8 : 4))
			return false;
	}
	*arg = (*arg)->next;
	p->nr++;
	return true;
}

struct trace_fast *trace_fast__compile(struct tep_event *ev)
{
	const char *fmt = ev ? ev->print_fmt.format : NULL;
	struct tep_print_arg *arg = ev ? ev->print_fmt.args : NULL;
	struct trace_fast *p;
	size_t max;

	if (!fmt || ev->handler || (ev->flags & TEP_EVENT_FL_FAILED) ||
	    tep_is_file_bigendian(ev->tep) != tep_is_local_bigendian(ev->tep))
		return NULL;
	max = strlen(fmt) + 1;
	p = calloc(1, sizeof(*p) + max * sizeof(p->ops[0]));
	if (!p)
		return NULL;
	while (*fmt) {
		const char *pct = strchr(fmt, '%');
		size_t n = pct ? (size_t)(pct - fmt) : strlen(fmt);

		if (n) {
			p->ops[p->nr++] = (struct tf_op){ .kind = TF_LIT, .lit = fmt, .lit_len = (int)n };
			fmt += n;
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			p->ops[p->nr++] = (struct tf_op){ .kind = TF_LIT, .lit = fmt, .lit_len = 1 };
			fmt++;
		} else if (!add_conv(ev, p, &fmt, &arg)) {
			free(p);
			return NULL;
		}
	}
	if (arg) {		/* more arguments than conversions */
		free(p);
		return NULL;
	}
	return p;
}

void trace_fast__free(struct trace_fast *p)
{
	free(p);
}

/* @v in @base into the end of @tmp; returns the start. */
static char *utoa(unsigned long long v, int base, char *end)
{
	static const char digits[] = "0123456789abcdef";

	do {
		*--end = digits[v % (unsigned int)base];
		v /= (unsigned int)base;
	} while (v);
	return end;
}

struct tf_out {
	char *p, *end;
};

static bool put(struct tf_out *o, const char *s, size_t n)
{
	if ((size_t)(o->end - o->p) < n)
		return false;
	memcpy(o->p, s, n);
	o->p += n;
	return true;
}

static bool pad(struct tf_out *o, char c, int n)
{
	if (n <= 0)
		return true;
	if (o->end - o->p < n)
		return false;
	memset(o->p, c, (size_t)n);
	o->p += n;
	return true;
}

/* printf's rules for a width, '0' and '-' on a number of @len chars */
static bool put_padded(struct tf_out *o, const struct tf_op *op, bool neg, const char *s, int len)
{
	int fill = op->width - len - neg;

	if (!op->left && !op->zero && !pad(o, ' ', fill))
		return false;
	if (neg && !put(o, "-", 1))
		return false;
	if (!op->left && op->zero && !pad(o, '0', fill))
		return false;
	return put(o, s, (size_t)len) && (!op->left || pad(o, ' ', fill));
}

static bool print_int(struct tf_out *o, const struct tf_op *op, const unsigned char *d)
{
	unsigned long long v;
	char tmp[24], *s, *end = tmp + sizeof(tmp);
	bool neg = false;

	if (op->size == 8) {
		memcpy(&v, d + op->offset, 8);
	} else {
		unsigned int v32;

		memcpy(&v32, d + op->offset, 4);
		v = v32;
	}
	if (op->conv == 'd') {
		long long sv = op->size == 8 ? (long long)v : (long long)(int)v;

		neg = sv < 0;
		v = neg ? 0ULL - (unsigned long long)sv : (unsigned long long)sv;
	}
	s = utoa(v, op->conv == 'x' ? 16 : 10, end);
	return put_padded(o, op, neg, s, (int)(end - s));
}

static bool print_str(struct tf_out *o, const struct tf_op *op, const unsigned char *d,
		      size_t size)
{
	unsigned int off = (unsigned int)op->offset, len = (unsigned int)op->size;
	const char *s;
	size_t n;

	if (op->dynamic) {
		unsigned int loc;

		memcpy(&loc, d + op->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (op->relative)
			off += (unsigned int)(op->offset + op->size);
		if ((size_t)off + len > size)
			return false;
	}
	s = (const char *)d + off;
	n = strnlen(s, len);
	if (n == len && op->dynamic)
		return false;	/* unterminated: libtraceevent's business */
	return put_padded(o, op, false, s, (int)n);
}

int trace_fast__print(const struct trace_fast *p, const void *data, size_t size, char *buf,
		      size_t len)
{
	struct tf_out o = { buf, buf + len };
	const unsigned char *d = data;

	for (int i = 0; i < p->nr; i++) {
		const struct tf_op *op = &p->ops[i];
		bool ok;

		if (op->kind != TF_LIT && (size_t)op->offset + (size_t)op->size > size)
			return -1;
		if (op->kind == TF_LIT)
			ok = put(&o, op->lit, (size_t)op->lit_len);
		else if (op->kind == TF_INT)
			ok = print_int(&o, op, d);
		else
			ok = print_str(&o, op, d, size);
		if (!ok)
			return -1;
	}
	return (int)(o.p - buf);
}
