// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filling the build-id cache at the end of a recording, in perf 6.1's
 * layout.  See util/symbol/build-id-cache.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/lib/io.h"
#include "util/symbol/build-id-cache.h"
#include "util/symbol/build-id.h"
#include "util/perf-data/header.h"

#define DEBUGINFO_DIR "/usr/lib/debug/.build-id"

/* snprintf into a PATH_MAX buffer; -ENAMETOOLONG when it does not fit */
#define PATH_PRINTF(buf, ...) \
	(snprintf(buf, PATH_MAX, __VA_ARGS__) >= PATH_MAX ? -ENAMETOOLONG : 0)

/* mkdir -p @path with mode 0755; 0 or -errno (-ENOTDIR: a file is in the way) */
static int mkdir_p(char *path)
{
	struct stat st;

	for (char *p = path + 1;; p++) {
		char c = *p;

		if (c != '/' && c)
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			int err = -errno;

			*p = c;
			return err;
		}
		*p = c;
		if (!c)
			break;
	}
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int copy_fd(int from, int to)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(from, buf, sizeof(buf));
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		err = io__write_all(to, buf, (size_t)n);
		if (err)
			return err;
	}
}

/*
 * @final with mode @mode, from @src_fd (if >= 0) or @buf: written to a
 * temporary file next to it first, so a full disk leaves no partial entry.
 */
static int write_entry(const char *final, mode_t mode, int src_fd, const void *buf, size_t n)
{
	char tmp[PATH_MAX];
	int fd, err;

	err = PATH_PRINTF(tmp, "%s.tmpXXXXXX", final);
	if (err)
		return err;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	err = fchmod(fd, mode) ? -errno : 0;
	if (!err)
		err = src_fd >= 0 ? copy_fd(src_fd, fd) : io__write_all(fd, buf, n);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, final))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* @leaf: a hard link to @src, else a 0755 copy of it (as perf's copyfile) */
static int link_or_copy(const char *src, const char *leaf)
{
	int fd, err;

	if (exists(leaf) || !link(src, leaf) || errno == EEXIST)
		return 0;
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = write_entry(leaf, 0755, fd, NULL, 0);
	close(fd);
	return err;
}

/* perf's (empty) SDT probe cache file */
static int add_probes(const char *entry)
{
	char path[PATH_MAX];
	int fd, err = PATH_PRINTF(path, "%s/probes", entry);

	if (err || exists(path))
		return err;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	close(fd);
	return 0;
}

/* The distribution's debuginfo file of @hex, as "debug", when there is one. */
static int add_debug(const char *entry, const char *hex)
{
	char path[PATH_MAX], real[PATH_MAX], leaf[PATH_MAX];
	struct stat st;
	int err = PATH_PRINTF(path, DEBUGINFO_DIR "/%.2s/%s.debug", hex, hex + 2);

	if (err || stat(path, &st) || !S_ISREG(st.st_mode) || !realpath(path, real))
		return err;
	err = PATH_PRINTF(leaf, "%s/debug", entry);
	return err ? err : link_or_copy(real, leaf);
}

static int add_kallsyms(const char *entry)
{
	char leaf[PATH_MAX];
	int fd, err = PATH_PRINTF(leaf, "%s/kallsyms", entry);

	if (err || exists(leaf))
		return err;
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = write_entry(leaf, 0755, fd, NULL, 0);
	close(fd);
	return err;
}

/*
 * perf writes the vDSO to a mkstemp() file in /tmp (0600) and hard-links
 * that into the cache, or copies it (0755) when /tmp is another filesystem.
 */
static mode_t vdso_mode(const char *entry)
{
	struct stat a, b;

	if (stat("/tmp", &a) || stat(entry, &b) || a.st_dev != b.st_dev)
		return 0755;
	return 0600;
}

/* This process's vDSO, which every process of its ABI maps, if it is @id's. */
static int add_vdso(const char *entry, const u8 *id, size_t len)
{
	char leaf[PATH_MAX];
	u8 mine[PERF_BUILD_ID_SIZE];
	const void *start;
	size_t size;
	int n, err = PATH_PRINTF(leaf, "%s/vdso", entry);

	if (err || exists(leaf))
		return err;
	err = vdso__image(&start, &size);
	if (err)
		return err;
	n = vdso__read_build_id(mine, sizeof(mine));
	if (n < 0)
		return n;
	if ((size_t)n != len || memcmp(mine, id, len))
		return -ESTALE;
	return write_entry(leaf, vdso_mode(entry), -1, start, size);
}

static int add_elf(const char *entry, const char *real)
{
	char leaf[PATH_MAX];
	int err = PATH_PRINTF(leaf, "%s/elf", entry);

	return err ? err : link_or_copy(real, leaf);
}

/* DIR/.build-id/xx/rest -> ../../@rel/hex */
static int add_link(const char *dir, const char *rel, const char *hex)
{
	char path[PATH_MAX], target[PATH_MAX];
	int err = PATH_PRINTF(path, "%s/.build-id/%.2s", dir, hex);

	if (!err)
		err = mkdir_p(path);
	if (!err)
		err = PATH_PRINTF(path + strlen(path), "/%s", hex + 2);
	if (!err)
		err = PATH_PRINTF(target, "../../%s/%s", rel, hex);
	if (err || exists(path))
		return err;
	if (symlink(target, path) && errno != EEXIST)
		return -errno;
	return 0;
}

/**
 * build_id_cache__add - see util/symbol/build-id-cache.h
 */
int build_id_cache__add(const char *dir, const char *name, bool kernel, const u8 *id,
			size_t len)
{
	char hex[2 * PERF_BUILD_ID_SIZE + 1], real[PATH_MAX], entry[PATH_MAX];
	bool kallsyms = kernel && !strcmp(name, "[kernel.kallsyms]");
	bool vdso = !strcmp(name, "[vdso]");
	const char *rel;
	int err;

	if (!len || len > PERF_BUILD_ID_SIZE)
		return -EINVAL;
	if (!kallsyms && !vdso && name[0] != '/')
		return 0;
	for (size_t i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	if (kallsyms || vdso) {
		rel = name;
	} else {
		if (!realpath(name, real))
			return -errno;
		rel = real + 1;
	}
	err = PATH_PRINTF(entry, "%s/%s/%s", dir, rel, hex);
	if (!err)
		err = mkdir_p(entry);
	if (!err)
		err = kallsyms ? add_kallsyms(entry) : vdso ? add_vdso(entry, id, len) :
		      add_elf(entry, real);
	if (err) {
		rmdir(entry);	/* if it is empty: no entry without its file */
		return err;
	}
	/* the entry is usable from here: the link first, then the extras */
	err = add_link(dir, rel, hex);
	if (!err && !kallsyms)
		err = add_probes(entry);
	if (!err && !kallsyms && !vdso)
		err = add_debug(entry, hex);
	return err;
}

static void note_err(struct build_id_cache_errs *errs, int err, const char *name)
{
	int i;

	for (i = 0; i < errs->nr && errs->kind[i].err != err; i++)
		;
	if (i == BUILD_ID_CACHE_ERR_KINDS) {
		i--;		/* the last kind counts the rest */
	} else if (i == errs->nr) {
		errs->nr++;
		errs->kind[i].err = err;
		snprintf(errs->kind[i].name, sizeof(errs->kind[i].name), "%s", name);
	}
	errs->kind[i].count++;
}

/**
 * build_id_cache__add_env - see util/symbol/build-id-cache.h
 */
int build_id_cache__add_env(const char *dir, const struct perf_env *env,
			    struct build_id_cache_errs *errs)
{
	int failed = 0;

	memset(errs, 0, sizeof(*errs));
	for (u32 i = 0; i < env->nr_build_ids; i++) {
		const struct perf_build_id_entry *e = &env->build_ids[i];
		bool kernel = e->misc == PERF_RECORD_MISC_KERNEL;
		int err = build_id_cache__add(dir, e->filename, kernel, e->build_id,
					      e->size ? e->size : PERF_BUILD_ID_SIZE);

		if (err) {
			note_err(errs, -err, e->filename);
			failed++;
		}
	}
	return failed;
}
