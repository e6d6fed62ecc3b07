/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The perf.data file format on disk: the file header, its sections and the
 * feature numbers.  Facts from Linux perf's
 * tools/perf/Documentation/perf.data-file-format.txt; the records inside the
 * data section are in util/perf-data/event.h.
 *
 *   file mode:  perf_file_header | attrs (+ ids) | data | feature table | features
 *   pipe mode:  perf_pipe_file_header | records (HEADER_ATTR, HEADER_FEATURE,
 *               FINISHED_INIT, then the kernel's records)
 */
#ifndef TPERF_PERF_DATA_H
#define TPERF_PERF_DATA_H

#include <stdint.h>

#include "util/perf-data/event.h"

/* "PERFILE2" read as a little-endian u64 */
#define PERF_MAGIC2		0x32454c4946524550ULL
/* the same bytes as seen by a reader of the other endianness */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL

struct perf_file_section {
	uint64_t offset;	/* from the start of the file */
	uint64_t size;
};

#define HEADER_FEAT_BITS	256

struct perf_file_header {
	uint64_t magic;
	uint64_t size;		/* of this header: 104 */
	uint64_t attr_size;	/* of one attrs entry: attr + ids section */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused since perf 3.x */
	uint64_t adds_features[HEADER_FEAT_BITS / 64];
};

struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;		/* 16 */
};

/* One entry of the attrs section (attr of header.attr_size - 16 bytes). */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

/* Feature bits of adds_features, also HEADER_FEATURE's feat_id. */
enum perf_header_feature {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
	HEADER_FEAT_MAX = HEADER_FEAT_BITS,
};

/* HEADER_COMPRESSED's comp_type */
enum { PERF_COMP_NONE = 0, PERF_COMP_ZSTD = 1 };

#endif
