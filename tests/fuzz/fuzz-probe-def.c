// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the probe definition parser (util/probe/probe-event.c):
 * probe_def__parse() on arbitrary text; a parsed definition's names must be
 * valid tracefs names, an error's position inside the text.  Seeds:
 * tests/fuzz/corpus/probe-def/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/symbol/probe-cxx.h"
#include "util/probe/probe-event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_parse_error err;
	struct probe_def def;
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (probe_def__parse(s, &def, &err) == 0) {
		if ((def.event && !probe_name__valid(def.event)) ||
		    (def.group && !probe_name__valid(def.group)) || (!def.func && !def.file && !def.abs))
			abort();
		if (def.func && probe_cxx__qualified(def.func)) {	/* its event name */
			char ev[64];

			probe_cxx__event_name(def.func, ev, sizeof(ev));
			if (*ev && !probe_name__valid(ev) && (ev[0] < '0' || ev[0] > '9'))
				abort();
		}
		for (int i = 0; i < def.nr_args; i++)
			if (!def.args[i].var)
				abort();
		probe_def__exit(&def);
	} else if (err.pos < 0 || (size_t)err.pos > strlen(s)) {
		abort();
	}
	free(s);
	return 0;
}
