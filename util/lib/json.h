/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON text: writing strings from anywhere (event names from the command
 * line or sysfs, units, process names) quoted so that any JSON reader
 * accepts them, and numbers the same in every locale; reading a JSON
 * value (RFC 8259, strict) into a tree, for files written by another run.
 */
#ifndef TPERF_JSON_H
#define TPERF_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write @s as a JSON string, quotes included: '"', '\\' and control
 * characters escaped, valid UTF-8 as it is, a byte that is not UTF-8 as
 * \u00XX (its Latin-1 character).
 */
void json__fprint_string(FILE *fp, const char *s);

/*
 * Write @val as a JSON number with 15 significant digits and a '.' whatever
 * LC_NUMERIC says; `null` when it is not finite (JSON has no inf or NaN).
 */
void json__fprint_number(FILE *fp, double val);

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

/* A parsed JSON value; arrays and objects own their members. */
struct json_value {
	enum json_type type;
	double num;			/* JSON_NUMBER (always finite) */
	char *str;			/* JSON_STRING, unescaped to UTF-8 (no NUL inside) */
	size_t nr;			/* JSON_ARRAY, JSON_OBJECT: the members */
	struct json_value *items;	/* their values, in the order of the text */
	char **keys;			/* JSON_OBJECT: their names (unescaped) */
};

/*
 * Parse @len bytes of @text as one JSON value (white space around it
 * allowed, nothing else) into *@res, to be freed with json__delete().
 * Strict RFC 8259, nested at most 64 deep; a number out of double's range
 * and a \u0000 in a string are refused.  0, -EINVAL with "byte N: what"
 * in @msg, or -ENOMEM.
 */
int json__parse(const char *text, size_t len, struct json_value **res, char *msg, size_t size);

/* Free a value from json__parse() (NULL is fine). */
void json__delete(struct json_value *val);

/* The member @key of object @obj (the first one when repeated), or NULL. */
const struct json_value *json__get(const struct json_value *obj, const char *key);

#endif
