/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replaying a perf.data: the read loop.  Records come from util/perf-data/data.c,
 * header records (pipe mode) update the session's header, samples and the
 * sample_id_all trailers are parsed with the attr their id names, and the
 * records with a time stamp are sorted by it (ordered events: flushed at
 * each FINISHED_ROUND up to the newest time of the previous round, and at
 * the end) before they reach the tool's callbacks.
 */
#ifndef TPERF_SESSION_H
#define TPERF_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/lib/debug.h"
#include "util/perf-data/data.h"
#include "util/perf-data/event.h"
#include "util/perf-data/header.h"

struct perf_session;
struct perf_tool;

/*
 * A record with its parsed sample fields (samples: the whole sample; other
 * kernel records: the sample_id_all trailer; user records: zeroes) and the
 * event it belongs to (NULL for user records, or when the id is unknown).
 */
typedef int (*perf_event_fn)(struct perf_tool *tool, struct perf_session *session,
			     const union perf_event *event, struct perf_sample *sample,
			     struct perf_header_attr *attr);

/*
 * What to do with each record type.  NULL callbacks skip the record.
 * Returning non-zero from a callback stops the session with that value.
 */
struct perf_tool {
	perf_event_fn sample;
	perf_event_fn mmap, mmap2, comm, fork, exit, lost, lost_samples, read;
	perf_event_fn throttle, unthrottle, context_switch, namespaces, cgroup;
	perf_event_fn ksymbol, bpf_event, text_poke, aux, itrace_start, aux_output_hw_id;
	perf_event_fn kernel_other;	/* any kernel record without its own callback */
	/* user records (after the session took what it needs from them) */
	perf_event_fn attr, feature, tracing_data, build_id, id_index;
	perf_event_fn finished_round, finished_init;
	perf_event_fn auxtrace_info, auxtrace, auxtrace_error;
	perf_event_fn thread_map, cpu_map, stat_config, stat, stat_round;
	perf_event_fn event_update, time_conv;
	perf_event_fn user_other;	/* any other user record (EVENT_TYPE ...) */
	bool ordered_events;		/* sort timed records by time */
	bool stop_at_finished_init;	/* pipe mode: read the header records only */
	bool skip_unknown;		/* skip unknown record types instead of failing */
	FILE *dump_fp;			/* -D: each record is dumped here in perf's -D
					 * layout (util/perf-data/event-fprintf.h) before its
					 * callback: kernel records when delivered,
					 * user records when read */
};

/* Counts for `report --stats` and the checks of the read loop. */
struct perf_session_stats {
	u64 nr_events[PERF_RECORD_TYPES];	/* by type, COMPRESSED included */
	u64 nr_unknown_type;		/* records of a type we do not know */
	u64 nr_unknown_id;		/* samples whose id names no event */
	u64 nr_unordered;		/* timed records older than the last flush */
	u64 nr_lost;			/* the sum of LOST records' counts */
	u64 total_lost_samples;		/* the sum of LOST_SAMPLES records' counts */
	u64 nr_records;			/* everything read */
	u64 total_size;			/* their bytes */
};

struct perf_session {
	struct perf_data data;
	struct perf_header *header;	/* &data.header */
	struct perf_session_stats stats;
	u64 first_time, last_time;	/* of the timed records */
	char errmsg[512];		/* why the last call failed */
	char warnmsg[512];		/* a non-fatal problem (truncated file), or "" */
	say_fn *say;			/* progress of a long read, or NULL (set by the command) */
	/* internal */
	struct ordered_events *oe;
	u64 *id_index;			/* sorted pairs (id, attr idx) */
	size_t nr_id_index;
	int id_index_attrs;		/* nr_attrs the index was built for */
	bool finished_init;
};

/**
 * perf_session__new - open @path ("-": stdin) and read its header
 * @path: a perf.data file, directory or "-"
 * @err: on failure, -errno; the message is copied to @msg (@size bytes)
 *
 * Return: the session, or NULL (see @msg).
 */
struct perf_session *perf_session__new(const char *path, int *err, char *msg, size_t size);
void perf_session__delete(struct perf_session *session);

/**
 * perf_session__process_events - read every record and call @tool
 * @session: from perf_session__new()
 * @tool: the callbacks
 *
 * Return: 0 (session->warnmsg may say the file was cut short), a
 * callback's non-zero value, or -errno with session->errmsg naming the file
 * and offset; the records before the error were delivered.
 */
int perf_session__process_events(struct perf_session *session, struct perf_tool *tool);

/**
 * perf_session__name_events - a perf_tool.feature callback: name the events
 * of a pipe-mode stream from its EVENT_DESC feature record, as perf report
 * and perf script do (perf evlist does not)
 *
 * Return: 0.
 */
int perf_session__name_events(struct perf_tool *tool, struct perf_session *session,
			      const union perf_event *event, struct perf_sample *sample,
			      struct perf_header_attr *attr);


/**
 * perf_session__lost_warnings - perf 6.1's warnings about lost data, after
 * perf_session__process_events()
 * @session: the session read
 * @lost_chunks: also "Processed N events and lost M chunks!" when the file
 *               has LOST records (perf leaves it out where the tool shows
 *               LOST records itself: script --show-lost-events)
 * @buf: the text, each warning as perf's ui__warning() prints it on stdio
 *       ("Warning:\n" first), or "" when there is nothing to say
 * @size: bytes of @buf
 *
 * The second warning, "Processed N samples and lost P%!", comes when the
 * LOST_SAMPLES records count more than 5% of the samples.
 */
void perf_session__lost_warnings(const struct perf_session *session, bool lost_chunks,
				 char *buf, size_t size);

#endif
