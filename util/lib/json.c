// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON (RFC 8259): string escaping and locale-free numbers for the
 * writers, and a strict recursive-descent reader into a tree of values.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/json.h"

/*
 * Length of the well-formed UTF-8 sequence at @s (at least 2 bytes) within
 * @avail bytes, or 0.
 */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned int cp, min;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n > avail)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the terminating NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/**
 * json__fprint_string - write a string as a JSON string
 * @fp: where
 * @s: the string (NULL writes "")
 */
void json__fprint_string(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', fp);
	while (*p) {
		size_t n;

		if (*p == '"' || *p == '\\') {
			fprintf(fp, "\\%c", *p);
		} else if (*p == '\n') {
			fputs("\\n", fp);
		} else if (*p == '\t') {
			fputs("\\t", fp);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(fp, "\\u%04x", *p);
		} else if (*p >= 0x80) {
			n = utf8_len(p, SIZE_MAX);
			if (!n) {
				fprintf(fp, "\\u%04x", *p);
			} else {
				fwrite(p, 1, n, fp);
				p += n;
				continue;
			}
		} else {
			fputc(*p, fp);
		}
		p++;
	}
	fputc('"', fp);
}

/**
 * json__fprint_number - write a number as JSON, in any locale
 * @fp: where
 * @val: the number; not finite writes null
 */
void json__fprint_number(FILE *fp, double val)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c ? uselocale(c) : (locale_t)0;

	if (isfinite(val))
		fprintf(fp, "%.15g", val);
	else
		fputs("null", fp);
	if (c) {
		uselocale(old);
		freelocale(c);
	}
}

#define JSON_MAX_DEPTH 64

struct json_parser {
	const char *start, *p, *end;
	locale_t c_locale;	/* numbers are read with '.' whatever LC_NUMERIC says */
	int depth;
	int err;		/* the first error: -EINVAL or -ENOMEM */
	char *msg;
	size_t size;
};

static int parse_value(struct json_parser *ps, struct json_value *v);

__attribute__((format(printf, 2, 3)))
static int fail(struct json_parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->err)
		return ps->err;
	ps->err = -EINVAL;
	if (!ps->size)
		return ps->err;
	n = snprintf(ps->msg, ps->size, "byte %zu: ", (size_t)(ps->p - ps->start));
	if (n >= 0 && (size_t)n < ps->size) {
		va_start(ap, fmt);
		vsnprintf(ps->msg + n, ps->size - n, fmt, ap);
		va_end(ap);
	}
	return ps->err;
}

static int nomem(struct json_parser *ps)
{
	if (!ps->err) {
		ps->err = -ENOMEM;
		if (ps->size)
			snprintf(ps->msg, ps->size, "out of memory");
	}
	return ps->err;
}

static void skip_space(struct json_parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

/* What is at the parser's position, for messages. */
static const char *what_is_here(const struct json_parser *ps)
{
	return ps->p < ps->end ? "unexpected character" : "unexpected end";
}

static void value_clear(struct json_value *v)
{
	if (!v)
		return;
	free(v->str);
	for (size_t i = 0; i < v->nr; i++) {
		value_clear(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	memset(v, 0, sizeof(*v));
}

static int hex4(const char *s, unsigned int *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];

		*cp <<= 4;
		if (c >= '0' && c <= '9')
			*cp |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*cp |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*cp |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static char *put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		*o++ = cp;
	} else if (cp < 0x800) {
		*o++ = 0xc0 | cp >> 6;
		*o++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*o++ = 0xe0 | cp >> 12;
		*o++ = 0x80 | (cp >> 6 & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	} else {
		*o++ = 0xf0 | cp >> 18;
		*o++ = 0x80 | (cp >> 12 & 0x3f);
		*o++ = 0x80 | (cp >> 6 & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	}
	return o;
}

/* A \uXXXX escape (a surrogate pair as one), at ps->p on the 'u'. */
static int parse_u_escape(struct json_parser *ps, unsigned int *cp)
{
	unsigned int lo;

	if (ps->end - ps->p < 5 || hex4(ps->p + 1, cp))
		return fail(ps, "bad \\u escape");
	ps->p += 5;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return fail(ps, "lone low surrogate in \\u escape");
	if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
		    hex4(ps->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "high surrogate without its low half in \\u escape");
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
		ps->p += 6;
	}
	if (*cp == 0)
		return fail(ps, "\\u0000 in a string");
	return 0;
}

/* A string at ps->p (on its opening quote) into a new buffer *@out. */
static int parse_string(struct json_parser *ps, char **out)
{
	const char *q;
	char *buf, *o;

	/* its end, to size the buffer: the text is never shorter than its value */
	for (q = ps->p + 1; q < ps->end && *q != '"'; q++)
		if (*q == '\\')
			q++;
	if (q >= ps->end) {
		ps->p = ps->end;
		return fail(ps, "unterminated string");
	}
	buf = o = malloc(q - ps->p);
	if (!buf)
		return nomem(ps);
	ps->p++;
	while (*ps->p != '"') {
		unsigned char c = *ps->p;
		unsigned int cp;
		size_t n;

		if (c < 0x20) {
			free(buf);
			return fail(ps, "control character in a string");
		}
		if (c >= 0x80) {
			n = utf8_len((const unsigned char *)ps->p, ps->end - ps->p);
			if (!n) {
				free(buf);
				return fail(ps, "a string that is not UTF-8");
			}
			memcpy(o, ps->p, n);
			o += n;
			ps->p += n;
			continue;
		}
		if (c != '\\') {
			*o++ = c;
			ps->p++;
			continue;
		}
		ps->p++;
		switch (*ps->p) {
		case '"': case '\\': case '/':
			*o++ = *ps->p++;
			break;
		case 'b': *o++ = '\b'; ps->p++; break;
		case 'f': *o++ = '\f'; ps->p++; break;
		case 'n': *o++ = '\n'; ps->p++; break;
		case 'r': *o++ = '\r'; ps->p++; break;
		case 't': *o++ = '\t'; ps->p++; break;
		case 'u':
			if (parse_u_escape(ps, &cp)) {
				free(buf);
				return ps->err;
			}
			o = put_utf8(o, cp);
			break;
		default:
			free(buf);
			return fail(ps, "bad escape in a string");
		}
	}
	ps->p++;
	*o = '\0';
	*out = buf;
	return 0;
}

static bool is_digit(const struct json_parser *ps, const char *q)
{
	return q < ps->end && *q >= '0' && *q <= '9';
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, read in the C locale. */
static int parse_number(struct json_parser *ps, struct json_value *v)
{
	const char *q = ps->p;
	char small[64], *buf = small, *endp;
	size_t len;

	if (q < ps->end && *q == '-')
		q++;
	if (!is_digit(ps, q))
		return fail(ps, "bad number");
	if (*q == '0')
		q++;
	else
		while (is_digit(ps, q))
			q++;
	if (q < ps->end && *q == '.') {
		if (!is_digit(ps, ++q))
			return fail(ps, "bad number");
		while (is_digit(ps, q))
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (!is_digit(ps, q))
			return fail(ps, "bad number");
		while (is_digit(ps, q))
			q++;
	}
	len = q - ps->p;
	if (len >= sizeof(small)) {
		buf = malloc(len + 1);
		if (!buf)
			return nomem(ps);
	}
	memcpy(buf, ps->p, len);
	buf[len] = '\0';
	v->type = JSON_NUMBER;
	v->num = strtod_l(buf, &endp, ps->c_locale);
	if (buf != small)
		free(buf);
	if (!isfinite(v->num))
		return fail(ps, "number out of range");
	ps->p = q;
	return 0;
}

static int parse_word(struct json_parser *ps, struct json_value *v, const char *word,
		      enum json_type type)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, "%s", what_is_here(ps));
	ps->p += n;
	v->type = type;
	return 0;
}

/* Room for one more member of @v (an array or object being read). */
static int grow(struct json_parser *ps, struct json_value *v, size_t *cap)
{
	struct json_value *items;
	char **keys;

	if (v->nr < *cap)
		return 0;
	*cap = *cap ? 2 * *cap : 4;
	items = realloc(v->items, *cap * sizeof(*items));
	if (!items)
		return nomem(ps);
	v->items = items;
	if (v->type == JSON_OBJECT) {
		keys = realloc(v->keys, *cap * sizeof(*keys));
		if (!keys)
			return nomem(ps);
		v->keys = keys;
	}
	return 0;
}

/* An array or an object, at ps->p on its '[' or '{'. */
static int parse_members(struct json_parser *ps, struct json_value *v)
{
	bool object = *ps->p == '{';
	char close = object ? '}' : ']';
	size_t cap = 0;

	if (++ps->depth > JSON_MAX_DEPTH)
		return fail(ps, "nested more than %d deep", JSON_MAX_DEPTH);
	v->type = object ? JSON_OBJECT : JSON_ARRAY;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	for (;;) {
		struct json_value *item;
		char *key = NULL;

		if (grow(ps, v, &cap))
			return ps->err;
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a member name");
			if (parse_string(ps, &key))
				return ps->err;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				return fail(ps, "expected ':'");
			}
			ps->p++;
			skip_space(ps);
			v->keys[v->nr] = key;
		}
		item = &v->items[v->nr];
		memset(item, 0, sizeof(*item));
		v->nr++;	/* counted now: value_clear() frees what it got */
		if (parse_value(ps, item))
			return ps->err;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_space(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == close)
			break;
		return fail(ps, "expected ',' or '%c'", close);
	}
	ps->p++;
	ps->depth--;
	return 0;
}

static int parse_value(struct json_parser *ps, struct json_value *v)
{
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end");
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_members(ps, v);
	case '"':
		v->type = JSON_STRING;
		return parse_string(ps, &v->str);
	case 't':
		return parse_word(ps, v, "true", JSON_TRUE);
	case 'f':
		return parse_word(ps, v, "false", JSON_FALSE);
	case 'n':
		return parse_word(ps, v, "null", JSON_NULL);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps, v);
		return fail(ps, "%s", what_is_here(ps));
	}
}

/**
 * json__parse - read one JSON value
 * @text: the text (need not end in a NUL)
 * @len: its length
 * @res: receives the value, freed with json__delete()
 * @msg: receives what is wrong, "byte N: what" (N from 0)
 * @size: its size
 *
 * Return: 0, -EINVAL for text that is not one JSON value, -ENOMEM.
 */
int json__parse(const char *text, size_t len, struct json_value **res, char *msg, size_t size)
{
	struct json_parser ps = { .start = text, .p = text, .end = text + len, .msg = msg,
				  .size = size };
	struct json_value *v = calloc(1, sizeof(*v));

	*res = NULL;
	if (size)
		msg[0] = '\0';
	if (!v)
		return nomem(&ps);
	ps.c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!ps.c_locale) {
		free(v);
		return nomem(&ps);
	}
	skip_space(&ps);
	if (!parse_value(&ps, v)) {
		skip_space(&ps);
		if (ps.p != ps.end)
			fail(&ps, "text after the value");
	}
	freelocale(ps.c_locale);
	if (ps.err) {
		json__delete(v);
		return ps.err;
	}
	*res = v;
	return 0;
}

/**
 * json__delete - free a parsed value
 * @val: from json__parse(), or NULL
 */
void json__delete(struct json_value *val)
{
	value_clear(val);
	free(val);
}

/**
 * json__get - an object's member
 * @obj: the object (anything else has no members)
 * @key: the member's name
 *
 * Return: its value (the first when the name is repeated), or NULL.
 */
const struct json_value *json__get(const struct json_value *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->nr; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}
