// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf's tracing data blob for tracepoint events.  See util/tracing-data.h;
 * the layout is documented in Linux perf's
 * Documentation/perf.data-file-format.txt (HEADER_TRACING_DATA).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evlist.h"
#include "evsel.h"
#include "fs.h"
#include "header.h"
#include "tracing-data.h"

static int put_file(struct wbuf *b, const char *path, int len_bytes)
{
	char *text = NULL;
	size_t len = 0;
	int err = filename__read_str(path, &text, &len);

	if (err) {
		if (len_bytes == 8)
			return err;
		len = 0;	/* optional files: an empty section */
	}
	if (len_bytes == 8) {
		u64 n = len;

		wbuf__put(b, &n, 8);
	} else {
		u32 n = (u32)len;

		wbuf__put(b, &n, 4);
	}
	wbuf__put(b, text, len);
	free(text);
	return 0;
}

static int put_named(struct wbuf *b, const char *name, const char *path)
{
	wbuf__put(b, name, strlen(name) + 1);
	return put_file(b, path, 8);
}

/* Is @e the first tracepoint of @sys (so that a system is written once)? */
static bool first_of_sys(struct evlist *evlist, struct evsel *e)
{
	struct evsel *p;

	evlist__for_each_entry(evlist, p) {
		if (p == e)
			return true;
		if (p->tp_sys && !strcmp(p->tp_sys, e->tp_sys))
			return false;
	}
	return true;
}

/* Earlier tracepoint with the same sys:name (written once). */
static bool seen(struct evlist *evlist, struct evsel *e)
{
	struct evsel *p;

	evlist__for_each_entry(evlist, p) {
		if (p == e)
			return false;
		if (p->tp_sys && !strcmp(p->tp_sys, e->tp_sys) && !strcmp(p->tp_name, e->tp_name))
			return true;
	}
	return false;
}

static int put_systems(struct wbuf *b, struct evlist *evlist, const char *tfs)
{
	struct evsel *e, *f;
	char path[4096];
	u32 nr = 0;
	int err = 0;

	evlist__for_each_entry(evlist, e)
		nr += e->tp_sys && strcmp(e->tp_sys, "ftrace") && first_of_sys(evlist, e);
	wbuf__put(b, &nr, 4);
	evlist__for_each_entry(evlist, e) {
		u32 count = 0;

		if (!e->tp_sys || !strcmp(e->tp_sys, "ftrace") || !first_of_sys(evlist, e))
			continue;
		wbuf__put(b, e->tp_sys, strlen(e->tp_sys) + 1);
		evlist__for_each_entry(evlist, f)
			count += f->tp_sys && !strcmp(f->tp_sys, e->tp_sys) && !seen(evlist, f);
		wbuf__put(b, &count, 4);
		evlist__for_each_entry(evlist, f) {
			if (!f->tp_sys || strcmp(f->tp_sys, e->tp_sys) || seen(evlist, f))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", tfs, f->tp_sys,
				 f->tp_name);
			err = err ? err : put_file(b, path, 8);
		}
	}
	return err;
}

static int put_ftrace(struct wbuf *b, struct evlist *evlist, const char *tfs)
{
	struct evsel *e;
	char path[4096];
	u32 nr = 0;
	int err = 0;

	evlist__for_each_entry(evlist, e)
		nr += e->tp_sys && !strcmp(e->tp_sys, "ftrace") && !seen(evlist, e);
	wbuf__put(b, &nr, 4);
	evlist__for_each_entry(evlist, e) {
		if (!e->tp_sys || strcmp(e->tp_sys, "ftrace") || seen(evlist, e))
			continue;
		snprintf(path, sizeof(path), "%s/events/ftrace/%s/format", tfs, e->tp_name);
		err = err ? err : put_file(b, path, 8);
	}
	return err;
}

static int build(struct wbuf *b, struct evlist *evlist, const char *tfs)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char path[4096];
	u8 endian = 0, lsize = sizeof(long);
	u32 psize = (u32)sysconf(_SC_PAGESIZE), zero = 0;
	int err;

	wbuf__put(b, magic, sizeof(magic));
	wbuf__put(b, "0.6", 4);
	wbuf__put(b, &endian, 1);
	wbuf__put(b, &lsize, 1);
	wbuf__put(b, &psize, 4);
	snprintf(path, sizeof(path), "%s/events/header_page", tfs);
	err = put_named(b, "header_page", path);
	snprintf(path, sizeof(path), "%s/events/header_event", tfs);
	err = err ? err : put_named(b, "header_event", path);
	err = err ? err : put_ftrace(b, evlist, tfs);
	err = err ? err : put_systems(b, evlist, tfs);
	wbuf__put(b, &zero, 4);		/* kallsyms: none */
	snprintf(path, sizeof(path), "%s/printk_formats", tfs);
	err = err ? err : put_file(b, path, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", tfs);
	if (!err && put_file(b, path, 8)) {
		u64 none = 0;

		wbuf__put(b, &none, 8);
	}
	return err;
}

/**
 * tracing_data__build - see util/tracing-data.h
 */
int tracing_data__build(struct evlist *evlist, void **buf, size_t *size)
{
	const char *tfs = tracefs__mountpoint();
	struct wbuf b = { 0 };
	struct evsel *e;
	bool any = false;
	int err;

	*buf = NULL;
	*size = 0;
	evlist__for_each_entry(evlist, e)
		any |= e->tp_sys && e->tp_name && e->attr.type == PERF_TYPE_TRACEPOINT;
	if (!any)
		return 0;
	if (!tfs)
		return -ENOENT;
	err = build(&b, evlist, tfs);
	if (!err && b.oom)
		err = -ENOMEM;
	if (err) {
		wbuf__exit(&b);
		return err;
	}
	*buf = b.buf;
	*size = b.len;
	return 0;
}
