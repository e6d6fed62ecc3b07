// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for util/list-events: printing, JSON escaping, wrapping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/event/list-events.h"

/* Print @le with @o into a string (free it). */
static char *print_to_string(const struct list_events *le, const struct list_print_opts *o)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	if (!fp)
		return NULL;
	if (list_events__fprintf(le, fp, o)) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	return buf;
}

/* A one-entry list of a described PMU event. */
static int one_entry(struct list_events *le, const char *desc)
{
	list_events__init(le);
	le->v = calloc(1, sizeof(*le->v));
	if (!le->v)
		return -1;
	le->n = le->alloc = 1;
	le->v[0] = (struct list_entry){
		.section = LIST_PMU, .name = strdup("ev"), .alias = strdup("cpu/ev/"),
		.type = "Kernel PMU event", .pmu = strdup("cpu"), .desc = strdup(desc),
		.encoding = strdup("cpu/event=0x1/"),
	};
	return 0;
}

TPERF_TEST(list_events_json_escapes, "list: JSON strings escape quotes, backslashes, controls")
{
	struct list_print_opts o = { .json = true };
	struct list_events le;
	char *out;

	TEST_ASSERT_VAL("entry", one_entry(&le, "say \"hi\"\\\tnow\n\x01") == 0);
	out = print_to_string(&le, &o);
	list_events__exit(&le);
	TEST_ASSERT_STR("json", out,
			"[\n{\n"
			"\t\"Unit\": \"cpu\",\n"
			"\t\"EventName\": \"ev\",\n"
			"\t\"EventAlias\": \"cpu/ev/\",\n"
			"\t\"EventType\": \"Kernel PMU event\",\n"
			"\t\"BriefDescription\": \"say \\\"hi\\\"\\\\\\tnow\\n\\u0001\",\n"
			"\t\"Encoding\": \"cpu/event=0x1/\"\n"
			"}\n]\n");
	free(out);
	return TEST_OK;
}

TPERF_TEST(list_events_wrap, "list: descriptions wrap at the column, words kept whole")
{
	struct list_print_opts o = { .desc = true, .columns = 30 };
	struct list_events le;
	char *out, expect[512];

	TEST_ASSERT_VAL("entry", one_entry(&le, "aaaa bbbb cccc dddd eeee ffff gggg  hhhh") == 0);
	out = print_to_string(&le, &o);
	list_events__exit(&le);
	/* a described event: a blank line, the name padded, then [desc] wrapped */
	snprintf(expect, sizeof(expect), "\n  %-50s\n%s", "ev OR cpu/ev/",
		 "       [aaaa bbbb cccc dddd\n"
		 "        eeee ffff gggg hhhh]\n");
	TEST_ASSERT_STR("wrapped", out, expect);
	free(out);
	return TEST_OK;
}

TPERF_TEST(list_events_raw_dump, "list: --raw-dump leaves descriptors out, no newline")
{
	struct list_print_opts o = { .raw_dump = true };
	struct list_events le;
	char *out;

	list_events__init(&le);
	TEST_ASSERT_VAL("descriptors", list_events__add_descriptors(&le) == 0);
	TEST_ASSERT_EQUAL("entries", le.n, 3);
	out = print_to_string(&le, &o);
	TEST_ASSERT_STR("nothing", out, "");
	free(out);
	o = (struct list_print_opts){ .pager = true };
	out = print_to_string(&le, &o);
	list_events__exit(&le);
	TEST_ASSERT_VAL("heading", out && !strncmp(out, "\nList of pre-defined events", 27));
	TEST_ASSERT_VAL("hint", strstr(out, "   (see 'man tperf-list' on how to encode it)\n\n  mem:"));
	free(out);
	return TEST_OK;
}
