// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libtraceevent handle and plugins (see trace-event.h).
 */
#include <errno.h>
#include <string.h>

#include "trace-event.h"

int trace_event__init(struct trace_event *t, int long_size, int big_endian, int page_size)
{
	memset(t, 0, sizeof(*t));
	t->tep = tep_alloc();
	if (!t->tep)
		return -ENOMEM;
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, page_size);
	tep_set_file_bigendian(t->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	t->plugins = tep_load_plugins(t->tep);
	return 0;
}

void trace_event__exit(struct trace_event *t)
{
	if (!t->tep)
		return;
	if (t->plugins)
		tep_unload_plugins(t->plugins, t->tep);
	tep_free(t->tep);
	memset(t, 0, sizeof(*t));
}

/*
 * The part of @buf that can be a format file: text (up to the first NUL)
 * ending with its one "print fmt:" line.  libtraceevent 1.7 dereferences
 * NULL on some bytes after that line (found by fuzz-trace-dat), and a
 * kernel never writes any there.
 */
static size_t format_text_len(const char *buf, size_t size)
{
	const char *nul = memchr(buf, '\0', size), *pf, *nl;

	if (nul)
		size = (size_t)(nul - buf);
	pf = memmem(buf, size, "\nprint fmt:", 11);
	if (pf) {
		nl = memchr(pf + 1, '\n', size - (size_t)(pf + 1 - buf));
		if (nl)
			size = (size_t)(nl + 1 - buf);
	}
	return size;
}

int trace_event__parse_format(struct trace_event *t, const char *sys,
			      const char *buf, size_t size)
{
	size = format_text_len(buf, size);
	return tep_parse_event(t->tep, buf, size, sys) ? -EINVAL : 0;
}

struct tep_event *trace_event__payload(struct trace_event *t, struct tep_record *rec,
				       struct trace_seq *s)
{
	struct tep_event *ev = tep_find_event_by_record(t->tep, rec);

	if (!ev)
		return NULL;
	tep_print_event(t->tep, s, rec, "%s", TEP_PRINT_INFO);
	return ev;
}
