/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The perf.data header: the events (attrs and their ids) and the feature
 * sections (host, CPU, topology, command line, build-ids ...), read from a
 * file or from a pipe's header records, and written back.  The environment
 * of the recording machine is a struct perf_env; perf_env__init_local()
 * gathers this machine's values for the writer.
 */
#ifndef TPERF_HEADER_H
#define TPERF_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/perf-data/perf-data.h"

/* One event of the file. */
struct perf_header_attr {
	struct perf_event_attr attr;	/* zero-extended from the file's size */
	u32 file_attr_size;		/* attr.size as written (0 for the oldest) */
	u64 *ids;			/* the kernel's ids of its fds */
	u32 nr_ids;
	char *name;			/* from EVENT_DESC, or NULL */
	int idx;
	int leader_idx;			/* GROUP_DESC: its group's leader (itself) */
	u32 nr_members;			/* in a leader: members, itself included */
	char *group_name;		/* a leader's group name, or NULL */
	size_t id_hdr_size;		/* sample_id_all trailer bytes */
};

struct perf_build_id_entry {
	int32_t pid;
	u16 misc;
	u8 size;			/* bytes of build_id in use */
	u8 build_id[PERF_BUILD_ID_SIZE];
	char *filename;
};

struct perf_numa_node {
	u32 node;
	u64 mem_total, mem_free;	/* kB */
	char *cpus;			/* "0-3" */
};

struct perf_cpu_topo {
	int core_id, socket_id, die_id;	/* -1: unknown/offline */
};

/* PMU_MAPPINGS: a PMU of /sys/bus/event_source/devices */
struct perf_pmu_mapping {
	u32 type;
	char *name;
};

/* CACHE: one cache (per level, type and sharing CPUs) */
struct perf_cache_level {
	u32 level, line_size, sets, ways;
	char *type, *size, *map;	/* "Data", "32K", "0-1" */
};

/* MEM_TOPOLOGY: a NUMA node's memory blocks */
struct perf_mem_node {
	u64 node;
	u64 nr_bits;			/* the highest block + 1 */
	u64 *set;			/* bit N: block N belongs to the node */
};

/* PMU_CAPS / CPU_PMU_CAPS: a PMU's caps/ files */
struct perf_pmu_caps {
	char *pmu;
	u32 nr;
	char **names, **values;
};

/* What the recording machine was (the feature sections). */
struct perf_env {
	char *hostname, *os_release, *version, *arch;
	char *cpu_desc, *cpuid;
	u32 nr_cpus_avail, nr_cpus_online;
	u64 total_mem;			/* kB */
	int nr_cmdline;
	char **cmdline;
	/* CPU_TOPOLOGY */
	u32 nr_sibling_cores, nr_sibling_threads, nr_sibling_dies;
	char **sibling_cores, **sibling_threads, **sibling_dies;
	u32 nr_cpu_topo;		/* entries in cpu_topo (nr_cpus_avail) */
	struct perf_cpu_topo *cpu_topo;
	bool has_core_ids, has_die_ids;
	/* NUMA_TOPOLOGY */
	u32 nr_numa_nodes;
	struct perf_numa_node *numa_nodes;
	u64 clockid_res_ns;		/* CLOCKID */
	bool branch_stack;		/* BRANCH_STACK (no data): recorded with -b/-j */
	/* CLOCK_DATA: the wall clock and the clockid's time read at one moment */
	bool has_clock_data;
	u32 clock_data_clockid;
	u64 clock_tod_ns, clock_clockid_ns;
	u64 first_sample_time, last_sample_time;	/* SAMPLE_TIME */
	bool has_sample_time;		/* SAMPLE_TIME even when both are 0 (a recording) */
	u32 nr_build_ids;
	struct perf_build_id_entry *build_ids;
	void *tracing_data;		/* TRACING_DATA, kept opaque */
	size_t tracing_data_size;
	u64 dir_format_version;		/* DIR_FORMAT */
	/* PMU_MAPPINGS */
	u32 nr_pmu_mappings;
	struct perf_pmu_mapping *pmu_mappings;
	/* CACHE (written with no entries when sysfs has none, as perf) */
	bool has_caches;
	u32 nr_caches;
	struct perf_cache_level *caches;
	/* MEM_TOPOLOGY (when memory_bsize is known) */
	u64 memory_bsize;
	u32 nr_mem_nodes;
	struct perf_mem_node *mem_nodes;
	/* BPF_PROG_INFO, BPF_BTF: no BPF program recorded, written empty */
	bool has_bpf_empty;
	/* PMU_CAPS (every PMU with caps but "cpu"), CPU_PMU_CAPS (the "cpu" PMU's) */
	bool has_pmu_caps;
	u32 nr_pmu_caps;
	struct perf_pmu_caps *pmu_caps;
	struct perf_pmu_caps *cpu_pmu_caps;
	u32 comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;	/* COMPRESSED */
	/*
	 * STAT (a stat record file, no bytes); perf's stat record also writes
	 * GROUP_DESC, CLOCKID, COMPRESSED and CLOCK_DATA when they are empty
	 */
	bool stat_data;
};

struct perf_header {
	bool pipe;			/* pipe mode: header records, no sections */
	u64 attr_size;			/* file mode: one attrs entry */
	struct perf_file_section data;	/* as written in the header */
	bool data_size_unknown;		/* data.size 0 in a file that was not finished */
	struct perf_file_section feat_sec[HEADER_FEAT_BITS];	/* file mode */
	u64 features[HEADER_FEAT_BITS / 64];	/* present feature sections */
	int nr_attrs;
	struct perf_header_attr *attrs;
	struct perf_env env;
	char errmsg[256];		/* why the last read failed, for the caller */
};

static inline bool perf_header__has_feat(const struct perf_header *h, int feat)
{
	return feat >= 0 && feat < HEADER_FEAT_BITS && (h->features[feat / 64] >> (feat % 64)) & 1;
}

static inline void perf_header__set_feat(struct perf_header *h, int feat)
{
	h->features[feat / 64] |= 1ULL << (feat % 64);
}

static inline void perf_header__clear_feat(struct perf_header *h, int feat)
{
	h->features[feat / 64] &= ~(1ULL << (feat % 64));
}

/* "HOSTNAME", "EVENT_DESC" ...; NULL when unknown. */
const char *perf_header__feat_name(int feat);

void perf_header__init(struct perf_header *h);
void perf_header__exit(struct perf_header *h);

/**
 * perf_header__add_attr - append an event
 * @h: the header
 * @attr: copied; @size bytes of it (zero-extended when smaller, the rest
 *        ignored when larger)
 * @ids: @nr_ids ids, copied
 *
 * Return: the new entry, or NULL on ENOMEM.
 */
struct perf_header_attr *perf_header__add_attr(struct perf_header *h, const void *attr,
					       size_t size, const u64 *ids, u32 nr_ids);

/* The event an id belongs to: the only one, or by id; NULL when unknown. */
struct perf_header_attr *perf_header__find_attr(struct perf_header *h, u64 id);

/**
 * perf_header__read_file - parse a file-mode header and its attrs + features
 * @h: initialised header
 * @buf: the whole file (mapped), @size bytes
 * @path: for messages
 *
 * Checks the magic (big-endian and PERFFILE v1 files are refused), the
 * header size and the attr size (a newer, larger perf_event_attr is refused
 * as perf 6.1 does: its layout may differ).  Feature sections that do not
 * fit in the file or do not parse are dropped with a note in pr_debug.
 * Return: 0 or -EINVAL/-ENOMEM with h->errmsg set.
 */
int perf_header__read_file(struct perf_header *h, const void *buf, size_t size,
			   const char *path);

/**
 * perf_header__check_magic - classify the first 16 bytes of a perf.data
 * @buf: at least 16 bytes, @path for the message in @h
 *
 * Return: 1 pipe mode, 0 file mode, -EINVAL (h->errmsg says why).
 */
int perf_header__check_magic(struct perf_header *h, const void *buf, const char *path);

/**
 * perf_header__process_feature - parse one feature's bytes into h->env
 * @feat: HEADER_* number; unknown ones are accepted and ignored
 * @buf: @size bytes (a file section or a HEADER_FEATURE payload)
 *
 * Return: 0 or -EINVAL when the section is malformed (h->env keeps what
 * parsed).
 */
int perf_header__process_feature(struct perf_header *h, int feat, const void *buf, size_t size);

/**
 * perf_header__process_attr_record - take a pipe-mode PERF_RECORD_HEADER_ATTR
 * Return: 0, -EINVAL (malformed) or -ENOMEM.
 */
int perf_header__process_attr_record(struct perf_header *h, const union perf_event *ev);

/**
 * perf_header__name_events - name the events from an EVENT_DESC payload,
 * also in pipe mode (perf report does, perf evlist does not)
 * @buf: the feature's bytes (a HEADER_FEATURE record's data), @size bytes
 * Return: 0 or -EINVAL.
 */
int perf_header__name_events(struct perf_header *h, const void *buf, size_t size);

/**
 * perf_header__event_name - the name report and script show for event @a
 * @h: the header (its tracing data names tracepoints)
 * @a: one of h->attrs
 * @buf: room for a generated name
 * @size: its size
 *
 * Return: the stored name (EVENT_DESC), else the tracepoint's "sys:name"
 * from the tracing data, else the name perf generates from the attr.
 */
const char *perf_header__event_name(struct perf_header *h, struct perf_header_attr *a,
				    char *buf, size_t size);

/**
 * perf_header__process_build_id_record - take a PERF_RECORD_HEADER_BUILD_ID
 * (also the entries of the BUILD_ID feature).  Return: 0 or -EINVAL/-ENOMEM.
 */
int perf_header__process_build_id_record(struct perf_header *h, const union perf_event *ev,
					 size_t size);

/* A growable byte buffer the writers fill. */
struct wbuf {
	u8 *buf;
	size_t len, cap;
	bool oom;
};

void wbuf__put(struct wbuf *b, const void *p, size_t n);
void wbuf__exit(struct wbuf *b);

/**
 * perf_header__write_feature - append the on-disk bytes of one feature from h->env
 * Return: 0, -ENOENT when h->env has nothing for it, -ENOMEM.
 */
int perf_header__write_feature(struct perf_header *h, int feat, struct wbuf *out);

/**
 * perf_header__set_features_from_env - set the feature bits h->env has data for
 */
void perf_header__set_features_from_env(struct perf_header *h);

/**
 * perf_env__init_local - this machine's values for the writer
 * @env: zeroed env
 * @argc, @argv: the command line to store as CMDLINE (may be 0, NULL)
 *
 * hostname, uname release/machine, tperf's version, CPUs (possible and
 * online), /proc/cpuinfo model name, the arch cpuid string, MemTotal, CPU
 * and NUMA topology from sysfs.  Missing pieces are left empty.
 * Return: 0 or -ENOMEM.
 */
int perf_env__init_local(struct perf_env *env, int argc, const char **argv);
void perf_pmu_caps__exit(struct perf_pmu_caps *c);

/**
 * arch_get_cpuid - the cpuid string perf writes for this CPU
 * ("GenuineIntel,6,85,4" on x86: vendor, family, model, stepping).
 * Implemented in arch/<arch>/util/header.c.  Return: 0 or -errno.
 */
int arch_get_cpuid(char *buf, size_t size);

#endif
