// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source files for -F srccode, read whole on first use.  A file that
 * cannot be read is remembered too (no text), so it is tried once; the
 * least recently used of SRCCODE_FILES files is dropped for a new one.
 * Only regular files of at most SRCCODE_MAX_SIZE bytes are read (the debug
 * information names them: a device or a FIFO there would be read for ever).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/file.h"
#include "util/symbol/srccode.h"

#define SRCCODE_FILES 16
#define SRCCODE_MAX_SIZE (64 << 20)

struct src_file {
	char *path;
	char *text;		/* NULL: not readable */
	size_t size;
	size_t *starts;		/* offset of each line */
	unsigned int nr_lines;
	unsigned long used;	/* the use count when last used */
};

static struct src_file files[SRCCODE_FILES];
static unsigned long uses;

static void src_file__clear(struct src_file *f)
{
	free(f->path);
	free(f->text);
	free(f->starts);
	memset(f, 0, sizeof(*f));
}

static int src_file__index(struct src_file *f)
{
	unsigned int n = 1;

	for (size_t i = 0; i < f->size; i++)
		n += f->text[i] == '\n' && i + 1 < f->size;
	f->starts = malloc(n * sizeof(*f->starts));
	if (!f->starts)
		return -ENOMEM;
	f->starts[0] = 0;
	f->nr_lines = 1;
	for (size_t i = 0; i < f->size; i++)
		if (f->text[i] == '\n' && i + 1 < f->size)
			f->starts[f->nr_lines++] = i + 1;
	return 0;
}

/* @f (cleared) filled with @path's text (its size when opened at most), or left without one. */
static void src_file__read(struct src_file *f, const char *path)
{
	struct stat st;
	FILE *fp = file__fopen(path, SRCCODE_MAX_SIZE, &st);

	f->path = strdup(path);
	if (!fp)
		return;
	f->text = malloc(st.st_size + 1);
	if (f->text)
		f->size = fread(f->text, 1, st.st_size, fp);
	if (!f->text || ferror(fp) || !f->size || src_file__index(f)) {
		free(f->text);
		f->text = NULL;
	}
	fclose(fp);
}

static struct src_file *src_file__get(const char *path)
{
	struct src_file *lru = &files[0];

	for (int i = 0; i < SRCCODE_FILES; i++) {
		if (files[i].path && !strcmp(files[i].path, path)) {
			files[i].used = ++uses;
			return &files[i];
		}
		if (files[i].used < lru->used)
			lru = &files[i];
	}
	src_file__clear(lru);
	src_file__read(lru, path);
	lru->used = ++uses;
	return lru->path ? lru : NULL;
}

int srccode__line(const char *path, unsigned int line, const char **text, size_t *len)
{
	struct src_file *f = src_file__get(path);
	const char *s, *e;

	if (!f || !f->text || !line || line > f->nr_lines)
		return -ENOENT;
	s = f->text + f->starts[line - 1];
	e = memchr(s, '\n', f->text + f->size - s);
	*text = s;
	*len = (e ? e : f->text + f->size) - s;
	return 0;
}

void srccode__exit(void)
{
	for (int i = 0; i < SRCCODE_FILES; i++)
		src_file__clear(&files[i]);
}
