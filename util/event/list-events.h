/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The events `tperf list` shows: the symbolic hardware and software events
 * the kernel can open, tool events the parser accepts, generic cache events,
 * sysfs PMU aliases (and powercap energy events when there is no "power"
 * PMU), the raw and breakpoint descriptors, and tracepoints from tracefs.
 * Collected into a list of entries, in Linux perf's order, then printed by
 * list-events-stdio.c as text (perf's layout), names only (--raw-dump) or
 * JSON.
 */
#ifndef TPERF_LIST_EVENTS_H
#define TPERF_LIST_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The groups perf prints, each under its own "[...]" type. */
enum list_section {
	LIST_HW, LIST_SW, LIST_TOOL, LIST_CACHE, LIST_PMU, LIST_RAW, LIST_BREAKPOINT,
	LIST_TRACEPOINT,
};

/* One line of the listing (with its description lines, if any). */
struct list_entry {
	enum list_section section;
	char *name;		/* "context-switches", "msr/tsc/", "sched:sched_switch" */
	char *alias;		/* "cs", "cpu/cycles-t/" or NULL */
	char *raw_name;		/* the --raw-dump spelling when not @name, or NULL */
	const char *type;	/* "Software event", "Kernel PMU event" ... */
	char *pmu;		/* the PMU of a PMU alias, else NULL */
	char *desc;		/* description (PMU aliases with one), or NULL */
	char *encoding;		/* "msr/event=0x00/", "type=1,config=0x3", or NULL */
	char *scale_unit;	/* "2.32831E-10Joules" when scaled or with a unit */
	bool core;		/* an alias of a core (CPU) PMU */
};

struct list_events {
	struct list_entry *v;
	size_t n, alloc;
	bool check_supported;	/* probe hw/sw/cache events with perf_event_open */
	bool tracefs_mounted;	/* out: listing tracepoints mounted tracefs */
};

/**
 * list_events__init - an empty list
 * @le: the list
 *
 * Hardware, software and cache events are listed only when the kernel can
 * open them (as perf does), unless the environment has TPERF_LIST_ALL=1
 * (for tests on fake sysfs trees, whose machine is not this one).
 */
void list_events__init(struct list_events *le);
/* Free every entry. */
void list_events__exit(struct list_events *le);

/*
 * Append the events of one section matching @glob (fnmatch(3) pattern;
 * NULL: all), in perf's order.  Each returns 0 or -ENOMEM.
 */
int list_events__add_hw(struct list_events *le, const char *glob);
int list_events__add_sw(struct list_events *le, const char *glob);
int list_events__add_tool(struct list_events *le, const char *glob);
int list_events__add_cache(struct list_events *le, const char *glob);
/* PMU aliases; @glob matches "pmu/alias/" (or a core PMU's "alias"), any case. */
int list_events__add_pmu(struct list_events *le, const char *glob);
/* The "rNNN", "cpu/t1=v1.../modifier" and "mem:<addr>..." descriptor lines. */
int list_events__add_descriptors(struct list_events *le);

/**
 * list_events__add_tracepoints - the tracepoints under tracefs's events/
 * @le: the list
 * @sys_glob: subsystems to list (NULL: all)
 * @event_glob: event names to list (NULL: all)
 * @encoding: read each event's id for the JSON "Encoding" (costs a read each)
 *
 * Return: 0, -ENOMEM, or -ENOENT (errno kept) when tracefs cannot be found.
 */
int list_events__add_tracepoints(struct list_events *le, const char *sys_glob,
				 const char *event_glob, bool encoding);

/* How to print: text (perf's layout), names only, or JSON. */
struct list_print_opts {
	bool raw_dump;		/* "name name ... " on one line */
	bool json;		/* a JSON array, one object per entry */
	bool desc;		/* print descriptions (perf's default) */
	bool pager;		/* the heading and blank lines perf adds in a pager */
	int columns;		/* width for wrapping descriptions */
};

/**
 * list_events__fprintf - print the list
 * @le: the entries, printed in order
 * @fp: where to
 * @o: the format
 *
 * Return: 0, or -EIO when writing failed.
 */
int list_events__fprintf(const struct list_events *le, FILE *fp,
			 const struct list_print_opts *o);

#endif
