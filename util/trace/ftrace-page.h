/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding one page ("sub-buffer") of the kernel's ftrace ring buffer, as
 * per_cpu/cpuN/trace_pipe_raw returns it and trace.dat stores it.  The
 * layout comes from events/header_page: a 64-bit timestamp, the commit word
 * (a kernel long: its top bits flag missed events) and the data.  Events are
 * 32-bit headers (type_len:5, time_delta:27) followed by their payload.
 * Every length is checked against the page: corrupt input gives -EINVAL.
 */
#ifndef TPERF_FTRACE_PAGE_H
#define TPERF_FTRACE_PAGE_H

#include <stdint.h>

/* How pages of one trace are laid out. */
struct ftrace_page_fmt {
	int big_endian;
	int commit_offset;	/* 8 */
	int commit_size;	/* the kernel's long: 4 or 8 */
	int data_offset;	/* 16 on 64-bit, 12 on 32-bit */
	int page_size;
};

/* One event in a page. */
struct ftrace_page_event {
	uint64_t ts;		/* absolute, in trace clock units */
	const uint8_t *data;	/* the record: common_type first */
	uint32_t size;
};

struct ftrace_page_iter {
	const struct ftrace_page_fmt *fmt;
	const uint8_t *page;
	uint32_t commit;	/* bytes of data */
	uint32_t pos;		/* offset in the data */
	uint64_t ts;
	long long missed;	/* events lost before this page: -1 unknown count */
};

/**
 * ftrace_page_fmt__init_default - the layout for a kernel long of @long_size
 * @fmt: filled in
 * @long_size: 4 or 8
 * @big_endian: byte order of the traced machine
 * @page_size: the traced machine's page size
 */
void ftrace_page_fmt__init_default(struct ftrace_page_fmt *fmt, int long_size,
				   int big_endian, int page_size);

/**
 * ftrace_page_fmt__parse_header - fill @fmt from the text of events/header_page
 * @fmt: filled in (endianness and page size must be set before)
 * @text: the header_page file, NUL-terminated
 *
 * Returns 0 or -EINVAL when the commit or data field is missing or absurd.
 */
int ftrace_page_fmt__parse_header(struct ftrace_page_fmt *fmt, const char *text);

/**
 * ftrace_page__init - start iterating over the page @page of @len bytes
 * Returns 0, or -EINVAL when the page is shorter than its header or its
 * commit word says more data than the page holds.
 */
int ftrace_page__init(struct ftrace_page_iter *it, const struct ftrace_page_fmt *fmt,
		      const void *page, uint32_t len);

/**
 * ftrace_page__next - the next event of the page
 * Returns 1 with *ev filled, 0 at the end of the page, -EINVAL when an event
 * header or length points outside the committed data.
 */
int ftrace_page__next(struct ftrace_page_iter *it, struct ftrace_page_event *ev);

/**
 * ftrace_page__read_u32 - read a 32-bit number in the trace's byte order
 */
uint32_t ftrace_page__read_u32(const struct ftrace_page_fmt *fmt, const void *p);

/**
 * ftrace_page__read_u64 - read a 64-bit number in the trace's byte order
 */
uint64_t ftrace_page__read_u64(const struct ftrace_page_fmt *fmt, const void *p);

#endif
