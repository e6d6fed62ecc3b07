// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding one page of the ftrace ring buffer (see ftrace-page.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/trace/ftrace-page.h"

#define TYPE_PADDING	29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP	31
#define TS_SHIFT	27
#define MISSED_EVENTS	(1ULL << 31)
#define MISSED_STORED	(1ULL << 30)

uint32_t ftrace_page__read_u32(const struct ftrace_page_fmt *fmt, const void *p)
{
	const uint8_t *b = p;

	if (fmt->big_endian)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

uint64_t ftrace_page__read_u64(const struct ftrace_page_fmt *fmt, const void *p)
{
	const uint8_t *b = p;
	uint64_t lo = ftrace_page__read_u32(fmt, b), hi = ftrace_page__read_u32(fmt, b + 4);

	if (fmt->big_endian)
		return lo << 32 | hi;
	return hi << 32 | lo;
}

static uint64_t read_long(const struct ftrace_page_fmt *fmt, const void *p)
{
	return fmt->commit_size == 8 ? ftrace_page__read_u64(fmt, p)
				     : ftrace_page__read_u32(fmt, p);
}

void ftrace_page_fmt__init_default(struct ftrace_page_fmt *fmt, int long_size,
				   int big_endian, int page_size)
{
	fmt->big_endian = big_endian;
	fmt->commit_offset = 8;
	fmt->commit_size = long_size == 4 ? 4 : 8;
	fmt->data_offset = 8 + fmt->commit_size;
	fmt->page_size = page_size;
}

/* The offset and size of "field: ... NAME;" in a format text, or -1. */
static int field_layout(const char *text, const char *name, int *offset, int *size)
{
	const char *p = text;
	size_t len = strlen(name);

	while ((p = strstr(p, name))) {
		const char *after = p + len;

		if (*after == ';' && p > text && (p[-1] == ' ' || p[-1] == '\t')) {
			const char *o = strstr(after, "offset:"), *s = strstr(after, "size:");

			if (!o || !s)
				return -1;
			*offset = atoi(o + 7);
			*size = atoi(s + 5);
			return 0;
		}
		p = after;
	}
	return -1;
}

int ftrace_page_fmt__parse_header(struct ftrace_page_fmt *fmt, const char *text)
{
	int off, size, doff, dsize;

	if (field_layout(text, "commit", &off, &size) ||
	    field_layout(text, "data", &doff, &dsize))
		return -EINVAL;
	if ((size != 4 && size != 8) || off < 0 || off > 64 || doff < off + size || doff > 64)
		return -EINVAL;
	fmt->commit_offset = off;
	fmt->commit_size = size;
	fmt->data_offset = doff;
	return 0;
}

int ftrace_page__init(struct ftrace_page_iter *it, const struct ftrace_page_fmt *fmt,
		      const void *page, uint32_t len)
{
	uint64_t commit;
	uint32_t room;

	memset(it, 0, sizeof(*it));
	if (len < (uint32_t)fmt->data_offset || (int)len > fmt->page_size)
		return -EINVAL;
	it->fmt = fmt;
	it->page = page;
	it->ts = ftrace_page__read_u64(fmt, page);
	commit = read_long(fmt, it->page + fmt->commit_offset);
	it->commit = commit & (MISSED_STORED - 1);
	room = len - fmt->data_offset;
	if (it->commit > room)
		return -EINVAL;
	it->missed = 0;
	if (commit & MISSED_EVENTS) {
		it->missed = -1;
		if ((commit & MISSED_STORED) && it->commit + fmt->commit_size <= room)
			it->missed = (long long)read_long(fmt, it->page + fmt->data_offset +
								 it->commit);
	}
	return 0;
}

/* Split an event header word into its type_len and time_delta. */
static void split_header(const struct ftrace_page_fmt *fmt, uint32_t word,
			 uint32_t *type_len, uint32_t *delta)
{
	if (fmt->big_endian) {
		*type_len = word >> TS_SHIFT;
		*delta = word & ((1U << TS_SHIFT) - 1);
	} else {
		*type_len = word & 0x1f;
		*delta = word >> 5;
	}
}

int ftrace_page__next(struct ftrace_page_iter *it, struct ftrace_page_event *ev)
{
	const uint8_t *data = it->page + it->fmt->data_offset;

	while (it->pos < it->commit) {
		uint32_t left = it->commit - it->pos, type_len, delta, word, arg;
		const uint8_t *p = data + it->pos;

		if (left < 4)
			return -EINVAL;
		word = ftrace_page__read_u32(it->fmt, p);
		split_header(it->fmt, word, &type_len, &delta);
		if (type_len == TYPE_PADDING && !delta) {
			it->pos = it->commit;
			return 0;
		}
		if (type_len == 0 || type_len >= TYPE_PADDING) {
			if (left < 8)
				return -EINVAL;
			arg = ftrace_page__read_u32(it->fmt, p + 4);
		}
		switch (type_len) {
		case TYPE_TIME_EXTEND:
			it->ts += ((uint64_t)arg << TS_SHIFT) + delta;
			it->pos += 8;
			continue;
		case TYPE_TIME_STAMP:
			it->ts = ((uint64_t)arg << TS_SHIFT) + delta;
			it->pos += 8;
			continue;
		case TYPE_PADDING:
			if (arg > left - 4)
				return -EINVAL;
			it->ts += delta;
			it->pos += 4 + arg;
			continue;
		case 0:
			if (arg < 4 || arg > left - 4)
				return -EINVAL;
			ev->data = p + 8;
			ev->size = arg - 4;
			it->pos += 4 + arg;
			break;
		default:
			if (type_len * 4 > left - 4)
				return -EINVAL;
			ev->data = p + 4;
			ev->size = type_len * 4;
			it->pos += 4 + type_len * 4;
			break;
		}
		it->ts += delta;
		ev->ts = it->ts;
		return 1;
	}
	return 0;
}
