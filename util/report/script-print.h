/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-sample lines of `perf script` (perf 6.1's default layout and the
 * -F fields comm, tid, pid, cpu, time, period, event, ip, sym, symoff, dso),
 * with the callchain under the sample line when there is one.
 */
#ifndef TPERF_SCRIPT_PRINT_H
#define TPERF_SCRIPT_PRINT_H

#include <stdio.h>

#include "util/perf-data/header.h"
#include "util/model/machine.h"

enum script_field {
	SF_COMM = 1 << 0, SF_TID = 1 << 1, SF_PID = 1 << 2, SF_CPU = 1 << 3,
	SF_TIME = 1 << 4, SF_PERIOD = 1 << 5, SF_EVNAME = 1 << 6, SF_IP = 1 << 7,
	SF_SYM = 1 << 8, SF_SYMOFF = 1 << 9, SF_DSO = 1 << 10,
	SF_ADDR = 1 << 11, SF_WEIGHT = 1 << 12, SF_INS_LAT = 1 << 13, SF_PHYS_ADDR = 1 << 14,
	SF_DATA_PAGE_SIZE = 1 << 15, SF_CODE_PAGE_SIZE = 1 << 16, SF_BRSTACK = 1 << 17,
	SF_IREGS = 1 << 18, SF_UREGS = 1 << 19,
	SF_TRACE = 1 << 20,		/* a tracepoint's payload (script-trace.h) */
	SF_SRCLINE = 1 << 21,		/* the source line under each address */
	SF_BRSTACKSYM = 1 << 22, SF_BRSTACKOFF = 1 << 23,
	SF_DATA_SRC = 1 << 24,		/* the memory access, decoded (mem-src.h) */
	SF_MISC = 1 << 25,		/* the record's cpumode and flag letters */
	/* PT/BTS fields: perf prints blank flags, and no callindent or ipc, for other samples */
	SF_FLAGS = 1 << 26, SF_CALLINDENT = 1 << 27, SF_IPC = 1 << 28,
	SF_TOD = 1 << 29,		/* wall-clock time (the file's CLOCK_DATA) */
	SF_SRCCODE = 1 << 30,		/* the source line's text under the sample */
};

/* -F TYPE:fields: the event types perf script names (hw, sw, trace, raw, break) */
enum script_output_type {
	SOT_HW, SOT_SW, SOT_TRACE, SOT_RAW, SOT_BREAK, SOT_MAX
};

/* perf's default for hardware, software, raw and breakpoint events */
#define SF_DEFAULT (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | SF_SYM | \
		    SF_SYMOFF | SF_DSO | SF_PERIOD)

/* perf's default for tracepoints (with a callchain: + ip,sym,symoff,dso) */
#define SF_DEFAULT_TP (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_TRACE)

struct script_trace;

struct script_opts {
	unsigned int fields;
	bool user_set;			/* -F given: fields the event lacks are errors */
	bool ns;			/* --ns: nanoseconds */
	unsigned int max_stack;		/* --max-stack: 0 prints no chain */
	int name_width;			/* width of the event name column */
	bool hide_callchain;		/* -G: the sample's ip on its line, no chain */
	unsigned int type_fields[SOT_MAX];	/* -F TYPE:fields */
	unsigned int type_set;		/* bit per enum script_output_type given */
	/* "-F +f,-g" without a list: the changes, applied to each default */
	unsigned int added, removed;
	struct script_trace *trace;	/* tracepoint formats, or NULL */
	/* tod: the wall clock (ns) at the sample clock's @clock_ns, from CLOCK_DATA */
	u64 tod_ns, clock_ns;
};

/**
 * script_fields__asked - every field -F names (for any event type), to
 * check those that need the file's header (tod)
 */
unsigned int script_fields__asked(const struct script_opts *o);

/**
 * script_fields__parse - "-F" syntax: "comm,tid,ip", or "+field"/"-field"
 * changes to the default, optionally for one event type: "sw:comm,tid"
 * (hw, sw, trace, raw, break; other events keep theirs)
 * @o: fields and user_set (or type_fields and type_set) are updated
 * @bad: receives the unknown name (points into @s's copy in @buf), or the
 *	unknown type followed by ':'
 * Return: 0 or -EINVAL.
 */
int script_fields__parse(struct script_opts *o, const char *s, char *buf, size_t size,
			 const char **bad);

/**
 * script_fields__for_attr - the fields printed for an event: those of
 * @o that its sample_type provides (perf drops the others from the default)
 */
unsigned int script_fields__for_attr(const struct script_opts *o, const struct perf_event_attr *a);

/**
 * script_fields__check - fields given with -F that @a's samples cannot
 * provide are an error, as in perf ("'%s' samples have no ADDR ...")
 * @name: the event's name; @msg: the message (@size bytes)
 * Return: 0 or -EINVAL.
 */
int script_fields__check(const struct script_opts *o, const struct perf_event_attr *a,
			 const char *name, char *msg, size_t size);

/**
 * script__fprintf_sample - one sample as perf script prints it
 * @fields: from script_fields__for_attr()
 * @name: the event's name
 * Return: 0 or -EIO.
 */
int script__fprintf_sample(FILE *fp, const struct script_opts *o, unsigned int fields,
			   struct machine *m, const struct perf_event_attr *attr, const char *name,
			   const struct perf_sample *s);

/**
 * script__fprintf_start_rec - the start of a line (comm, tid, time, event
 * ...) as for a sample, for a record of @type (PERF_RECORD_MMAP ...): the
 * misc field shows the record's own flags
 */
void script__fprintf_start_rec(FILE *fp, const struct script_opts *o, unsigned int fields,
			       const struct perf_event_attr *attr, struct thread *t,
			       const struct perf_sample *s, u32 type);

#endif
