// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/lib/json: the strict reader (values, escapes, the errors and where
 * they are) and the locale-free number writer.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/lib/json.h"

static int parse(const char *text, struct json_value **v, char *msg, size_t size)
{
	return json__parse(text, strlen(text), v, msg, size);
}

TPERF_TEST(json_parse_values, "json: objects, arrays, strings, numbers, literals")
{
	const char *text = " {\"a\" : [1, -2.5e2, 0.125, true, false, null], \"s\" : "
			   "\"q\\\"b\\\\s\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\xc3\xa9\","
			   " \"o\" : {}, \"e\" : [], \"a\" : 7}\n";
	const struct json_value *a, *s;
	struct json_value *v;
	char msg[128];

	TEST_ASSERT_EQUAL("parsed", parse(text, &v, msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("object", v->type, JSON_OBJECT);
	TEST_ASSERT_EQUAL("members", v->nr, 5);
	a = json__get(v, "a");
	TEST_ASSERT_VAL("first a", a && a->type == JSON_ARRAY && a->nr == 6);
	TEST_ASSERT_VAL("1", a->items[0].type == JSON_NUMBER && a->items[0].num == 1);
	TEST_ASSERT_VAL("-250", a->items[1].num == -250);
	TEST_ASSERT_VAL("0.125", a->items[2].num == 0.125);
	TEST_ASSERT_EQUAL("true", a->items[3].type, JSON_TRUE);
	TEST_ASSERT_EQUAL("false", a->items[4].type, JSON_FALSE);
	TEST_ASSERT_EQUAL("null", a->items[5].type, JSON_NULL);
	s = json__get(v, "s");
	TEST_ASSERT_VAL("string", s && s->type == JSON_STRING);
	TEST_ASSERT_STR("unescaped", s->str,
			"q\"b\\s/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9");
	TEST_ASSERT_VAL("empty object", json__get(v, "o")->type == JSON_OBJECT &&
					json__get(v, "o")->nr == 0);
	TEST_ASSERT_VAL("empty array", json__get(v, "e")->nr == 0);
	TEST_ASSERT_VAL("no such key", !json__get(v, "x"));
	TEST_ASSERT_VAL("not an object", !json__get(a, "a"));
	json__delete(v);

	/* a text that does not end in a NUL is read to its length only */
	TEST_ASSERT_EQUAL("length", json__parse("12345", 2, &v, msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("12", v->type == JSON_NUMBER && v->num == 12);
	json__delete(v);
	json__delete(NULL);
	return TEST_OK;
}

TPERF_TEST(json_parse_errors, "json: what is refused, with the byte it is at")
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "byte 0: unexpected end" },
		{ "{\"a\" : 1,}", "byte 9: expected a member name" },
		{ "[1,]", "byte 3: unexpected character" },
		{ "[1 2]", "byte 3: expected ',' or ']'" },
		{ "{\"a\" 1}", "byte 5: expected ':'" },
		{ "01", "byte 1: text after the value" },
		{ "1.", "byte 0: bad number" },
		{ "-", "byte 0: bad number" },
		{ "1e", "byte 0: bad number" },
		{ "+1", "byte 0: unexpected character" },
		{ "1e999", "byte 0: number out of range" },
		{ "nul", "byte 0: unexpected character" },
		{ "\"abc", "byte 4: unterminated string" },
		{ "\"a\\", "byte 3: unterminated string" },
		{ "\"a\tb\"", "byte 2: control character in a string" },
		{ "\"\\x\"", "byte 2: bad escape in a string" },
		{ "\"\\u12g4\"", "byte 2: bad \\u escape" },
		{ "\"\\u0000\"", "byte 7: \\u0000 in a string" },
		{ "\"\\udc00\"", "byte 7: lone low surrogate in \\u escape" },
		{ "\"\\ud800x\"", "byte 7: high surrogate without its low half in \\u escape" },
		{ "\"\xff\"", "byte 1: a string that is not UTF-8" },
		{ "\"\xc3\"", "byte 1: a string that is not UTF-8" },
		{ "{} {}", "byte 3: text after the value" },
	};
	struct json_value *v;
	char msg[128], deep[200];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		TEST_ASSERT_EQUAL(bad[i].text, parse(bad[i].text, &v, msg, sizeof(msg)), -EINVAL);
		TEST_ASSERT_VAL("no value", !v);
		TEST_ASSERT_STR(bad[i].text, msg, bad[i].msg);
	}
	/* 64 levels are read, 65 refused */
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	deep[128] = '\0';
	TEST_ASSERT_EQUAL("64 deep", parse(deep, &v, msg, sizeof(msg)), 0);
	json__delete(v);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = '\0';
	TEST_ASSERT_EQUAL("65 deep", parse(deep, &v, msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_STR("65 deep", msg, "byte 64: nested more than 64 deep");
	/* a message buffer is optional */
	TEST_ASSERT_EQUAL("no buffer", parse("[", &v, NULL, 0), -EINVAL);
	return TEST_OK;
}

TPERF_TEST(json_print_number, "json: numbers in 15 digits with a '.', null when not finite")
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	TEST_ASSERT_VAL("memstream", fp);
	json__fprint_number(fp, 1.5);
	fputc(' ', fp);
	json__fprint_number(fp, 0.1 + 0.2);
	fputc(' ', fp);
	json__fprint_number(fp, -3e20);
	fputc(' ', fp);
	json__fprint_number(fp, 1234567);
	fputc(' ', fp);
	json__fprint_number(fp, NAN);
	fputc(' ', fp);
	json__fprint_number(fp, -INFINITY);
	fclose(fp);
	TEST_ASSERT_STR("numbers", buf, "1.5 0.3 -3e+20 1234567 null null");
	free(buf);
	return TEST_OK;
}
