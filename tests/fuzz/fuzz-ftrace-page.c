// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: one ftrace ring-buffer page.  The first byte picks the
 * layout (64/32-bit commit word, little/big endian); the rest is the page,
 * decoded event by event with every length checked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/trace/ftrace-page.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftrace_page_fmt fmt;
	struct ftrace_page_iter it;
	struct ftrace_page_event ev;
	uint8_t *page;
	int n = 0;

	if (size < 1)
		return 0;
	ftrace_page_fmt__init_default(&fmt, data[0] & 1 ? 4 : 8, !!(data[0] & 2), 4096);
	size--;
	if (size > 4096)
		size = 4096;
	page = malloc(size ? size : 1);	/* exact size: ASan sees any overrun */
	memcpy(page, data + 1, size);
	if (!ftrace_page__init(&it, &fmt, page, size)) {
		while (ftrace_page__next(&it, &ev) > 0 && n++ < 4096)
			if (ev.data < page || ev.data + ev.size > page + size)
				abort();
	}
	free(page);
	return 0;
}
