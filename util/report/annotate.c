// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Annotation: per-address counts of a symbol's samples, objdump's
 * disassembly of it parsed as perf 6.1 parses it, and the percentages of
 * each instruction (see annotate.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/report/annotate.h"
#include "util/symbol/srcline.h"

/* ---- counts ---- */

static size_t slot_of(const struct dso *dso, const struct symbol *sym, size_t size)
{
	u64 h = (u64)(uintptr_t)dso * 0x9e3779b97f4a7c15ull ^ (u64)(uintptr_t)sym * 0xc2b2ae3d27d4eb4full;

	return (h ^ (h >> 29)) & (size - 1);
}

struct sym_hist *annotate_hists__find(const struct annotate_hists *a, const struct dso *dso,
				      const struct symbol *sym)
{
	if (!a->size)
		return NULL;
	for (size_t i = slot_of(dso, sym, a->size);; i = (i + 1) & (a->size - 1)) {
		struct sym_hist *h = a->slot[i];

		if (!h || (h->dso == dso && h->sym == sym))
			return h;
	}
}

static int grow(struct annotate_hists *a)
{
	size_t size = a->size ? a->size * 2 : 256;
	struct sym_hist **slot = calloc(size, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < a->size; i++) {
		struct sym_hist *h = a->slot[i];
		size_t j;

		if (!h)
			continue;
		for (j = slot_of(h->dso, h->sym, size); slot[j]; j = (j + 1) & (size - 1))
			;
		slot[j] = h;
	}
	free(a->slot);
	a->slot = slot;
	a->size = size;
	return 0;
}

int annotate_hists__add(struct annotate_hists *a, const struct dso *dso, const struct symbol *sym,
			u64 addr, u64 period)
{
	struct sym_hist *h = annotate_hists__find(a, dso, sym);
	u64 off;

	if (!h) {
		if ((a->nr + 1) * 2 > a->size && grow(a))
			return -ENOMEM;
		h = calloc(1, sizeof(*h));
		if (!h)
			return -ENOMEM;
		h->dso = dso;
		h->sym = sym;
		h->size = sym->end > sym->start ? sym->end - sym->start : 0;
		h->addr = calloc(h->size ? h->size : 1, sizeof(*h->addr));
		if (!h->addr) {
			free(h);
			return -ENOMEM;
		}
		size_t i;

		for (i = slot_of(dso, sym, a->size); a->slot[i]; i = (i + 1) & (a->size - 1))
			;
		a->slot[i] = h;
		a->nr++;
	}
	/* perf does not count a sample outside the symbol's bytes */
	off = addr - sym->start;
	if (addr < sym->start || off >= h->size)
		return 0;
	h->nr_samples++;
	h->period += period;
	h->addr[off].nr_samples++;
	h->addr[off].period += period;
	return 0;
}

void annotate_hists__exit(struct annotate_hists *a)
{
	for (size_t i = 0; i < a->size; i++) {
		if (a->slot[i])
			free(a->slot[i]->addr);
		free(a->slot[i]);
	}
	free(a->slot);
	memset(a, 0, sizeof(*a));
}

bool annotate_filter__keep(const struct annotate_filter *f, const struct dso *dso,
			   const struct symbol *sym)
{
	if (f->symbol && (!sym || strcmp(sym->name, f->symbol)))
		return false;
	if (!f->dsos)
		return true;
	for (const char *const *d = f->dsos; dso && *d; d++)
		if (!strcmp(*d, dso->short_name) || !strcmp(*d, dso->long_name))
			return true;
	return false;
}

/* ---- objdump ---- */

/* The address in @file's program headers of file offset @off (PT_LOAD). */
static int file_vaddr(const char *file, u64 off, u64 *vaddr, char *msg, size_t size)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	size_t n;
	Elf *elf;
	int err = -ENOEXEC;

	if (fd < 0) {
		err = -errno;
		snprintf(msg, size, "cannot open '%s': %s", file, strerror(errno));
		return err;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n)) {
		snprintf(msg, size, "'%s' is not an ELF file", file);
		goto out;
	}
	*vaddr = off;	/* no segment holds it (a relocatable file): as it is */
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off >= ph.p_offset && off < ph.p_offset + ph.p_filesz) {
			*vaddr = off - ph.p_offset + ph.p_vaddr;
			break;
		}
	}
	err = 0;
out:
	elf_end(elf);
	close(fd);
	return err;
}

/* Start @argv with its stdout into the file @out and its stderr on /dev/null. */
static pid_t spawn(char *const *argv, int out)
{
	pid_t pid = fork();

	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(out, 1);
		if (null >= 0)
			dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* @s with its tabs expanded to stops of 8 (counted from @s) into *@buf. */
static char *expand_tabs(const char *s, char **buf, size_t *alloc)
{
	size_t tabs = 0, n = strlen(s), d = 0;

	for (size_t i = 0; i < n; i++)
		tabs += s[i] == '\t';
	if (!tabs)
		return (char *)s;
	if (n + 1 + tabs * 8 > *alloc) {
		char *b = realloc(*buf, n + 1 + tabs * 8);

		if (!b)
			return NULL;
		*buf = b;
		*alloc = n + 1 + tabs * 8;
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\t') {
			(*buf)[d++] = s[i];
			continue;
		}
		do
			(*buf)[d++] = ' ';
		while (d % 8);
	}
	(*buf)[d] = '\0';
	return *buf;
}

/* "/path:NUMBER..." (objdump -l's location lines): its number, else -1 */
static int location_line(const char *s)
{
	const char *p = s + 1;

	if (*s != '/' || *p == ':' || !*p)
		return -1;
	while (*p && *p != ':')
		p++;
	if (*p != ':' || !isdigit((unsigned char)p[1]))
		return -1;
	return atoi(p + 1);
}

static int add_line(struct annotation *an, int64_t offset, int line_nr, const char *text)
{
	struct annotation_line *al;

	if (an->nr == an->alloc) {
		size_t alloc = an->alloc ? an->alloc * 2 : 64;

		al = realloc(an->lines, alloc * sizeof(*al));
		if (!al)
			return -ENOMEM;
		an->lines = al;
		an->alloc = alloc;
	}
	al = &an->lines[an->nr];
	memset(al, 0, sizeof(*al));
	al->offset = offset;
	al->line_nr = line_nr;
	al->text = strdup(text);
	if (!al->text)
		return -ENOMEM;
	an->nr++;
	return 0;
}

/*
 * One line of objdump's output, trimmed and with its tabs expanded: a
 * location sets the number of the lines that follow; an address inside
 * the symbol makes an instruction; anything else is kept as it is.
 */
static int parse_line(struct annotation *an, char *line, u64 start, u64 end, int *line_nr)
{
	int nr = location_line(line);
	int64_t offset = -1;
	char *after;
	u64 ip;

	if (nr >= 0) {
		*line_nr = nr;
		return 0;
	}
	ip = strtoull(line, &after, 16);
	if (after != line && after[0] == ':' && after[1] != '\0' && ip >= start && ip < end) {
		offset = ip - start;
		line = after + 1;
	}
	return add_line(an, offset, (*line_nr)++, line);
}

static int read_objdump(struct annotation *an, FILE *f, const char *file, u64 start, u64 end)
{
	size_t flen = strlen(file), alloc = 0, xalloc = 0;
	char *line = NULL, *xbuf = NULL;
	int line_nr = 0, err = 0;
	ssize_t n;

	while ((n = getline(&line, &alloc, f)) >= 0) {
		const char *m = strstr(line, file);
		char *s;

		/* the "FILE:     file format" line */
		if (m && m[flen] == ':')
			continue;
		s = expand_tabs(trim(line), &xbuf, &xalloc);
		if (!s) {
			err = -ENOMEM;
			break;
		}
		err = parse_line(an, s, start, end, &line_nr);
		if (err)
			break;
	}
	free(line);
	free(xbuf);
	return err;
}

int annotation__parse(struct annotation *an, FILE *f, const char *file, u64 start, u64 end)
{
	int err;

	an->start = start;
	err = read_objdump(an, f, file, start, end);
	for (size_t i = an->nr; !err && i-- > 0;) {
		if (an->lines[i].offset >= 0) {
			an->addr_width = snprintf(NULL, 0, "%" PRIx64, start + an->lines[i].offset);
			break;
		}
	}
	return err;
}

int annotation__objdump_start(struct objdump_job *j, const char *file, const struct symbol *sym,
			      const struct annotate_objdump *o, char *msg, size_t size)
{
	char start_arg[64], stop_arg[64];
	const char *argv[16];
	int argc = 0, err;
	u64 start = 0;

	memset(j, 0, sizeof(*j));
	j->fd = -1;
	j->objdump = o->path ? o->path : "objdump";
	err = file_vaddr(file, sym->start, &start, msg, size);
	if (err)
		return err;
	j->start = start;
	j->end = start + (sym->end - sym->start);
	j->file = strdup(file);
	/* objdump writes to a file in memory: many run at once, none waits for its reader */
	j->fd = memfd_create("tperf-objdump", MFD_CLOEXEC);
	if (!j->file || j->fd < 0) {
		err = j->file ? -errno : -ENOMEM;
		snprintf(msg, size, "cannot run '%s': %s", j->objdump, strerror(-err));
		annotation__objdump_abort(j);
		return err;
	}
	snprintf(start_arg, sizeof(start_arg), "--start-address=0x%016" PRIx64, j->start);
	snprintf(stop_arg, sizeof(stop_arg), "--stop-address=0x%016" PRIx64, j->end);
	argv[argc++] = j->objdump;
	if (o->style) {
		argv[argc++] = "-M";
		argv[argc++] = o->style;
	}
	argv[argc++] = start_arg;
	argv[argc++] = stop_arg;
	argv[argc++] = "-l";
	argv[argc++] = "-d";
	if (!o->asm_raw)
		argv[argc++] = "--no-show-raw-insn";
	if (o->source)
		argv[argc++] = "-S";
	argv[argc++] = "-C";
	argv[argc++] = file;
	argv[argc] = NULL;
	j->pid = spawn((char *const *)argv, j->fd);
	if (j->pid < 0) {
		err = -errno;
		snprintf(msg, size, "cannot run '%s': %s", j->objdump, strerror(errno));
		annotation__objdump_abort(j);
		return err;
	}
	return 0;
}

void annotation__objdump_abort(struct objdump_job *j)
{
	int status;

	if (j->pid > 0)
		while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
			;
	if (j->fd >= 0)
		close(j->fd);
	free(j->file);
	j->pid = 0;
	j->fd = -1;
	j->file = NULL;
}

int annotation__objdump_finish(struct objdump_job *j, struct annotation *an, char *msg,
			       size_t size)
{
	int status = 0, err = 0;
	FILE *f;

	memset(an, 0, sizeof(*an));
	an->start = j->start;
	while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
		;
	j->pid = 0;
	f = lseek(j->fd, 0, SEEK_SET) ? NULL : fdopen(j->fd, "r");
	if (!f)
		err = -errno;
	else
		err = annotation__parse(an, f, j->file, j->start, j->end);
	if (f)
		fclose(f);
	else
		close(j->fd);
	j->fd = -1;
	if (err) {
		snprintf(msg, size, "cannot read the output of '%s': %s", j->objdump, strerror(-err));
		goto out;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !an->nr) {
		snprintf(msg, size, "cannot run '%s': install binutils or name one with --objdump",
			 j->objdump);
		err = -ENOENT;
		goto out;
	}
	if (!an->nr) {
		snprintf(msg, size, "no output from '%s' on '%s'", j->objdump, j->file);
		err = -ENODATA;
		goto out;
	}
out:
	if (err)
		annotation__exit(an);
	annotation__objdump_abort(j);
	return err;
}

int annotation__disassemble(struct annotation *an, const char *file, const struct symbol *sym,
			    const struct annotate_objdump *o, char *msg, size_t size)
{
	struct objdump_job j;
	int err = annotation__objdump_start(&j, file, sym, o, msg, size);

	memset(an, 0, sizeof(*an));
	return err ? err : annotation__objdump_finish(&j, an, msg, size);
}

int annotation__count(struct annotation *an, const struct annotate_events *ev)
{
	free(an->counts);
	an->nr_events = ev->nr;
	an->counts = calloc(an->nr * ev->nr + 1, sizeof(*an->counts));
	if (!an->counts)
		return -ENOMEM;
	for (size_t i = 0; i < an->nr; i++) {
		const struct annotation_line *al = &an->lines[i];
		u64 end = 0;

		if (al->offset < 0)
			continue;
		end = UINT64_MAX;
		for (size_t j = i + 1; j < an->nr; j++) {
			if (an->lines[j].offset >= 0) {
				end = an->lines[j].offset;
				break;
			}
		}
		for (int k = 0; k < ev->nr; k++) {
			const struct sym_hist *h = ev->h[k];
			struct annotation_count *c = &an->counts[i * ev->nr + k];

			for (u64 off = al->offset; h && off < end && off < h->size; off++) {
				c->nr_samples += h->addr[off].nr_samples;
				c->period += h->addr[off].period;
			}
		}
	}
	return 0;
}

u64 annotation__nr_samples(const struct annotation *an, size_t i, int k)
{
	return an->counts[i * an->nr_events + k].nr_samples;
}

double annotation__percent(const struct annotation *an, size_t i, int k, enum annotate_percent type,
			   const struct annotate_events *ev)
{
	const struct annotation_count *c = &an->counts[i * an->nr_events + k];
	const struct sym_hist *h = ev->h[k];
	const struct hists *hists = ev->hists[k];

	switch (type) {
	case ANNOTATE_LOCAL_HITS:
		return h && h->nr_samples ? 100.0 * c->nr_samples / h->nr_samples : 0.0;
	case ANNOTATE_GLOBAL_HITS:
		return hists->nr_samples ? 100.0 * c->nr_samples / hists->nr_samples : 0.0;
	case ANNOTATE_GLOBAL_PERIOD:
		return hists->total_period ? 100.0 * c->period / hists->total_period : 0.0;
	case ANNOTATE_LOCAL_PERIOD:
	default:
		return h && h->period ? 100.0 * c->period / h->period : 0.0;
	}
}

/* for qsort_r(): the number of events */
static int src_cmp(const void *a, const void *b, void *arg)
{
	const struct annotation_src *x = a, *y = b;
	int nr = *(const int *)arg;

	/* perf: the first event whose sums differ decides */
	for (int k = 0; k < nr; k++)
		if (x->percent[k] != y->percent[k])
			return x->percent[k] > y->percent[k] ? -1 : 1;
	/* perf's trees leave equal sums in the reverse order of their paths */
	return strcmp(y->path, x->path);
}

/* @dso's "path:line" of @addr, kept in @an; the base name's when there is no path */
static const char *full_srcline(struct annotation *an, struct dso *dso, u64 addr)
{
	const char *path;
	unsigned int line;
	char **owned, *s;

	if (srcline__find_path(dso, addr, &path, &line))
		return dso__srcline(dso, addr, NULL);
	for (size_t i = 0; i < an->nr_owned; i++) {
		const char *colon = strrchr(an->owned[i], ':');

		if (colon && (size_t)(colon - an->owned[i]) == strlen(path) &&
		    !strncmp(an->owned[i], path, colon - an->owned[i]) &&
		    (unsigned int)atoi(colon + 1) == line)
			return an->owned[i];
	}
	owned = realloc(an->owned, (an->nr_owned + 1) * sizeof(*owned));
	if (!owned)
		return NULL;
	an->owned = owned;
	if (asprintf(&s, "%s:%u", path, line) < 0)
		return NULL;
	an->owned[an->nr_owned++] = s;
	return s;
}

int annotation__source_lines(struct annotation *an, struct dso *dso, const struct symbol *sym,
			     enum annotate_percent type, const struct annotate_events *ev,
			     bool full_paths, struct annotation_src **out, size_t *nr)
{
	struct annotation_src *v = NULL;
	size_t n = 0, alloc = 0;

	*out = NULL;
	*nr = 0;
	for (size_t i = 0; i < an->nr; i++) {
		struct annotation_line *al = &an->lines[i];
		double pct[ANNOTATE_MAX_EVENTS], max = 0.0;
		size_t k;

		if (al->offset < 0)
			continue;
		for (int e = 0; e < ev->nr; e++) {
			pct[e] = annotation__percent(an, i, e, type, ev);
			if (pct[e] > max)
				max = pct[e];
		}
		if (max <= 0.5)
			continue;
		al->path = full_paths ? full_srcline(an, dso, sym->start + al->offset)
				      : dso__srcline(dso, sym->start + al->offset, NULL);
		if (!al->path)
			goto nomem;
		for (k = 0; k < n && strcmp(v[k].path, al->path); k++)
			;
		if (k < n) {
			for (int e = 0; e < ev->nr; e++)
				v[k].percent[e] += pct[e];
			continue;
		}
		if (n == alloc) {
			struct annotation_src *nv = realloc(v, (alloc * 2 + 8) * sizeof(*v));

			if (!nv)
				goto nomem;
			v = nv;
			alloc = alloc * 2 + 8;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].path = al->path;
		for (int e = 0; e < ev->nr; e++)
			v[n].percent[e] = pct[e];
		n++;
	}
	if (n)
		qsort_r(v, n, sizeof(*v), src_cmp, (void *)&ev->nr);
	*out = v;
	*nr = n;
	return 0;
nomem:
	free(v);
	return -ENOMEM;
}

void annotation__exit(struct annotation *an)
{
	for (size_t i = 0; i < an->nr; i++)
		free(an->lines[i].text);
	free(an->lines);
	for (size_t i = 0; i < an->nr_owned; i++)
		free(an->owned[i]);
	free(an->owned);
	free(an->counts);
	memset(an, 0, sizeof(*an));
}

static const char *const percent_names[] = {
	[ANNOTATE_LOCAL_PERIOD] = "local period",
	[ANNOTATE_GLOBAL_PERIOD] = "global period",
	[ANNOTATE_LOCAL_HITS] = "local hits",
	[ANNOTATE_GLOBAL_HITS] = "global hits",
};

const char *annotate_percent__name(enum annotate_percent type)
{
	return percent_names[type];
}

int annotate_percent__parse(const char *s, enum annotate_percent *type)
{
	const char *dash = strchr(s, '-');
	bool local = false, global = false, hits = false, period = false;
	const char *w[2];
	size_t len[2];

	if (!dash)
		return -EINVAL;
	w[0] = s;
	len[0] = dash - s;
	w[1] = dash + 1;
	len[1] = strlen(dash + 1);
	for (int i = 0; i < 2; i++) {
		if (len[i] == 5 && !strncmp(w[i], "local", 5))
			local = true;
		else if (len[i] == 6 && !strncmp(w[i], "global", 6))
			global = true;
		else if (len[i] == 4 && !strncmp(w[i], "hits", 4))
			hits = true;
		else if (len[i] == 6 && !strncmp(w[i], "period", 6))
			period = true;
		else
			return -EINVAL;
	}
	if (local == global || hits == period)
		return -EINVAL;
	*type = local ? (hits ? ANNOTATE_LOCAL_HITS : ANNOTATE_LOCAL_PERIOD)
		      : (hits ? ANNOTATE_GLOBAL_HITS : ANNOTATE_GLOBAL_PERIOD);
	return 0;
}
