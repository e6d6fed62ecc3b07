// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for annotate's reader of objdump's output
 * (util/report/annotate.c): objdump prints what the ELF file and its
 * source files hold, so its lines are anything.  The first 2 bytes of the
 * input give the symbol's size (little-endian, modulo 512), the next 2
 * its address; the rest is objdump's text for that symbol of /f.  Every instruction must fall inside the symbol, and the
 * counts and perf's text (to /dev/null) must come out of any of it.
 * Seeds: tests/fuzz/corpus/annotate-objdump/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/report/annotate-stdio.h"
#include "util/report/annotate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_hist_addr addr[512] = { { 0 } };
	struct sym_hist h = { .addr = addr, .nr_samples = 3, .period = 3 };
	struct hists hists = { .nr_samples = 5, .total_period = 5 };
	struct annotation an = { 0 };
	const char *prev = NULL;
	FILE *in, *out;

	u64 start;

	if (size < 4)
		return 0;
	h.size = (data[0] | data[1] << 8) % 512;
	start = data[2] | data[3] << 8;
	if (h.size) {
		addr[0].nr_samples = addr[0].period = 1;
		addr[h.size - 1].nr_samples = addr[h.size - 1].period = 2;
	}
	in = fmemopen((void *)(data + 4), size - 4 ? size - 4 : 1, "r");
	out = fopen("/dev/null", "w");
	if (!in || !out)
		abort();
	if (!annotation__parse(&an, in, "/f", start, start + h.size)) {
		const struct annotate_events ev = { .nr = 1, .h = { &h }, .hists = { &hists } };
		const struct annotate_stdio p = { .ev = &ev, .dso_name = "/f", .event = "cpu-clock" };

		for (size_t i = 0; i < an.nr; i++)
			if (an.lines[i].offset >= (int64_t)h.size)
				abort();
		if (!annotation__count(&an, &ev))
			annotation__fprintf(&an, &p, NULL, 0, &prev, out);
	}
	annotation__exit(&an);
	fclose(in);
	fclose(out);
	return 0;
}
