/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.data records: the kernel's PERF_RECORD_* (from <linux/perf_event.h>)
 * and perf's own user records (64 and up), their layouts, and the sample
 * parser: a PERF_RECORD_SAMPLE body is decoded by the sample_type,
 * read_format, branch_sample_type and register masks of its attr; every
 * other kernel record may end in a sample_id_all trailer.
 *
 * Records in memory are expected 8-byte aligned (util/perf-data/session.c and
 * util/perf-data/data.c hand out aligned copies); the parser itself never reads past
 * the size it is given.
 */
#ifndef TPERF_EVENT_H
#define TPERF_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;

/* Records perf itself writes (not from the kernel). */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,	/* obsolete */
	PERF_RECORD_HEADER_TRACING_DATA = 66,	/* the data follows the record */
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,		/* the data follows the record */
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_COMPRESSED2 = 83,	/* perf >= 6.16: u64 data_size, then the zstd bytes */
	PERF_RECORD_HEADER_MAX
};

/* Every record type number we know, kernel and user: for per-type arrays. */
#define PERF_RECORD_TYPES	PERF_RECORD_HEADER_MAX

/* misc bit of HEADER_BUILD_ID / MMAP2: the build-id size byte is valid */
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

#define PERF_BUILD_ID_SIZE	20

struct perf_record_mmap {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	char filename[];
};

struct perf_record_mmap2 {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	union {
		struct {
			u32 maj, min;
			u64 ino, ino_generation;
		};
		struct {
			u8 build_id_size, __reserved_1;
			u16 __reserved_2;
			u8 build_id[20];
		};
	};
	u32 prot, flags;
	char filename[];
};

struct perf_record_comm {
	struct perf_event_header header;
	u32 pid, tid;
	char comm[];
};

struct perf_record_fork {		/* FORK and EXIT */
	struct perf_event_header header;
	u32 pid, ppid, tid, ptid;
	u64 time;
};

struct perf_record_lost {
	struct perf_event_header header;
	u64 id, lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	u64 lost;
};

struct perf_record_throttle {
	struct perf_event_header header;
	u64 time, id, stream_id;
};

struct perf_record_switch {		/* SWITCH_CPU_WIDE; SWITCH is the header only */
	struct perf_event_header header;
	u32 next_prev_pid, next_prev_tid;
};

struct perf_record_ksymbol {
	struct perf_event_header header;
	u64 addr;
	u32 len;
	u16 ksym_type, flags;
	char name[];
};

struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;	/* attr.size bytes, then u64 ids to the end */
};

/* 12 bytes: perf writes header.size 12, and the data follows at once */
struct perf_record_header_tracing_data {
	struct perf_event_header header;
	u32 size;			/* bytes of tracing data after the record */
};

struct perf_record_header_build_id {
	struct perf_event_header header;
	int32_t pid;
	union {
		u8 build_id[24];
		struct {
			u8 data[20];
			u8 size;
			u8 reserved[3];
		};
	};
	char filename[];
};

struct perf_record_id_index_entry {
	u64 id, idx, cpu, tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	u64 nr;
	struct perf_record_id_index_entry entries[];
};

struct perf_record_auxtrace {
	struct perf_event_header header;
	u64 size;			/* bytes of AUX data after the record */
	u64 offset, reference;
	u32 idx, tid, cpu, reserved;
};

struct perf_record_stat_round {
	struct perf_event_header header;
	u64 type, time;
};

struct perf_record_stat {
	struct perf_event_header header;
	u64 id;
	u32 cpu, thread;
	u64 val, ena, run;
};

struct perf_record_time_conv {
	struct perf_event_header header;
	u64 time_shift, time_mult, time_zero;
	u64 time_cycles, time_mask;	/* when header.size allows */
	u8 cap_user_time_zero, cap_user_time_short, reserved[6];
};

struct perf_record_header_feature {
	struct perf_event_header header;
	u64 feat_id;
	char data[];
};

struct perf_record_compressed {
	struct perf_event_header header;
	char data[];
};

union perf_event {
	struct perf_event_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_throttle throttle;
	struct perf_record_switch context_switch;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_header_attr attr;
	struct perf_record_header_tracing_data tracing_data;
	struct perf_record_header_build_id build_id;
	struct perf_record_id_index id_index;
	struct perf_record_auxtrace auxtrace;
	struct perf_record_stat stat;
	struct perf_record_stat_round stat_round;
	struct perf_record_time_conv time_conv;
	struct perf_record_header_feature feat;
	struct perf_record_compressed pack;
};

/* "SAMPLE", "MMAP2", "FINISHED_ROUND" ...; NULL for an unknown type. */
const char *perf_event__name(unsigned int type);

/* One branch_stack entry: from, to, then the flag bits. */
struct perf_branch_entry_raw {
	u64 from, to, flags;
};

/*
 * A parsed sample (or the sample_id_all trailer of another record).  Fields
 * whose PERF_SAMPLE_* bit is not in @type are zero.  Pointers point into
 * the record that was parsed and live as long as it does.
 */
struct perf_sample {
	u64 type;		/* the sample_type it was parsed with */
	u16 misc;
	u64 id, ip, time, addr, stream_id, period;
	u32 pid, tid, cpu, cpu_res;
	struct {		/* PERF_SAMPLE_READ */
		u64 time_enabled, time_running;
		u64 nr;		/* entries (1 when not a group) */
		const u64 *values;	/* group: nr x { value, [id], [lost] }; else NULL */
		unsigned int entry_u64s;	/* u64s per entry */
		u64 value, id, lost;	/* the first entry, decoded */
	} read;
	u64 callchain_nr;
	const u64 *callchain;
	u32 raw_size;
	const void *raw_data;
	u64 branch_nr;
	bool branch_has_hw_idx;
	u64 branch_hw_idx;
	const struct perf_branch_entry_raw *branch_entries;
	struct {
		u64 abi, mask;	/* abi 0 (PERF_SAMPLE_REGS_ABI_NONE): no regs */
		unsigned int nr;
		const u64 *regs;
	} user_regs, intr_regs;
	struct {
		u64 size, dyn_size;
		const void *data;
	} user_stack;
	u64 weight;		/* WEIGHT, or WEIGHT_STRUCT's var1_dw */
	u16 ins_lat, p_stage_cyc;	/* WEIGHT_STRUCT var2_w, var3_w */
	u64 data_src, transaction, phys_addr, cgroup;
	u64 data_page_size, code_page_size;
	struct {
		u64 size;
		const void *data;
	} aux;
};

/**
 * perf_sample__parse - decode the body of a PERF_RECORD_SAMPLE
 * @attr: the attr of the event that wrote it (sample_type, read_format,
 *        branch_sample_type, sample_regs_user, sample_regs_intr are used)
 * @rec: the whole record, header included, 8-byte aligned
 * @size: its size in bytes (normally header.size)
 * @out: filled field by field in the kernel's order
 *
 * Return: 0, or -EINVAL when a field would run past @size or a count is
 * impossible (corrupted input).
 */
int perf_sample__parse(const struct perf_event_attr *attr, const void *rec,
		       size_t size, struct perf_sample *out);

/**
 * perf_sample__parse_id - decode the sample_id_all trailer of a non-sample record
 * @attr: the attr the record belongs to (must have sample_id_all)
 * @rec: the whole record, @size its size
 * @out: pid/tid, time, id, stream_id, cpu as present
 *
 * Return: 0 (also when @attr has no sample_id_all: nothing is filled) or
 * -EINVAL when the trailer does not fit.
 */
int perf_sample__parse_id(const struct perf_event_attr *attr, const void *rec,
			  size_t size, struct perf_sample *out);

/**
 * perf_event__parse_sample - perf_sample__parse() or perf_sample__parse_id()
 * by the record's type (user records, 64 and up, have no sample fields).
 */
int perf_event__parse_sample(const struct perf_event_attr *attr, const union perf_event *ev,
			     size_t size, struct perf_sample *out);

/**
 * perf_event__time - the time stamp of a kernel record, without parsing it all
 * @attr: its event; @ev, @size: the record
 * @time: set when found
 *
 * Return: 0, -ENOENT when the record carries no time (no PERF_SAMPLE_TIME,
 * or no sample_id_all for a non-sample), -EINVAL when it would be past @size.
 */
int perf_event__time(const struct perf_event_attr *attr, const union perf_event *ev,
		     size_t size, u64 *time);

/* Bytes of the sample_id_all trailer for @attr (0 without sample_id_all). */
size_t perf_sample__id_hdr_size(const struct perf_event_attr *attr);

/*
 * Position of the event id in u64 words: for samples counted from the
 * start of the body, for other records counted back from the end (1 is the
 * last word).  -1 when the sample_type has neither ID nor IDENTIFIER.
 */
int perf_sample__id_pos(u64 sample_type);
int perf_sample__is_pos(u64 sample_type);

/**
 * perf_sample__size - bytes of the PERF_RECORD_SAMPLE perf_sample__synthesize() writes
 * @attr: the format
 * @s: the values (callchain_nr, raw_size, branch_nr, regs, stack, aux sizes)
 */
size_t perf_sample__size(const struct perf_event_attr *attr, const struct perf_sample *s);

/**
 * perf_sample__synthesize - write @s as a whole PERF_RECORD_SAMPLE into @buf
 * @attr: the format (as perf_sample__parse() reads it)
 * @s: the values; arrays are copied from its pointers
 * @buf: 8-byte aligned, @size bytes
 *
 * The inverse of perf_sample__parse().  Return: the record size, or
 * -ENOSPC when @buf is too small, -EINVAL when the record would exceed the
 * 64 KiB a header can describe.
 */
int perf_sample__synthesize(const struct perf_event_attr *attr, const struct perf_sample *s,
			    void *buf, size_t size);

/**
 * perf_sample__synthesize_id - write the sample_id_all trailer of @s at @buf
 * (perf_sample__id_hdr_size() bytes).  Return: the bytes written.
 */
size_t perf_sample__synthesize_id(const struct perf_event_attr *attr,
				  const struct perf_sample *s, void *buf);

#endif
