// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report pipeline: a sample into the hists (see report-pipeline.h).
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/batch-pipe.h"
#include "util/lib/debug.h"
#include "util/perf-data/session.h"
#include "util/report/report-pipeline.h"
#include "util/symbol/srcline.h"
#include "util/unwind/unwind.h"

static int frames_reserve(struct report_pipeline *r, size_t n)
{
	struct cc_frame *f;
	char *l;

	if (n <= r->frames_alloc)
		return 0;
	f = realloc(r->frames, n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	r->frames = f;
	l = realloc(r->levels, n);
	if (!l)
		return -ENOMEM;
	r->levels = l;
	r->frames_alloc = n;
	return 0;
}

/* DWARF samples: the user frames unwound from the stack copy, after the kernel's. */
static int append_unwound(struct report_pipeline *r, struct thread *t, const struct perf_event_attr *attr,
			  const struct perf_sample *s, size_t *nr)
{
	const struct unwind_entry *e;
	size_t n;

	if (!unwinder__has_stack(attr))
		return 0;
	if (machine__unwind(&r->machine, t, attr, s, r->cc.max_stack, &e, &n) ||
	    frames_reserve(r, *nr + n + 1))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++, (*nr)++) {
		r->frames[*nr] = (struct cc_frame){
			.dso = e[i].map ? e[i].map->dso : NULL, .sym = e[i].sym, .ip = e[i].ip,
			.addr = e[i].map ? map__map_ip(e[i].map, e[i].ip) : e[i].ip,
			.inl = e[i].inl, .map = e[i].map, .maps = e[i].map ? t->maps : NULL };
		r->levels[*nr] = e[i].map ? '.' : 0;
	}
	return 0;
}

/*
 * The sample's callchain, resolved, callee first; markers set the cpumode.
 * As perf's thread__resolve_callchain(), --max-stack caps the sample's own
 * chain (its addresses, not the markers) from where the order starts --
 * the callee end, or the caller end for caller order -- and, on its own,
 * the user frames unwound from a DWARF stack copy: a deep user stack keeps
 * its frames after the kernel's.
 */
static int resolve_callchain(struct report_pipeline *r, struct thread *t, const struct perf_sample *s,
			     const struct perf_event_attr *attr, size_t *nr)
{
	u8 cpumode = PERF_RECORD_MISC_USER;
	size_t n = 0, max = r->cc.max_stack > 0 ? (size_t)r->cc.max_stack : 0;

	*nr = 0;
	if (!max)
		return 0;	/* perf: no frames at all */
	if (frames_reserve(r, s->callchain_nr + 1))
		return -ENOMEM;
	for (u64 i = 0; i < s->callchain_nr; i++) {
		u64 ip = s->callchain[i];
		struct addr_location al;

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			case PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				cpumode = PERF_RECORD_MISC_USER;
				break;
			case PERF_CONTEXT_GUEST_KERNEL:
				cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
				break;
			case PERF_CONTEXT_GUEST_USER:
				cpumode = PERF_RECORD_MISC_GUEST_USER;
				break;
			default:
				return 0;	/* corrupted: perf drops the chain */
			}
			continue;
		}
		machine__resolve_addr(&r->machine, t, cpumode, ip, &al);
		r->frames[n] = (struct cc_frame){ .dso = al.map ? al.map->dso : NULL, .sym = al.sym,
						  .ip = ip, .addr = al.addr, .map = al.map,
						  .maps = al.maps };
		r->levels[n] = al.map ? al.level : 0;
		n++;
	}
	if (n > max && r->cc.order == ORDER_CALLER) {	/* the outermost max */
		memmove(r->frames, r->frames + (n - max), max * sizeof(*r->frames));
		memmove(r->levels, r->levels + (n - max), max);
	}
	*nr = n < max ? n : max;
	return append_unwound(r, t, attr, s, nr);
}

/* Callee or caller order (the callchain is cut to --max-stack already). */
static void order_frames(struct report_pipeline *r, size_t n)
{
	if (r->cc.order != ORDER_CALLER)
		return;
	for (size_t i = 0; i < n / 2; i++) {
		struct cc_frame f = r->frames[i];
		char l = r->levels[i];

		r->frames[i] = r->frames[n - 1 - i];
		r->frames[n - 1 - i] = f;
		r->levels[i] = r->levels[n - 1 - i];
		r->levels[n - 1 - i] = l;
	}
}

/* -U: the frames without a symbol go (after --max-stack counted them, as in perf) */
static size_t drop_unresolved(struct report_pipeline *r, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!r->frames[i].sym)
			continue;
		r->frames[k] = r->frames[i];
		r->levels[k++] = r->levels[i];
	}
	return k;
}

/* The srcline keys of a callchain frame's entry (--children). */
static void frame_keys(const struct report_pipeline *r, struct hist_entry *tmpl, const struct cc_frame *f)
{
	if (r->need_srcline)
		tmpl->srcline = f->dso ? dso__srcline(f->dso, f->addr, f->sym) : SRCLINE_UNKNOWN;
	if (r->need_srcfile)
		tmpl->srcfile = f->dso ? dso__srcfile(f->dso, f->addr) : "";
}

/* An append of a sample's chain to entry @e's callchain: its frames from @off on. */
struct chain_add {
	struct hist_entry *e;
	u32 off;
};

/* The appends of one sample, for the chains' thread: adds[nr_adds], then frames[n]. */
struct chain_item {
	u64 period;
	u32 n, nr_adds;
	struct chain_add adds[];
};

/* Where a sample's appends go: made at once (@adds NULL), or gathered. */
struct chain_sink {
	struct chain_add *adds;
	size_t nr;
	const struct cc_kept *kept;	/* made at once: the sample's last kept frame */
};

/*
 * Append the @n @frames from @off on to @e's callchain; kept where it can
 * be (cc_node__keep()), from *@kept, which the first one makes.
 */
static int append_chain(struct report_pipeline *r, struct hist_entry *e, const struct cc_frame *frames,
			size_t off, size_t n, u64 period, const struct cc_kept **kept)
{
	if (off < n && cc_node__can_keep(&e->callchain)) {
		if (!*kept && !(*kept = cc_keeper__frames(&r->keeper, frames, n, period)))
			return -ENOMEM;
		cc_node__keep(&e->callchain, *kept, off);
		return 0;
	}
	return cc_node__append(&e->callchain, frames + off, n - off, period,
			       callchain_param__key(&r->cc));
}

static int chain_append(struct report_pipeline *r, struct chain_sink *k, struct hist_entry *e,
			const struct cc_frame *frames, size_t off, size_t n, u64 period)
{
	if (!k->adds)
		return append_chain(r, e, frames, off, n, period, &k->kept);
	k->adds[k->nr++] = (struct chain_add){ .e = e, .off = off };
	return 0;
}

/* Hand the gathered appends of a sample with @n @frames to the chains' thread. */
static int chain_flush(const struct report_pipeline *r, const struct chain_sink *k,
		       const struct cc_frame *frames, size_t n, u64 period)
{
	struct chain_item *it;

	if (!k->nr)
		return 0;
	it = batch_pipe__reserve(r->cc_pipe, sizeof(*it) + k->nr * sizeof(*k->adds) +
					     n * sizeof(*frames));
	if (!it)
		return -ENOMEM;
	it->period = period;
	it->n = n;
	it->nr_adds = k->nr;
	memcpy(it->adds, k->adds, k->nr * sizeof(*k->adds));
	memcpy(it->adds + k->nr, frames, n * sizeof(*frames));
	batch_pipe__commit(r->cc_pipe);
	return 0;
}

static int consume_chains(void *arg, void *rec)
{
	struct report_pipeline *r = arg;
	const struct chain_item *it = rec;
	const struct cc_frame *frames = (const struct cc_frame *)(it->adds + it->nr_adds);
	const struct cc_kept *kept = NULL;

	for (u32 i = 0; i < it->nr_adds; i++)
		if (append_chain(r, it->adds[i].e, frames, it->adds[i].off, it->n, it->period,
				 &kept))
			return -ENOMEM;
	return 0;
}

static int add_children(struct report_pipeline *r, struct hists *h, const struct hist_entry *self_tmpl,
			struct hist_entry *self, u64 period, const struct cc_frame *frames,
			const char *levels, size_t n, struct chain_sink *sink)
{
	struct hist_entry *buf[64], **seen = n < 64 ? buf : malloc((n + 1) * sizeof(*seen));
	struct hist_entry tmpl;
	char level = self_tmpl->level;
	size_t nseen = 0;
	int err = 0;

	if (!seen)
		return -ENOMEM;
	seen[nseen++] = self;
	tmpl = *self_tmpl;	/* the frames' keys replace its own below */
	for (size_t i = 0; i < n && !err; i++) {
		struct hist_entry *e;
		bool dup = false;

		tmpl.dyn_compared = self_tmpl->dyn_compared;	/* perf's widths: per lookup */
		tmpl.dso = frames[i].dso;
		tmpl.map = frames[i].map;
		tmpl.maps = frames[i].maps;
		tmpl.sym = frames[i].sym;
		tmpl.ip = frames[i].ip;
		if (levels[i])
			level = levels[i];	/* frames without a map keep the last one */
		tmpl.level = level;
		frame_keys(r, &tmpl, &frames[i]);
		hist_entry__template_keys(&tmpl);
		/*
		 * An entry is credited once per sample, however many frames map
		 * to it.  As perf, the frame is compared with the entries this
		 * sample already credited before the tree is searched: with
		 * inline frames the tree's order is partial, and its walk can
		 * miss one of them and make a second entry.
		 */
		if (hists__same_any(h, &tmpl, seen, nseen))
			continue;
		e = hists__findnew(h, &tmpl);
		if (!e) {
			err = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < nseen && !dup; k++)
			dup = seen[k] == e;
		if (dup)
			continue;
		seen[nseen++] = e;
		e->period_acc += period;
		e->nr_acc++;
		if (h->has_callchain) {
			err = chain_append(r, sink, e, frames, i, n, period);
			if (n - i > e->max_depth)
				e->max_depth = n - i;
		}
	}
	if (seen != buf)
		free(seen);
	return err;
}

/* The first frame whose symbol matches the --parent pattern (perf's parent). */
static struct symbol *find_parent(struct report_pipeline *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r->frames[i].sym && !regexec(&r->parent_re, r->frames[i].sym->name, 0, NULL, 0))
			return r->frames[i].sym;
	return NULL;
}

/* The socket of @cpu in the recording machine's topology (-1: unknown). */
static int socket_of(struct report_pipeline *r, u32 cpu)
{
	const struct perf_env *env = &r->session->header->env;

	if (cpu == (u32)-1 || cpu >= env->nr_cpu_topo || !env->cpu_topo)
		return -1;
	return env->cpu_topo[cpu].socket_id;
}

/* The keys beyond comm/dso/sym/cpu that the sort order needs. */
static void sample_keys(struct report_pipeline *r, struct hist_entry *tmpl, const struct perf_sample *s,
			size_t n)
{
	tmpl->socket = socket_of(r, s->cpu);
	tmpl->weight = s->weight;
	if (r->need_parent)
		tmpl->parent = find_parent(r, n);
	if (r->need_srcline)
		tmpl->srcline = tmpl->dso ? dso__srcline(tmpl->dso, tmpl->ip, tmpl->sym)
					  : SRCLINE_UNKNOWN;
	if (r->need_srcfile)
		tmpl->srcfile = tmpl->dso ? dso__srcfile(tmpl->dso, tmpl->ip) : "";
}

/* Self period by cpumode, for the overhead_sys/us columns. */
static void add_cpumode_period(struct hist_entry *e, u16 misc, u64 period)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		e->period_sys += period;
		break;
	case PERF_RECORD_MISC_USER:
		e->period_us += period;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		e->period_guest_sys += period;
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		e->period_guest_us += period;
		break;
	default:
		break;
	}
}

static bool cpu_listed(const struct sample_filter *f, u32 cpu)
{
	const unsigned int bits = 8 * sizeof(unsigned long);

	return cpu < SAMPLE_FILTER_MAX_CPUS && (f->cpus[cpu / bits] & (1UL << (cpu % bits)));
}

/* --time and --cpu drop a sample: it counts nowhere. */
static bool sample_dropped(struct report_pipeline *r, const struct perf_sample *s)
{
	if (!r->filter_set)
		return false;
	return !sample_filter__match_time(&r->filter, s->time) ||
	       (r->filter.cpus && !cpu_listed(&r->filter, s->cpu));
}

/*
 * --comm, --pid, --tid, --dso, --symbols hide a sample: it counts in the
 * totals (perf's percentages stay those of the whole file) but makes no
 * entry, nor do its callchain's entries.
 */
static bool sample_hidden(struct report_pipeline *r, const struct perf_sample *s, struct thread *t,
			  const struct addr_location *al)
{
	if (!r->filter_set)
		return false;
	if (!sample_filter__match(&r->filter, s, t->comm ? t->comm->str : NULL))
		return true;
	if (!sample_filter__match_dso(&r->filter, al->map ? al->map->dso->long_name : NULL))
		return true;
	return !sample_filter__match_sym(&r->filter, al->sym ? al->sym->name : NULL,
					 al->sym ? al->sym->start : 0);
}

/* A sample on its way to the hists: what process_sample() resolved. */
struct hist_item {
	struct hist_entry tmpl;		/* the keys */
	u64 period;
	int idx;			/* of the event's hists */
	u16 misc;
	u32 n;				/* callchain frames, then as many levels */
	struct cc_frame frames[];
};

/*
 * Add a resolved sample to the hists (on the pipe's thread when there is
 * one); its callchain is @frames with their @levels.
 */
static int hists_add(struct report_pipeline *r, const struct hist_item *it,
		     const struct cc_frame *frames, const char *levels)
{
	struct hists *h = &r->hists[it->idx];
	const struct hist_entry *tmpl = &it->tmpl;
	u64 period = it->period;
	struct chain_add buf[64];
	struct chain_sink sink = { NULL, 0, NULL };
	struct hist_entry *e;
	int err = 0;

	h->nr_samples++;
	/*
	 * A sample a filter hides still goes to its entry, as in perf: an
	 * entry it makes is hidden (the template's flag, copied only then),
	 * and it adds to a shown one with its keys (a thread --tid hides
	 * sharing comm, DSO and symbol with one it shows); a shown sample
	 * adds to a hidden entry.
	 */
	e = hists__findnew(h, tmpl);
	if (!e)
		return -ENOMEM;
	if (e->hidden) {
		h->hidden_period += period;
		h->hidden_samples++;
	}
	add_cpumode_period(e, it->misc, period);
	e->period += period;
	e->nr_samples++;
	if (h->children) {
		e->period_acc += period;
		e->nr_acc++;
	}
	if (h->has_callchain && r->cc_pipe)	/* one for the entry, one per frame at most */
		sink.adds = it->n < 64 ? buf : malloc((it->n + 1) * sizeof(*sink.adds));
	if (h->has_callchain && r->cc_pipe && !sink.adds)
		return -ENOMEM;
	if (h->has_callchain && chain_append(r, &sink, e, frames, 0, it->n, period))
		err = -ENOMEM;
	if (h->has_callchain && it->n > e->max_depth)
		e->max_depth = it->n;
	if (!err && h->children && add_children(r, h, tmpl, e, period, frames, levels, it->n,
						&sink))
		err = -ENOMEM;
	if (!err && sink.adds)
		err = chain_flush(r, &sink, frames, it->n, period);
	if (sink.adds != buf)
		free(sink.adds);
	return err;
}

static int consume_item(void *arg, void *rec)
{
	const struct hist_item *it = rec;

	return hists_add(arg, it, it->frames, (const char *)(it->frames + it->n));
}

/*
 * Building the hists takes a quarter of a DWARF report: with a second CPU
 * it runs there, while this thread reads and unwinds the next samples.
 * Not with srcline keys (also of callchain frames): their lookups share the
 * DSOs' caches.
 */
void report_pipeline__start(struct report_pipeline *r)
{
	if (r->pipe_tried)
		return;
	r->pipe_tried = true;
	if (batch_pipe__usable_cpus() > 1 && !r->need_srcline && !r->need_srcfile &&
	    callchain_param__key(&r->cc) != CCKEY_SRCLINE)
		r->pipe = batch_pipe__start(consume_item, r);
	if (r->pipe)
		pr_debug("report: the hists are built on a second thread\n");
	for (int i = 0; r->pipe && i < r->nr_hists && !r->cc_pipe; i++)
		if (r->hists[i].has_callchain)
			r->cc_pipe = batch_pipe__start(consume_chains, r);
	if (r->cc_pipe)
		pr_debug("report: their callchains are built on a third\n");
}

/* Wait for the pipe *@p (if any) to be consumed and stop it; its error to *@err if none yet. */
static void finish_pipe(struct batch_pipe **p, int *err)
{
	int perr;

	if (!*p)
		return;
	perr = batch_pipe__finish(*p);
	*p = NULL;
	if (!*err)
		*err = perr;
}

/* Send the sample to the hists (@n frames in r->frames). */
static int queue_sample(struct report_pipeline *r, const struct hist_entry *tmpl, int idx, u64 period,
			u16 misc, size_t n)
{
	struct hist_item head = { .tmpl = *tmpl, .period = period, .idx = idx, .misc = misc,
				  .n = n }, *it;

	if (!r->pipe)
		return hists_add(r, &head, r->frames, r->levels);
	it = batch_pipe__reserve(r->pipe, sizeof(*it) + n * (sizeof(struct cc_frame) + 1));
	if (!it)
		return -ENOMEM;
	*it = head;
	if (n) {
		memcpy(it->frames, r->frames, n * sizeof(*r->frames));
		memcpy(it->frames + n, r->levels, n);
	}
	batch_pipe__commit(r->pipe);
	return 0;
}

int report_pipeline__add_sample(struct report_pipeline *r, struct perf_sample *sample,
				struct perf_header_attr *attr)
{
	struct hist_entry tmpl = { 0 };
	struct addr_location al;
	struct thread *t;
	u64 period;
	size_t n = 0;

	if (!attr || attr->idx < 0 || attr->idx >= r->nr_hists)
		return 0;
	period = (attr->attr.sample_type & PERF_SAMPLE_PERIOD) ? sample->period
							       : attr->attr.sample_period;
	if (sample_dropped(r, sample))
		return 0;
	t = machine__findnew_thread(&r->machine, sample->pid, sample->tid);
	if (!t)
		return -ENOMEM;
	machine__resolve_addr(&r->machine, t, sample->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			      sample->ip, &al);
	if (r->hide_unresolved && !al.sym)	/* -U: as if never sampled */
		return 0;
	tmpl.hidden = sample_hidden(r, sample, t, &al);
	if ((r->hists[attr->idx].has_callchain || r->hists[attr->idx].children || r->need_parent) &&
	    (attr->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		if (resolve_callchain(r, t, sample, &attr->attr, &n))
			return -ENOMEM;
		order_frames(r, n);
		if (r->hide_unresolved)
			n = drop_unresolved(r, n);
	}
	tmpl.comm = t->comm;
	tmpl.thread = t;
	tmpl.dso = al.map ? al.map->dso : NULL;
	tmpl.map = al.map;
	tmpl.maps = al.maps;
	tmpl.sym = al.sym;
	tmpl.ip = al.addr;
	tmpl.level = al.level;
	tmpl.cpu = sample->cpu;
	if (r->sample_hook) {
		int ret = r->sample_hook(r->hook_arg, attr->idx, &tmpl, period);

		if (ret)
			return ret < 0 ? ret : 0;
	}
	sample_keys(r, &tmpl, sample, n);
	hist_entry__template_keys(&tmpl);
	if (r->trace_keys.nr && sort_trace__fill(&r->trace_keys, &r->machine, &attr->attr, sample, &tmpl))
		return -ENOMEM;
	return queue_sample(r, &tmpl, attr->idx, period, sample->misc, n);
}


void report_pipeline__finish(struct report_pipeline *r, int *err)
{
	finish_pipe(&r->pipe, err);
	finish_pipe(&r->cc_pipe, err);	/* after the hists' thread: it fed this one */
}

void report_pipeline__exit(struct report_pipeline *r)
{
	cc_keeper__exit(&r->keeper);
	free(r->frames);
	free(r->levels);
	r->frames = NULL;
	r->levels = NULL;
	r->frames_alloc = 0;
}
