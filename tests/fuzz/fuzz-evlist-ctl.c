// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for --control's reader (util/event/evlist-ctl.c): bytes
 * that come from a FIFO anyone may write, fed in chunks of sizes taken
 * from the input and split into commands; each command's argument lies
 * inside the buffer and holds no line end.  The first byte also picks a
 * spec string for evlist_ctl__open() ("fd:..." only: no file is opened).
 * Seeds: tests/fuzz/corpus/evlist-ctl/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/evlist-ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evlist_ctl c;
	char msg[256], spec[64];
	size_t i = 0;

	if (size) {	/* the spec: "fd:" and up to 16 bytes of the input */
		size_t n = size - 1 < 16 ? size - 1 : 16;

		memcpy(spec, "fd:", 3);
		memcpy(spec + 3, data + 1, n);
		spec[3 + n] = '\0';
		if (!evlist_ctl__open(&c, spec, msg, sizeof(msg)) && (c.fd < 0 || c.own_fds))
			abort();
	}
	evlist_ctl__init(&c);
	while (i < size) {
		size_t chunk = 1 + data[i] % 97, n = size - i - 1 < chunk ? size - i - 1 : chunk;
		enum evlist_ctl_cmd cmd;
		const char *arg;

		evlist_ctl__feed(&c, data + i + 1, n);
		i += 1 + n;
		while ((cmd = evlist_ctl__next(&c, &arg)) != EVLIST_CTL_NONE) {
			if (c.pos > c.len || c.len > sizeof(c.buf))
				abort();
			if (arg && (arg < c.buf || arg >= c.buf + sizeof(c.buf) || strchr(arg, '\n') ||
				    (cmd != EVLIST_CTL_ENABLE && cmd != EVLIST_CTL_DISABLE)))
				abort();
		}
	}
	return 0;
}
