/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Build-ids: reading them (ELF files with libelf, the running kernel from
 * /sys/kernel/notes, the vDSO from this process's memory) and finding which
 * DSOs a recording's samples hit, for the BUILD_ID header feature.
 */
#ifndef TPERF_BUILD_ID_H
#define TPERF_BUILD_ID_H

#include <libelf.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/perf-data/event.h"

struct perf_env;
struct perf_event_attr;

/**
 * filename__read_build_id - the NT_GNU_BUILD_ID note of an ELF file
 * @path: the file
 * @id: receives up to @size bytes
 * Return: the build-id's length, or -errno (-ENOENT: no such note,
 * -EINVAL: not ELF).
 */
int filename__read_build_id(const char *path, u8 *id, size_t size);

/**
 * elf__build_id - the NT_GNU_BUILD_ID note of an open ELF file
 * @id: receives up to @size bytes of it
 * Return: the note's whole length (more than @size if it was cut), or
 * -ENOENT.
 */
int elf__build_id(Elf *elf, u8 *id, size_t size);


/**
 * vdso__read_build_id - the build-id of this process's [vdso] image (the
 * same image every process of this kernel maps).  Return: length or -errno.
 */
int vdso__read_build_id(u8 *id, size_t size);

/**
 * vdso__image - where this process's [vdso] mapping is (from /proc/self/maps)
 * @start: receives its address
 * @len: receives its length (the whole mapping, as perf copies it)
 * Return: 0, or -ENOENT when there is none, or -errno.
 */
int vdso__image(const void **start, size_t *len);

/**
 * buildid_dir__get - the build-id cache directory: the global --buildid-dir,
 * else $PERF_BUILDID_DIR, else $HOME/.debug (in @buf)
 * Return: the directory (@buf or a string that outlives the call).
 */
const char *buildid_dir__get(char *buf, size_t size);

/*
 * The DSOs samples hit, learnt from the records of a recording as they
 * are written: MMAP/MMAP2 (kernel maps too), FORK (a child sees its
 * parent's maps), COMM exec (the maps go), SAMPLE (its ip is looked up by
 * pid and cpumode).
 */
struct dso_hits;

struct dso_hits *dso_hits__new(void);
void dso_hits__delete(struct dso_hits *h);

/**
 * dso_hits__record - learn from one record of the data section
 * @h: the tracker
 * @attr: the attr of the record's event (sample_type for samples), or NULL
 * @ev: the record, @size bytes
 * Return: 0 or -ENOMEM.
 */
int dso_hits__record(struct dso_hits *h, const struct perf_event_attr *attr,
		     const union perf_event *ev, size_t size);

/** dso_hits__mark_all - count every DSO as hit (record --buildid-all) */
void dso_hits__mark_all(struct dso_hits *h);

/**
 * dso_hits__fill_env - put the build-id of every hit DSO, and of the vDSO
 * when it was mapped (hit or not, as perf), into env->build_ids (pid -1,
 * misc KERNEL or USER, as perf writes them); DSOs without a readable
 * build-id are left out.  Return: 0 or -ENOMEM.
 */
int dso_hits__fill_env(struct dso_hits *h, struct perf_env *env);

#endif
