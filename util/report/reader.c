// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared set-up of the commands that read a perf.data (reader.h).
 */
#include <errno.h>

#include "util/model/machine.h"
#include "util/perf-data/session.h"
#include "util/report/reader.h"
#include "util/unwind/unwind.h"

struct perf_session *reader__open(const struct reader_opts *o, say_fn *progress, char *msg,
				  size_t size)
{
	struct perf_session *s;
	int kind, err;

	if (unwinder__option(o->unwinder, &kind, msg, size))
		return NULL;
	s = perf_session__new(o->input, &err, msg, size);
	if (s)
		s->say = progress;
	return s;
}

int reader__machine(struct machine *m, const struct reader_opts *o, struct perf_session *s,
		    bool kernel_preload, say_fn *warn)
{
	struct machine_opts mo = { .symfs = o->symfs, .kallsyms = o->kallsyms,
				   .no_inline = !o->inline_frames, .kernel_preload = kernel_preload,
				   .say = warn };
	char msg[256];

	if (unwinder__option(o->unwinder, &mo.unwinder, msg, sizeof(msg)))
		return -EINVAL;	/* reader__open() said why */
	if (o->inline_frames)
		machine_opts__dwarf_preload(&mo, &s->data);
	return machine__init(m, &mo, &s->header->env);
}
