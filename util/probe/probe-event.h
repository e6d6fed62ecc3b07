/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `tperf probe` definitions: the parser of perf's probe syntax, event
 * naming, the uprobe_events lines, and their creation / listing / removal
 * through libtracefs's dynamic-event API.
 *
 *   DEF = [[GROUP:]EVENT=]FUNC[@SRC][:RLN|+OFFS|%return|;PTN] [ARG ...]
 *       | [[GROUP:]EVENT=]SRC:ALN [ARG ...] | [[GROUP:]EVENT=]SRC;PTN [ARG ...]
 *       | [%]sdt_PROVIDER:NAME  or  %PROVIDER:NAME        (SDT marker)
 *   ARG = [NAME=]VAR[->FIELD|.FIELD|[IDX]]...[:TYPE] | $retval | $params
 *       | $vars | $comm | %REG[:TYPE]
 */
#ifndef TPERF_PROBE_EVENT_H
#define TPERF_PROBE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROBE_MAX_ARGS		32
#define PROBE_MAX_FIELDS	16

enum probe_arg_kind {
	PROBE_ARG_VAR,		/* a DWARF variable, maybe with fields */
	PROBE_ARG_RETVAL,	/* $retval */
	PROBE_ARG_COMM,		/* $comm */
	PROBE_ARG_PARAMS,	/* $params: every parameter */
	PROBE_ARG_VARS,		/* $vars: every variable in scope */
	PROBE_ARG_REG,		/* %REG: a register, passed through */
};

struct probe_field {
	char *name;		/* member name, NULL for an index */
	bool ref;		/* "->" (else "." or "[]") */
	long index;		/* for "[IDX]" */
};

struct probe_arg {
	enum probe_arg_kind kind;
	char *name;		/* NAME= given, else NULL */
	char *var;		/* variable or register name */
	char *type;		/* ":TYPE", else NULL */
	struct probe_field fields[PROBE_MAX_FIELDS];
	int nr_fields;
};

struct probe_def {
	char *group, *event;	/* as given, else NULL */
	char *func, *file;	/* FUNC, SRC */
	int line;		/* RLN (with func) or ALN (with file only), 0 if none */
	uint64_t offset;	/* +OFFS */
	bool retprobe;		/* %return */
	char *lazy;		/* ";PTN": lines matching the glob (spaces ignored) */
	bool sdt;		/* an SDT marker: func = provider, file = name */
	bool abs;		/* "0xADDR": the uprobe offset @addr in the file */
	uint64_t addr;
	bool func_at_addr;	/* func is the DWARF function entered at func_addr */
	uint64_t func_addr;	/* (probe__alternative()'s point) */
	struct probe_arg args[PROBE_MAX_ARGS];
	int nr_args;
};

/* Where a parse failed: byte position in the definition and the reason. */
struct probe_parse_error {
	int pos;
	char msg[160];
};

/*
 * Parse @str (the words of a definition joined by spaces) into @def.
 * 0, or -EINVAL with @err filled, or -ENOMEM.  probe_def__exit() frees.
 */
int probe_def__parse(const char *str, struct probe_def *def, struct probe_parse_error *err);
void probe_def__exit(struct probe_def *def);
/* A name usable as a tracefs group or event: [A-Za-z_][A-Za-z0-9_]*, < 64. */
bool probe_name__valid(const char *name);

/* One uprobe to create: the pieces of a uprobe_events line. */
struct probe_elf;

struct probe_site {
	char group[64], event[64];
	char base[64];		/* the event name before de-duplication */
	bool retprobe;
	char *path;		/* absolute path of the binary */
	uint64_t offset;	/* file offset of the probe */
	uint64_t ref_offset;	/* SDT semaphore file offset, 0 if none */
	char *fetchargs;	/* "" when none */
	char *desc;		/* perf's "(on ...)" text, for the listing */
	bool unchecked;		/* at an offset the user gave in code tperf does not
				 * decode (not x86): maybe not an instruction's start */
};

void probe_site__exit(struct probe_site *s);
/* "p:GROUP/EVENT PATH:0xOFF[(0xREF)] ARGS" into @buf.  Length or -ENOSPC. */
int probe_site__line(const struct probe_site *s, char *buf, size_t size);
/* Reject lines that must not reach tracefs: newlines, shell metacharacters. */
int probe_site__check(const struct probe_site *s);

/* "probe_BINARY" from the binary's path (basename up to the first '.'). */
void probe__default_group(const char *path, char *buf, size_t size);

/*
 * Name each site's event from its base name: the sites of one base share
 * one event (the kernel keeps several probes per event).  A name already in
 * tracefs is -EEXIST, or with @force gets the first free "_1", "_2" suffix.
 */
int probe__name_sites(struct probe_site *sites, int nr, bool force);

/* Create the uprobe of @s in tracefs.  0 or -errno. */
int probe_site__create(const struct probe_site *s);
/* Is GROUP:EVENT a uprobe in tracefs? */
bool probe__exists(const char *group, const char *event);

/*
 * Call @fn for each uprobe in tracefs matching the glob @filter
 * ("[GROUP:]EVENT", NULL = all), with the group, event and the address text
 * ("PATH:0xOFF") and fetch arguments.  Returns the number matched or -errno.
 */
int probe__for_each(const char *filter,
		    int (*fn)(const char *group, const char *event, bool ret,
			      const char *addr, const char *args, void *arg),
		    void *arg);
/* Delete the uprobes matching @filter; the number deleted or -errno. */
int probe__delete(const char *filter,
		  void (*deleted)(const char *group, const char *event));

/*
 * probe__tracefs_dir - give libtracefs the tracing folder tperf found.
 * libtracefs 1.6 looks it up again on every call when it cannot read it
 * (a user who is not root) and leaks the path each time; once named, it
 * is taken as given.  Call before the first probe__*() that uses tracefs.
 */
void probe__tracefs_dir(void);

#endif

struct probe_finder_opts;

/*
 * perf's second try for a function the DWARF does not name (an alias such
 * as glibc's malloc, an IFUNC such as its strcpy): the first symbol of that
 * name in perf's symbol map, and the DWARF function at its address, as
 * FUNC@FILE (at its entry) or FUNC+OFFSET, into @alt (@def otherwise;
 * probe__alternative_exit() frees).  *@ifunc: the symbol is an IFUNC.
 * Points with a file or a line have none: 0 or -ENOENT.
 */
int probe__alternative(struct probe_elf *pe, const struct probe_def *def, struct probe_def *alt,
		       bool *ifunc);
void probe__alternative_exit(struct probe_def *alt);
/* perf's warning about a probe on an IFUNC symbol (its resolver), into @msg. */
void probe__ifunc_warning(const char *func, char *msg, size_t size);

/*
 * Resolve @def in the binary @path into uprobe sites (*@sites, *@nr; free
 * with probe_sites__free()): SDT markers from .note.stapsdt, else DWARF,
 * else (functions without variables) the ELF symbol tables.  Sites get
 * their group and base name; probe__name_sites() names them.  0 or -errno
 * with @msg saying what failed and what to do (an offset inside an
 * instruction included: probe-insn.h); on success @msg is empty or holds a
 * warning to show (perf's, lines ending in '\n', for an IFUNC), and sites
 * whose offset could not be checked (not x86) are marked unchecked.
 */
int probe__resolve(const char *path, const struct probe_def *def,
		   const struct probe_finder_opts *o, struct probe_site **sites, int *nr,
		   char *msg, size_t size);
void probe_sites__free(struct probe_site *sites, int nr);

/*
 * Describe the uprobe at file offset @offset of @path as perf does:
 * "add@/src/prog.c", "walk:3@/src/prog.c", "walk%return@...", "func+4", or
 * the hex address.  0 or -errno.
 */
int probe__describe(const char *path, uint64_t offset, bool ret, char *buf, size_t size);
