// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DSO objects: names and build-ids (symbol loading is in machine.c, which
 * knows --symfs and the kallsyms file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/symbol/dso.h"
#include "util/symbol/srcline.h"

enum dso_kind dso__kind_of(const char *name)
{
	if (!strcmp(name, "[vdso]"))
		return DSO_VDSO;
	if (!strncmp(name, "/tmp/perf-", 10))
		return DSO_JIT;
	if (!strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]") ||
	    !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	    !strncmp(name, "/anon_hugepage", 14) || !strcmp(name, "[vsyscall]") ||
	    !strcmp(name, "[vvar]"))
		return DSO_NONE;
	return DSO_USER;
}

/* "[name]" of a module path ".../foo-bar.ko.xz": '-' becomes '_'. */
static char *module_short_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s, *dot;

	b = b ? b + 1 : path;
	s = malloc(strlen(b) + 3);
	if (!s)
		return NULL;
	sprintf(s, "[%s", b);
	dot = strstr(s, ".ko");
	if (dot)
		*dot = '\0';
	for (char *p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	strcat(s, "]");
	return s;
}

/* A /tmp/perf-PID.map DSO is "[JIT] tid PID" in report's columns, as in perf. */
static bool jit_short_name(struct dso *d)
{
	const char *b = strrchr(d->long_name, '/');
	char tail[8];
	int pid;

	if (!b || sscanf(b, "/perf-%d.%7s", &pid, tail) != 2 || strcmp(tail, "map"))
		return false;
	if (asprintf(&d->short_alloc, "[JIT] tid %d", pid) < 0) {
		d->short_alloc = NULL;
		return false;
	}
	d->short_name = d->short_alloc;
	return true;
}

struct dso *dso__new(const char *name, enum dso_kind kind, unsigned int seq)
{
	struct dso *d = calloc(1, sizeof(*d));
	const char *b;

	if (!d || !(d->long_name = strdup(name))) {
		free(d);
		return NULL;
	}
	d->kind = kind;
	d->seq = seq;
	if (kind == DSO_MODULE && name[0] == '/') {
		d->short_alloc = module_short_name(name);
		d->short_name = d->short_alloc;
	} else if (kind == DSO_JIT && jit_short_name(d)) {
		/* perf's "[JIT] tid PID" */
	} else if (kind == DSO_USER || kind == DSO_JIT || kind == DSO_NONE) {
		/* perf's basename: "//anon" is "anon", "/dev/zero" "zero" */
		b = strrchr(d->long_name, '/');
		d->short_name = b && b[1] ? b + 1 : d->long_name;
	}
	if (!d->short_name)
		d->short_name = d->long_name;
	return d;
}

void dso__delete(struct dso *dso)
{
	if (!dso)
		return;
	symtab__exit(&dso->syms);
	srcline__dso_exit(dso);
	free(dso->bin_path);
	free(dso->debug_path);
	free(dso->short_alloc);
	free(dso->long_name);
	free(dso);
}

void dso__set_build_id(struct dso *dso, const u8 *bid, size_t size)
{
	if (size > PERF_BUILD_ID_SIZE)
		size = PERF_BUILD_ID_SIZE;
	memcpy(dso->build_id, bid, size);
	dso->build_id_size = size;
	dso->has_build_id = size > 0;
}

void dso__build_id_hex(const struct dso *dso, char *buf)
{
	for (int i = 0; i < dso->build_id_size; i++)
		sprintf(buf + 2 * i, "%02x", dso->build_id[i]);
	buf[2 * dso->build_id_size] = '\0';
}
