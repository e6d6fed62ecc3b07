/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a sample to the histograms: the report pipeline.  A sample's thread
 * and address are resolved in the machine, its callchain (frame pointers
 * or DWARF, unwound from the stack copy) ordered and keyed, the filters
 * applied, and the entry with its callchain and --children entries added
 * to the hists of its event.  With a second CPU the hists are built on a
 * thread of their own (and the callchains on a third) while the caller
 * reads and unwinds the next samples (util/lib/batch-pipe).
 *
 * The command fills the settings (the machine, one hists per attr, the
 * callchain parameters, the filters and key needs), then calls
 * report_pipeline__start() once the hists are set up,
 * report_pipeline__add_sample() for each sample and
 * report_pipeline__finish() at the end; report_pipeline__exit() frees.
 * report is its user today; script's and the coming commands' (c2c, mem,
 * diff) share the same machine set-up and hists.
 */
#ifndef TPERF_REPORT_PIPELINE_H
#define TPERF_REPORT_PIPELINE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/model/machine.h"
#include "util/report/callchain.h"
#include "util/report/hist.h"
#include "util/report/sample-filter.h"
#include "util/report/sort-trace.h"

struct batch_pipe;
struct perf_session;
struct perf_header_attr;
struct perf_sample;

struct report_pipeline {
	/* settings, from the command */
	struct machine machine;
	struct perf_session *session;	/* the file: its header's env (--sort socket) */
	struct hists *hists;		/* one per attr */
	int nr_hists;
	struct callchain_param cc;
	struct sample_filter filter;	/* --comms, --pid, --cpu, --time ... */
	bool filter_set;
	regex_t parent_re;		/* -p, when need_parent */
	bool need_parent, need_srcline, need_srcfile;
	bool hide_unresolved;		/* -U */
	struct sort_trace trace_keys;	/* --sort trace, --sort [sys:event.]field */
	/*
	 * Called with each resolved sample before it goes to the hists (on
	 * the reading thread), with its event (the attr's idx) and its
	 * template (dso, sym, ip set): 0 adds it, 1 drops it (no hists see
	 * it), <0 is an error.  annotate keeps its per-address counts this
	 * way.  NULL: every sample is added.
	 */
	int (*sample_hook)(void *arg, int idx, const struct hist_entry *tmpl, u64 period);
	void *hook_arg;
	/* internal */
	struct cc_frame *frames;	/* the sample's callchain, and each frame's level */
	char *levels;
	size_t frames_alloc;
	struct batch_pipe *pipe;	/* to the thread that adds to the hists */
	struct batch_pipe *cc_pipe;	/* from it to the one that appends the chains */
	struct cc_keeper keeper;	/* the frames of kept chains (cc_node__keep()) */
	bool pipe_tried;
};

/* Start the hists' threads where they pay (once; the hists are set up). */
void report_pipeline__start(struct report_pipeline *r);
/* One sample of the event @attr (attr->idx: its hists).  0 or -ENOMEM. */
int report_pipeline__add_sample(struct report_pipeline *r, struct perf_sample *sample,
				struct perf_header_attr *attr);
/* Wait until every sample is in the hists; their threads' error to *@err if none yet. */
void report_pipeline__finish(struct report_pipeline *r, int *err);
/* Free what the pipeline allocated (not the settings). */
void report_pipeline__exit(struct report_pipeline *r);

#endif
