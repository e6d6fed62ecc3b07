/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The build-id cache (~/.debug), filled at the end of `tperf record` the
 * way perf 6.1 fills it, so that report/script find the recorded binaries
 * after they were rebuilt, and the vDSO, which has no file:
 *
 *   DIR/<realpath>/<hex>/elf       the DSO (hard link, else a 0755 copy)
 *   DIR/<realpath>/<hex>/debug     /usr/lib/debug/.build-id/xx/rest.debug
 *   DIR/<realpath>/<hex>/probes    empty (perf's SDT probe cache)
 *   DIR/[kernel.kallsyms]/<hex>/kallsyms   a 0755 copy of /proc/kallsyms
 *   DIR/[vdso]/<hex>/vdso          the vDSO image, plus probes (0600 when
 *                                  DIR is on /tmp's filesystem, else 0755:
 *                                  perf links or copies its /tmp file)
 *   DIR/.build-id/<xx>/<rest> -> ../../<realpath or [name]>/<hex>
 *
 * Existing entries are left as they are.  The cache is best effort: the
 * failures are returned to the caller, one entry per errno, to warn about.
 */
#ifndef TPERF_BUILD_ID_CACHE_H
#define TPERF_BUILD_ID_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/perf-data/event.h"

struct perf_env;

#define BUILD_ID_CACHE_ERR_KINDS 4

/* What could not be cached: the first DSO per errno and how many failed so. */
struct build_id_cache_errs {
	int nr;
	struct {
		int err;		/* positive errno */
		unsigned int count;	/* DSOs that failed with it */
		char name[256];		/* the first of them */
	} kind[BUILD_ID_CACHE_ERR_KINDS];
};

/**
 * build_id_cache__add - put one DSO into the cache
 * @dir: the cache directory (buildid_dir__get())
 * @name: "[kernel.kallsyms]" (with @kernel), "[vdso]" or a file's path
 * @kernel: @name is a kernel DSO
 * @id: its build-id, @len bytes, as read at the end of the recording
 *	(the vDSO's is checked against this process's: -ESTALE if not it)
 *
 * Return: 0 (also when it was there already, or @name is a kind perf does
 * not cache such as "[vsyscall]"), or -errno.
 */
int build_id_cache__add(const char *dir, const char *name, bool kernel, const u8 *id,
			size_t len);

/**
 * build_id_cache__add_env - build_id_cache__add() every DSO of
 * env->build_ids into @dir
 * @errs: receives the failures (zeroed first)
 * Return: how many DSOs failed.
 */
int build_id_cache__add_env(const char *dir, const struct perf_env *env,
			    struct build_id_cache_errs *errs);

#endif
