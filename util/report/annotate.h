/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Annotation: where in a function its samples fell, instruction by
 * instruction, as perf 6.1's `perf annotate` shows it.  The samples of
 * each (DSO, symbol) are counted per byte offset (struct sym_hist, filled
 * through the report pipeline's sample hook); a function is disassembled
 * by binutils' objdump, run as perf runs it, and its output parsed the way
 * perf parses it (struct annotation: one line per objdump line, source
 * lines numbered, instructions with their offset and their samples).
 * annotate-stdio.c prints it.  Why objdump and not capstone: see
 * Documentation/design.md, "annotate".
 */
#ifndef TPERF_ANNOTATE_H
#define TPERF_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/report/hist.h"

/* perf's --percent-type: what a line's percentage is of */
enum annotate_percent {
	ANNOTATE_LOCAL_PERIOD,	/* the symbol's period (the default) */
	ANNOTATE_GLOBAL_PERIOD,	/* the event's total period */
	ANNOTATE_LOCAL_HITS,	/* the symbol's samples */
	ANNOTATE_GLOBAL_HITS,	/* the event's samples */
};

/* The samples of one symbol by byte offset from its start. */
struct sym_hist {
	const struct dso *dso;
	const struct symbol *sym;
	u64 nr_samples, period;		/* of the whole symbol */
	u64 size;			/* bytes: sym->end - sym->start */
	struct sym_hist_addr {
		u64 nr_samples, period;
	} *addr;			/* size of them */
};

/* The per-symbol counts of one event. */
struct annotate_hists {
	struct sym_hist **slot;		/* open addressing by (dso, sym) */
	size_t nr, size;
};

struct annotate_filter {
	const char *symbol;		/* -s / the SYMBOL argument: only its samples count */
	const char *const *dsos;	/* -d: only these DSOs (short or long names), NULL-terminated */
};

/**
 * annotate_hists__add - count a sample of @period at DSO-relative @addr in
 * @sym of @dso.  Return: 0 or -ENOMEM.
 */
int annotate_hists__add(struct annotate_hists *a, const struct dso *dso, const struct symbol *sym,
			u64 addr, u64 period);
/** annotate_hists__find - the counts of @sym in @dso, or NULL (no sample) */
struct sym_hist *annotate_hists__find(const struct annotate_hists *a, const struct dso *dso,
				      const struct symbol *sym);
/** annotate_hists__exit - free the counts */
void annotate_hists__exit(struct annotate_hists *a);

/**
 * annotate_filter__keep - does a sample in @sym of @dso pass @f? (perf
 * annotate drops the others before they reach any total)
 */
bool annotate_filter__keep(const struct annotate_filter *f, const struct dso *dso,
			   const struct symbol *sym);

/* How objdump is run: perf annotate's options that change its command line */
struct annotate_objdump {
	const char *path;		/* --objdump, or NULL: "objdump" from $PATH */
	const char *style;		/* -M, or NULL */
	bool asm_raw;			/* --asm-raw: the instruction bytes too */
	bool source;			/* --source (default): -S, source lines interleaved */
};

/* One line of the annotation: an objdump line, as perf keeps it. */
struct annotation_line {
	int64_t offset;			/* from the symbol's start; -1: not an instruction */
	int line_nr;			/* perf's number: source line, or objdump's line count */
	char *text;			/* after the address (instructions), else the line */
	const char *path;		/* -l: its source line (DSO's cache), or NULL */
};

struct annotation {
	struct annotation_line *lines;
	size_t nr, alloc;
	u64 start;			/* the symbol's address as objdump shows it */
	int addr_width;			/* hex digits of the last instruction's address */
	char **owned;			/* -l -P: the source lines made here */
	size_t nr_owned;
	/* annotation__count(): each line's counts for each event of a group */
	struct annotation_count {
		u64 nr_samples, period;	/* of the instruction's bytes */
	} *counts;			/* [line * nr_events + event] */
	int nr_events;
};

/*
 * The events shown together (perf's event group: its leader first), or the
 * one event; each with the symbol's counts (NULL: no sample there) and
 * the event's hists (its totals).
 */
#define ANNOTATE_MAX_EVENTS 16
struct annotate_events {
	int nr;
	const struct sym_hist *h[ANNOTATE_MAX_EVENTS];
	const struct hists *hists[ANNOTATE_MAX_EVENTS];
};

/**
 * annotation__disassemble - run objdump on @file for @sym (DSO-relative
 * bounds, converted to the file's addresses through its PT_LOAD headers)
 * and parse its output into @an as perf 6.1 does
 * Return: 0, or -errno with the reason in @msg (objdump missing or
 * failing, no output, a file that is not ELF).
 */
int annotation__disassemble(struct annotation *an, const char *file, const struct symbol *sym,
			    const struct annotate_objdump *o, char *msg, size_t size);

/**
 * annotation__parse - objdump's output for [@start, @end) of @file, read
 * from @f into @an (empty) as perf reads it.  Return: 0 or -ENOMEM.
 */
int annotation__parse(struct annotation *an, FILE *f, const char *file, u64 start, u64 end);

/*
 * The same in two steps, so that several objdumps run at once: start one
 * (its output goes to a file in memory), then finish it (wait, parse into
 * @an, free the job) or abort it (wait, free).
 */
struct objdump_job {
	pid_t pid;
	int fd;
	u64 start, end;			/* the symbol's addresses in the file */
	char *file;
	const char *objdump;
};

/** annotation__objdump_start - start objdump on @sym of @file.  0 or -errno with @msg */
int annotation__objdump_start(struct objdump_job *j, const char *file, const struct symbol *sym,
			      const struct annotate_objdump *o, char *msg, size_t size);
/** annotation__objdump_finish - wait for @j and parse its output into @an.  0 or -errno with @msg */
int annotation__objdump_finish(struct objdump_job *j, struct annotation *an, char *msg,
			       size_t size);
/** annotation__objdump_abort - wait for @j and free it, its output unread */
void annotation__objdump_abort(struct objdump_job *j);

/**
 * annotation__count - sum each event's counts of @ev into @an's instruction
 * lines (each instruction gets its bytes up to the next instruction)
 * Return: 0 or -ENOMEM.
 */
int annotation__count(struct annotation *an, const struct annotate_events *ev);

/**
 * annotation__percent - line @i's percentage of @type for event @k of @ev
 * (after annotation__count())
 */
double annotation__percent(const struct annotation *an, size_t i, int k, enum annotate_percent type,
			   const struct annotate_events *ev);

/** annotation__nr_samples - line @i's samples of event @k (after annotation__count()) */
u64 annotation__nr_samples(const struct annotation *an, size_t i, int k);

/* A source line of -l's summary, with the percentages of its instructions. */
struct annotation_src {
	const char *path;
	double percent[ANNOTATE_MAX_EVENTS];	/* one per event of the group */
};

/**
 * annotation__source_lines - -l: give each instruction above 0.5% (for one
 * of the events) its
 * source line (@full_paths: the file's path, else its base name) and make
 * perf's summary of them: one per line, by percentage, the highest first
 * @out: receives the array (free() it), *@nr its length
 * Return: 0 or -ENOMEM.
 */
int annotation__source_lines(struct annotation *an, struct dso *dso, const struct symbol *sym,
			     enum annotate_percent type, const struct annotate_events *ev,
			     bool full_paths, struct annotation_src **out, size_t *nr);

/** annotation__exit - free @an's lines */
void annotation__exit(struct annotation *an);

/* perf's name of @type, as its header shows it ("local period") */
const char *annotate_percent__name(enum annotate_percent type);
/* Parse --percent-type's @s (local-period, period-local, global-hits ...): 0 or -EINVAL */
int annotate_percent__parse(const char *s, enum annotate_percent *type);

#endif
