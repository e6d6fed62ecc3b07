// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `data convert --to-ctf`: a perf.data as a CTF 1.8 trace, written with
 * libbabeltrace-ctf's writer (the library made for it, which perf uses
 * too).  The trace has perf 6.1's shape, so that babeltrace shows the
 * same events, fields and times for both tools' conversions:
 *
 *   - one clock "perf_clock" at 1 GHz, offset 0 (with --tod: the wall
 *     clock's offset from CLOCK_DATA, described by the clock's name);
 *   - environment host, sysname, release, version, machine, domain,
 *     tracer_name;
 *   - one stream class with cpu_id in the packet context, one stream per
 *     CPU (events of samples without a CPU, and side-band records, go to
 *     CPU 0's);
 *   - one event class per event, named as perf names it, with the fields
 *     the sample type gives (perf_ip, perf_tid, perf_pid, perf_id,
 *     perf_stream_id, perf_period, perf_weight, perf_data_src,
 *     perf_transaction, perf_callchain_size and perf_callchain), then a
 *     tracepoint's common and own fields by name (a CTF keyword gets a
 *     '_' first, a repeated name "_dupl_N" after), and a BPF output's
 *     raw_len/raw_data;
 *   - with --all, perf_comm, perf_exit, perf_fork, perf_mmap, perf_mmap2.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/convert/convert.h"
#include "util/perf-data/session.h"
#include "util/trace/trace-event.h"
#include "util/trace/tracing-data.h"

#ifndef HAVE_LIBBABELTRACE

bool convert_ctf__available(void)
{
	return false;
}

int convert_ctf__write(const char *dir, const struct convert_ctf_opts *o, struct perf_session *s,
		       struct convert_stats *st, char *msg, size_t size)
{
	snprintf(msg, size, "tperf was built without libbabeltrace-ctf");
	return -ENOTSUP;
}

#else

#include <babeltrace/ctf-ir/utils.h>
#include <babeltrace/ctf-writer/clock.h>
#include <babeltrace/ctf-writer/event-fields.h>
#include <babeltrace/ctf-writer/event-types.h>
#include <babeltrace/ctf-writer/event.h>
#include <babeltrace/ctf-writer/stream-class.h>
#include <babeltrace/ctf-writer/stream.h>
#include <babeltrace/ctf-writer/writer.h>

bool convert_ctf__available(void)
{
	return true;
}

/*
 * When a stream's packet goes out: libbabeltrace-ctf keeps a packet's
 * events in memory until then (perf's 100,000 events took 250 MB on a
 * callchain profile, most of its time in malloc and page faults) and maps
 * the file for each packet, whose size it doubles from 32 KB until the
 * events fit.  So a packet closes before its estimated size passes 60 KB:
 * packets of 64 KB, hardly any padding, a few MB of memory.
 */
#define CTF_PACKET_BYTES (60 << 10)

/* The integer and string types every class shares. */
enum ctf_type { T_S64, T_U64, T_S32, T_U32, T_U32_HEX, T_U64_HEX, T_STRING, T_NR };

/* One tracepoint field: where it is and how it goes out. */
struct ctf_tp_field {
	struct tep_format_field *f;
	char *name;			/* the CTF name */
	enum ctf_type type;
	unsigned int n;			/* array elements, 0: not an array */
};

struct ctf_class {
	struct bt_ctf_event_class *cls;
	u64 sample_type;
	bool bpf_output;
	const char *name;		/* the event's name */
	struct ctf_tp_field *tp;	/* tracepoint fields, or NULL */
	int nr_tp;
};

struct ctf_stream {
	struct bt_ctf_stream *stream;
	u32 count;			/* events in the open packet */
	size_t bytes;			/* their estimated size in the packet */
};

struct ctf {
	struct perf_tool tool;
	const struct convert_ctf_opts *o;
	struct convert_stats *st;
	struct bt_ctf_writer *writer;
	struct bt_ctf_clock *clock;
	struct bt_ctf_stream_class *sc;
	struct bt_ctf_field_type *t[T_NR];
	struct ctf_class *classes;	/* one per attr */
	int nr_classes;
	struct bt_ctf_event_class *comm, *exit, *fork, *mmap, *mmap2;
	struct ctf_stream *streams;	/* per CPU */
	int nr_streams;
	struct trace_event tev;
	struct trace_seq seq;
	bool tev_loaded;
	char *msg;
	size_t size;
	char *strbuf;			/* string_value()'s escaped copy */
	size_t strbuf_size;
};

static int ctf_fail(struct ctf *c, int err, const char *what)
{
	if (!c->msg[0])
		snprintf(c->msg, c->size, "%s", what);
	return err;
}

/* --- types ------------------------------------------------------------- */

static struct bt_ctf_field_type *int_type(int bits, bool sign, bool hex)
{
	struct bt_ctf_field_type *t = bt_ctf_field_type_integer_create(bits);

	if (!t)
		return NULL;
	if ((sign && bt_ctf_field_type_integer_set_signed(t, 1)) ||
	    (hex && bt_ctf_field_type_integer_set_base(t, BT_CTF_INTEGER_BASE_HEXADECIMAL)) ||
	    bt_ctf_field_type_set_byte_order(t, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
					     BT_CTF_BYTE_ORDER_BIG_ENDIAN :
					     BT_CTF_BYTE_ORDER_LITTLE_ENDIAN)) {
		bt_ctf_field_type_put(t);
		return NULL;
	}
	return t;
}

static int make_types(struct ctf *c)
{
	c->t[T_S64] = int_type(64, true, false);
	c->t[T_U64] = int_type(64, false, false);
	c->t[T_S32] = int_type(32, true, false);
	c->t[T_U32] = int_type(32, false, false);
	c->t[T_U32_HEX] = int_type(32, false, true);
	c->t[T_U64_HEX] = int_type(64, false, true);
	c->t[T_STRING] = bt_ctf_field_type_string_create();
	for (int i = 0; i < T_NR; i++)
		if (!c->t[i])
			return -ENOMEM;
	return 0;
}

/* The type perf gives a tracepoint field. */
static enum ctf_type tp_type(const struct tep_format_field *f)
{
	unsigned long fl = f->flags;

	if (fl & TEP_FIELD_IS_STRING)
		return T_STRING;
	if (!(fl & TEP_FIELD_IS_SIGNED) && (fl & (TEP_FIELD_IS_LONG | TEP_FIELD_IS_POINTER)))
		return T_U64_HEX;	/* unsigned longs are mostly addresses */
	if (fl & TEP_FIELD_IS_SIGNED)
		return f->size == 8 ? T_S64 : T_S32;
	return f->size == 8 ? T_U64 : T_U32;
}

/* --- classes ----------------------------------------------------------- */

static int add_field(struct ctf *c, struct bt_ctf_event_class *cls, struct bt_ctf_field_type *t,
		     const char *name)
{
	if (bt_ctf_event_class_add_field(cls, t, name)) {
		snprintf(c->msg, c->size, "cannot add the field '%s' to a CTF event class", name);
		return -EINVAL;
	}
	return 0;
}

static int add_generic_fields(struct ctf *c, struct bt_ctf_event_class *cls, u64 type)
{
	static const struct { u64 bit; const char *name; enum ctf_type t; } gen[] = {
		{ PERF_SAMPLE_IP, "perf_ip", T_U64_HEX },
		{ PERF_SAMPLE_TID, "perf_tid", T_S32 },
		{ PERF_SAMPLE_TID, "perf_pid", T_S32 },
		{ PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER, "perf_id", T_U64 },
		{ PERF_SAMPLE_STREAM_ID, "perf_stream_id", T_U64 },
		{ PERF_SAMPLE_PERIOD, "perf_period", T_U64 },
		{ PERF_SAMPLE_WEIGHT, "perf_weight", T_U64 },
		{ PERF_SAMPLE_DATA_SRC, "perf_data_src", T_U64 },
		{ PERF_SAMPLE_TRANSACTION, "perf_transaction", T_U64 },
	};
	struct bt_ctf_field_type *seq;
	int err;

	for (size_t i = 0; i < sizeof(gen) / sizeof(gen[0]); i++)
		if ((type & gen[i].bit) && (err = add_field(c, cls, c->t[gen[i].t], gen[i].name)))
			return err;
	if (!(type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	if ((err = add_field(c, cls, c->t[T_U32], "perf_callchain_size")))
		return err;
	seq = bt_ctf_field_type_sequence_create(c->t[T_U64_HEX], "perf_callchain_size");
	if (!seq)
		return -ENOMEM;
	err = add_field(c, cls, seq, "perf_callchain");
	bt_ctf_field_type_put(seq);
	return err;
}

/* perf's renaming: '_' before a name CTF refuses, "_dupl_N" after a repeated one. */
static char *tp_field_name(struct bt_ctf_event_class *cls, const char *name)
{
	struct bt_ctf_field_type *t;
	char *n;
	int dup = 1;

	if (bt_ctf_validate_identifier(name)) {
		if (asprintf(&n, "_%s", name) < 0)
			return NULL;
	} else if (!(n = strdup(name))) {
		return NULL;
	}
	while ((t = bt_ctf_event_class_get_field_by_name(cls, n))) {
		bt_ctf_field_type_put(t);
		free(n);
		if (dup >= 10 || asprintf(&n, "%s_dupl_%d", name, dup++) < 0)
			return NULL;
	}
	return n;
}

static int add_tp_list(struct ctf *c, struct ctf_class *cc, struct tep_format_field **list)
{
	for (int i = 0; list && list[i]; i++) {
		struct tep_format_field *f = list[i];
		struct ctf_tp_field *tf = &cc->tp[cc->nr_tp];
		struct bt_ctf_field_type *t;
		int err;

		tf->f = f;
		tf->type = tp_type(f);
		if ((f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_STRING)) {
			if (f->arraylen <= 0 || (f->flags & TEP_FIELD_IS_DYNAMIC))
				continue;	/* a dynamic array: perf cannot write it either */
			tf->n = f->arraylen;
		}
		tf->name = tp_field_name(cc->cls, f->name);
		if (!tf->name)
			return ctf_fail(c, -EINVAL, "cannot name a tracepoint field in CTF");
		t = tf->n ? bt_ctf_field_type_array_create(c->t[tf->type], tf->n) : c->t[tf->type];
		if (!t)
			return -ENOMEM;
		err = add_field(c, cc->cls, t, tf->name);
		if (tf->n)
			bt_ctf_field_type_put(t);
		if (err) {
			free(tf->name);
			return err;
		}
		cc->nr_tp++;
	}
	return 0;
}

static int add_tp_fields(struct ctf *c, struct ctf_class *cc, const struct perf_event_attr *a)
{
	struct tep_event *ev = c->tev_loaded ? tep_find_event(c->tev.tep, (int)a->config) : NULL;
	struct tep_format_field **common, **fields;
	int n, err;

	if (!ev)
		return 0;	/* no format: the sample's generic fields only */
	common = tep_event_common_fields(ev);
	fields = tep_event_fields(ev);
	n = ev->format.nr_common + ev->format.nr_fields;
	cc->tp = calloc(n + 1, sizeof(*cc->tp));
	if (!cc->tp || (n && (!common || !fields))) {
		free(common);
		free(fields);
		return -ENOMEM;
	}
	err = add_tp_list(c, cc, common);
	if (!err)
		err = add_tp_list(c, cc, fields);
	free(common);
	free(fields);
	return err;
}

static bool is_bpf_output(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT;
}

static int add_event_class(struct ctf *c, struct perf_header *h, int i)
{
	struct perf_header_attr *ha = &h->attrs[i];
	struct ctf_class *cc = &c->classes[i];
	struct bt_ctf_field_type *seq;
	char buf[256];
	const char *name = perf_header__event_name(h, ha, buf, sizeof(buf));
	int err;

	cc->sample_type = ha->attr.sample_type;
	cc->name = strdup(name);
	cc->cls = cc->name ? bt_ctf_event_class_create(name) : NULL;
	if (!cc->cls)
		return -ENOMEM;
	err = add_generic_fields(c, cc->cls, cc->sample_type);
	if (!err && ha->attr.type == PERF_TYPE_TRACEPOINT)
		err = add_tp_fields(c, cc, &ha->attr);
	if (!err && is_bpf_output(&ha->attr)) {
		cc->bpf_output = true;
		err = add_field(c, cc->cls, c->t[T_U32], "raw_len");
		seq = err ? NULL : bt_ctf_field_type_sequence_create(c->t[T_U32_HEX], "raw_len");
		if (!err && !seq)
			err = -ENOMEM;
		if (!err)
			err = add_field(c, cc->cls, seq, "raw_data");
		if (seq)
			bt_ctf_field_type_put(seq);
	}
	if (!err && bt_ctf_stream_class_add_event_class(c->sc, cc->cls))
		err = -EINVAL;
	if (err)
		snprintf(c->msg, c->size, "cannot make the CTF event class of '%s'", name);
	return err;
}

static struct bt_ctf_event_class *side_class(struct ctf *c, const char *name,
					     const char *const *fields, const enum ctf_type *types)
{
	struct bt_ctf_event_class *cls = bt_ctf_event_class_create(name);

	if (!cls)
		return NULL;
	for (int i = 0; fields[i]; i++)
		if (add_field(c, cls, c->t[types[i]], fields[i]))
			goto fail;
	if (bt_ctf_stream_class_add_event_class(c->sc, cls))
		goto fail;
	return cls;
fail:
	bt_ctf_event_class_put(cls);
	return NULL;
}

/* --all: perf's classes of the side-band records, in its order. */
static int add_side_classes(struct ctf *c)
{
	static const char *const comm[] = { "pid", "tid", "comm", NULL };
	static const enum ctf_type comm_t[] = { T_U32, T_U32, T_STRING };
	static const char *const task[] = { "pid", "ppid", "tid", "ptid", "time", NULL };
	static const enum ctf_type task_t[] = { T_U32, T_U32, T_U32, T_U32, T_U64 };
	static const char *const mmap[] = { "pid", "tid", "start", "filename", NULL };
	static const enum ctf_type mmap_t[] = { T_U32, T_U32, T_U64_HEX, T_STRING };

	c->comm = side_class(c, "perf_comm", comm, comm_t);
	c->exit = c->comm ? side_class(c, "perf_exit", task, task_t) : NULL;
	c->fork = c->exit ? side_class(c, "perf_fork", task, task_t) : NULL;
	c->mmap = c->fork ? side_class(c, "perf_mmap", mmap, mmap_t) : NULL;
	c->mmap2 = c->mmap ? side_class(c, "perf_mmap2", mmap, mmap_t) : NULL;
	return c->mmap2 ? 0 : ctf_fail(c, -ENOMEM, "cannot make the CTF classes of --all");
}

/* --- writer set-up ------------------------------------------------------- */

/* perf's name of a clock id (its clockid table, first name of each). */
static const char *clockid_name(u32 id)
{
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static int setup_clock(struct ctf *c, const struct perf_env *env)
{
	const char *desc = "perf clock";
	int64_t offset = 0;

	if (c->o->tod) {
		desc = clockid_name(env->clock_data_clockid);
		offset = (int64_t)(env->clock_tod_ns - env->clock_clockid_ns);
	}
	c->clock = bt_ctf_clock_create("perf_clock");
	if (!c->clock || bt_ctf_clock_set_description(c->clock, desc) ||
	    bt_ctf_clock_set_frequency(c->clock, 1000000000) ||
	    bt_ctf_clock_set_offset_s(c->clock, 0) || bt_ctf_clock_set_offset(c->clock, offset) ||
	    bt_ctf_clock_set_precision(c->clock, 10) || bt_ctf_clock_set_is_absolute(c->clock, 0))
		return ctf_fail(c, -ENOMEM, "cannot make the CTF clock");
	return 0;
}

static int setup_env(struct ctf *c, const struct perf_env *env)
{
	const char *kv[][2] = {
		{ "host", env->hostname }, { "sysname", "Linux" }, { "release", env->os_release },
		{ "version", env->version }, { "machine", env->arch }, { "domain", "kernel" },
		{ "tracer_name", "perf" },
	};

	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		if (bt_ctf_writer_add_environment_field(c->writer, kv[i][0], kv[i][1] ? kv[i][1] : ""))
			return ctf_fail(c, -EINVAL, "cannot write the CTF environment");
	return 0;
}

static int setup_writer(struct ctf *c, const char *dir, struct perf_header *h)
{
	struct bt_ctf_field_type *pkt;
	int err;

	c->writer = bt_ctf_writer_create(dir);
	if (!c->writer) {
		snprintf(c->msg, c->size, "cannot create the CTF trace in '%s'", dir);
		return -EIO;
	}
	if ((err = setup_clock(c, &h->env)) || (err = make_types(c)))
		return err;
	c->sc = bt_ctf_stream_class_create("perf_stream");
	if (!c->sc || bt_ctf_stream_class_set_clock(c->sc, c->clock))
		return ctf_fail(c, -ENOMEM, "cannot make the CTF stream class");
	pkt = bt_ctf_stream_class_get_packet_context_type(c->sc);
	err = !pkt || bt_ctf_field_type_structure_add_field(pkt, c->t[T_U32], "cpu_id");
	if (pkt)
		bt_ctf_field_type_put(pkt);
	if (err || bt_ctf_writer_add_clock(c->writer, c->clock))
		return ctf_fail(c, -EINVAL, "cannot set up the CTF stream class");
	if ((err = setup_env(c, &h->env)))
		return err;
	c->nr_classes = h->nr_attrs;
	c->classes = calloc(h->nr_attrs + 1, sizeof(*c->classes));
	if (!c->classes)
		return -ENOMEM;
	for (int i = 0; i < h->nr_attrs; i++)
		if ((err = add_event_class(c, h, i)))
			return err;
	if (c->o->all && (err = add_side_classes(c)))
		return err;
	/* perf's count (4096 without the feature), bounded against a corrupted file */
	c->nr_streams = !h->env.nr_cpus_avail ? 4096 :
			h->env.nr_cpus_avail > (1 << 16) ? 1 << 16 : (int)h->env.nr_cpus_avail;
	c->streams = calloc(c->nr_streams, sizeof(*c->streams));
	c->st->nr_cpus = c->nr_streams;
	c->st->per_cpu = calloc(c->nr_streams, sizeof(*c->st->per_cpu));
	return c->streams && c->st->per_cpu ? 0 : -ENOMEM;
}

/* --- events ------------------------------------------------------------ */

static struct ctf_stream *get_stream(struct ctf *c, int cpu)
{
	struct ctf_stream *cs;
	struct bt_ctf_field *ctx, *f;
	int err;

	if (cpu < 0 || cpu >= c->nr_streams)
		cpu = 0;	/* as perf: a CPU past the recorded count goes to 0's */
	cs = &c->streams[cpu];
	if (cs->stream)
		return cs;
	cs->stream = bt_ctf_writer_create_stream(c->writer, c->sc);
	if (!cs->stream)
		return NULL;
	ctx = bt_ctf_stream_get_packet_context(cs->stream);
	f = ctx ? bt_ctf_field_structure_get_field(ctx, "cpu_id") : NULL;
	err = !f || bt_ctf_field_unsigned_integer_set_value(f, (u32)cpu);
	if (f)
		bt_ctf_field_put(f);
	if (ctx)
		bt_ctf_field_put(ctx);
	return err ? NULL : cs;
}

/* Append @ev, about @bytes long in CTF, to CPU @cpu's stream. */
static int append(struct ctf *c, struct bt_ctf_event *ev, int cpu, size_t bytes)
{
	struct ctf_stream *cs = get_stream(c, cpu);

	if (!cs)
		return ctf_fail(c, -ENOMEM, "cannot make a CTF stream");
	if (cs->count && cs->bytes + bytes > CTF_PACKET_BYTES) {
		if (bt_ctf_stream_flush(cs->stream))
			return ctf_fail(c, -EIO, "cannot write a CTF packet");
		cs->count = 0;
		cs->bytes = 0;
	}
	cs->count++;
	cs->bytes += bytes;
	c->st->per_cpu[cs - c->streams]++;
	if (bt_ctf_stream_append_event(cs->stream, ev))
		return ctf_fail(c, -EINVAL, "cannot append an event to a CTF stream");
	return 0;
}

static int set_int(struct bt_ctf_event *ev, const char *name, bool sign, u64 val)
{
	struct bt_ctf_field *f = bt_ctf_event_get_payload(ev, name);
	int err;

	if (!f)
		return -EINVAL;
	err = sign ? bt_ctf_field_signed_integer_set_value(f, (int64_t)val) :
		     bt_ctf_field_unsigned_integer_set_value(f, val);
	bt_ctf_field_put(f);
	return err ? -EINVAL : 0;
}

/* A string as perf writes it: bytes that are not printable as \xNN. */
static int string_value(struct ctf *c, struct bt_ctf_field *f, const char *s, size_t max)
{
	size_t len = strnlen(s, max), p = 0;
	bool plain = true;

	for (size_t i = 0; i < len && plain; i++)
		plain = s[i] >= 0x20 && s[i] < 0x7f;
	if (plain && len < max)
		return bt_ctf_field_string_set_value(f, s) ? -EINVAL : 0;
	if (c->strbuf_size < len * 4 + 1) {
		char *b = realloc(c->strbuf, len * 4 + 1);

		if (!b)
			return -ENOMEM;
		c->strbuf = b;
		c->strbuf_size = len * 4 + 1;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = s[i];

		if (ch >= 0x20 && ch < 0x7f)
			c->strbuf[p++] = ch;
		else
			p += snprintf(c->strbuf + p, 5, "\\x%02x", ch);
	}
	c->strbuf[p] = '\0';
	return bt_ctf_field_string_set_value(f, c->strbuf) ? -EINVAL : 0;
}

static int set_string(struct ctf *c, struct bt_ctf_event *ev, const char *name, const char *s,
		      size_t max)
{
	struct bt_ctf_field *f = bt_ctf_event_get_payload(ev, name);
	int err;

	if (!f)
		return -EINVAL;
	err = string_value(c, f, s, max);
	bt_ctf_field_put(f);
	return err;
}

static int set_sequence(struct bt_ctf_event *ev, const char *len_name, const char *name,
			u32 n, const void *data, int elem_size)
{
	struct bt_ctf_field *len = bt_ctf_event_get_payload(ev, len_name);
	struct bt_ctf_field *seq = bt_ctf_event_get_payload(ev, name);
	int err = !len || !seq || bt_ctf_field_unsigned_integer_set_value(len, n) ||
		  bt_ctf_field_sequence_set_length(seq, len);

	for (u32 i = 0; !err && i < n; i++) {
		struct bt_ctf_field *e = bt_ctf_field_sequence_get_field(seq, i);
		u64 v;

		if (elem_size == 8) {
			memcpy(&v, (const u8 *)data + i * 8, 8);
		} else {
			u32 v32;

			memcpy(&v32, (const u8 *)data + i * 4, 4);
			v = v32;
		}
		err = !e || bt_ctf_field_unsigned_integer_set_value(e, v);
		if (e)
			bt_ctf_field_put(e);
	}
	if (len)
		bt_ctf_field_put(len);
	if (seq)
		bt_ctf_field_put(seq);
	return err ? -EINVAL : 0;
}

static int set_generic(struct bt_ctf_event *ev, u64 type, const struct perf_sample *s)
{
	int err = 0;

	if (type & PERF_SAMPLE_IP)
		err = set_int(ev, "perf_ip", false, s->ip);
	if (!err && (type & PERF_SAMPLE_TID))
		err = set_int(ev, "perf_tid", true, (u64)(int64_t)(int32_t)s->tid) ?:
		      set_int(ev, "perf_pid", true, (u64)(int64_t)(int32_t)s->pid);
	if (!err && (type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		err = set_int(ev, "perf_id", false, s->id);
	if (!err && (type & PERF_SAMPLE_STREAM_ID))
		err = set_int(ev, "perf_stream_id", false, s->stream_id);
	if (!err && (type & PERF_SAMPLE_PERIOD))
		err = set_int(ev, "perf_period", false, s->period);
	if (!err && (type & PERF_SAMPLE_WEIGHT))
		err = set_int(ev, "perf_weight", false, s->weight);
	if (!err && (type & PERF_SAMPLE_DATA_SRC))
		err = set_int(ev, "perf_data_src", false, s->data_src);
	if (!err && (type & PERF_SAMPLE_TRANSACTION))
		err = set_int(ev, "perf_transaction", false, s->transaction);
	if (!err && (type & PERF_SAMPLE_CALLCHAIN))
		err = set_sequence(ev, "perf_callchain_size", "perf_callchain",
				   s->callchain ? (u32)s->callchain_nr : 0,
				   s->callchain, 8);
	return err;
}

/* A signed value of @size bytes, widened as perf widens it. */
static int64_t sign_extend(u64 v, int size)
{
	if (size >= 8 || size <= 0)
		return (int64_t)v;
	return (int64_t)(v << (64 - size * 8)) >> (64 - size * 8);
}

static int set_tp_field(struct ctf *c, struct bt_ctf_event *ev, const struct ctf_tp_field *tf,
			const u8 *data, u32 size)
{
	const struct tep_format_field *f = tf->f;
	unsigned int off = f->offset, len = f->size, n = tf->n ? tf->n : 1;
	struct bt_ctf_field *arr = NULL, *fld;
	int err = 0;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		u32 loc;

		if ((u64)off + 4 > size)
			return -EINVAL;
		loc = (u32)tep_read_number(c->tev.tep, data + off, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (tf->n)
		len = f->size / tf->n;
	if ((u64)off + (u64)len * n > size)
		return -EINVAL;
	if (tf->type == T_STRING)
		return set_string(c, ev, tf->name, (const char *)data + off, len);
	if (tf->n && !(arr = bt_ctf_event_get_payload(ev, tf->name)))
		return -EINVAL;
	for (unsigned int i = 0; !err && i < n; i++) {
		u64 v = len <= 8 ? tep_read_number(c->tev.tep, data + off + i * len, len) : 0;

		fld = arr ? bt_ctf_field_array_get_field(arr, i) : bt_ctf_event_get_payload(ev, tf->name);
		if (!fld) {
			err = -EINVAL;
			break;
		}
		if (f->flags & TEP_FIELD_IS_SIGNED)
			err = bt_ctf_field_signed_integer_set_value(fld, sign_extend(v, len));
		else
			err = bt_ctf_field_unsigned_integer_set_value(fld, v);
		bt_ctf_field_put(fld);
	}
	if (arr)
		bt_ctf_field_put(arr);
	return err ? -EINVAL : 0;
}

/*
 * An upper bound of a sample's CTF size: the event header (id, time), 8
 * bytes a generic field, the chain, the payload (strings as their bytes,
 * which may grow by \\xNN escapes: counted four times) and alignment.
 */
static size_t event_bytes(const struct perf_sample *s)
{
	return 16 + 8 * 10 + 4 + 8 * s->callchain_nr + 4 * (size_t)s->raw_size + 8;
}

static int ctf_sample(struct perf_tool *tool, struct perf_session *s, const union perf_event *e,
		      struct perf_sample *sample, struct perf_header_attr *attr)
{
	struct ctf *c = (struct ctf *)tool;
	struct ctf_class *cc;
	struct bt_ctf_event *ev;
	int err;

	(void)s;
	if (!attr || attr->idx < 0 || attr->idx >= c->nr_classes)
		return 0;
	cc = &c->classes[attr->idx];
	ev = bt_ctf_event_create(cc->cls);
	if (!ev)
		return ctf_fail(c, -ENOMEM, "cannot make a CTF event");
	c->st->samples++;
	c->st->per_attr[attr->idx]++;
	c->st->bytes += e->header.size;
	bt_ctf_clock_set_time(c->clock, (int64_t)sample->time);
	err = set_generic(ev, cc->sample_type, sample);
	for (int i = 0; !err && i < cc->nr_tp; i++)
		err = set_tp_field(c, ev, &cc->tp[i], sample->raw_data, sample->raw_size);
	if (!err && cc->bpf_output)
		err = set_sequence(ev, "raw_len", "raw_data", sample->raw_size / 4, sample->raw_data, 4);
	if (err) {
		snprintf(c->msg, c->size, "cannot convert a sample of '%s' at time %llu: its fields do not fit its record",
			 cc->name, (unsigned long long)sample->time);
	} else {
		err = append(c, ev, (cc->sample_type & PERF_SAMPLE_CPU) ? (int)sample->cpu : 0,
			     event_bytes(sample));
	}
	bt_ctf_event_put(ev);
	return err;
}

/* --all: a side-band record as perf writes it (CPU 0's stream). */
static int ctf_side(struct perf_tool *tool, struct perf_session *s, const union perf_event *e,
		    struct perf_sample *sample, struct perf_header_attr *attr)
{
	struct ctf *c = (struct ctf *)tool;
	struct bt_ctf_event_class *cls = NULL;
	struct bt_ctf_event *ev;
	size_t hdr = sizeof(e->header);
	int err = 0;

	(void)s;
	(void)attr;
	if (c->o->all) {	/* else only the sample order needs them */
		switch (e->header.type) {
		case PERF_RECORD_COMM: cls = c->comm; break;
		case PERF_RECORD_EXIT: cls = c->exit; break;
		case PERF_RECORD_FORK: cls = c->fork; break;
		case PERF_RECORD_MMAP: cls = c->mmap; break;
		case PERF_RECORD_MMAP2: cls = c->mmap2; break;
		default: break;
		}
	}
	if (cls && (ev = bt_ctf_event_create(cls))) {
		const u8 *end = (const u8 *)e + e->header.size;

		c->st->non_samples++;
		c->st->bytes += e->header.size;
		bt_ctf_clock_set_time(c->clock, (int64_t)sample->time);
		switch (e->header.type) {
		case PERF_RECORD_COMM:
			err = e->header.size < hdr + 8 ? -EINVAL :
			      set_int(ev, "pid", false, e->comm.pid) ?:
			      set_int(ev, "tid", false, e->comm.tid) ?:
			      set_string(c, ev, "comm", e->comm.comm, end - (const u8 *)e->comm.comm);
			break;
		case PERF_RECORD_EXIT:
		case PERF_RECORD_FORK:
			err = e->header.size < sizeof(e->fork) ? -EINVAL :
			      set_int(ev, "pid", false, e->fork.pid) ?:
			      set_int(ev, "ppid", false, e->fork.ppid) ?:
			      set_int(ev, "tid", false, e->fork.tid) ?:
			      set_int(ev, "ptid", false, e->fork.ptid) ?:
			      set_int(ev, "time", false, e->fork.time);
			break;
		case PERF_RECORD_MMAP:
			err = e->header.size < sizeof(e->mmap) ? -EINVAL :
			      set_int(ev, "pid", false, e->mmap.pid) ?:
			      set_int(ev, "tid", false, e->mmap.tid) ?:
			      set_int(ev, "start", false, e->mmap.start) ?:
			      set_string(c, ev, "filename", e->mmap.filename,
					 end - (const u8 *)e->mmap.filename);
			break;
		default:
			err = e->header.size < sizeof(e->mmap2) ? -EINVAL :
			      set_int(ev, "pid", false, e->mmap2.pid) ?:
			      set_int(ev, "tid", false, e->mmap2.tid) ?:
			      set_int(ev, "start", false, e->mmap2.start) ?:
			      set_string(c, ev, "filename", e->mmap2.filename,
					 end - (const u8 *)e->mmap2.filename);
			break;
		}
		if (err)
			snprintf(c->msg, c->size, "cannot convert a %s record: it is too short",
				 perf_event__name(e->header.type));
		else
			err = append(c, ev, 0, e->header.size + 16);
		bt_ctf_event_put(ev);
	} else if (cls) {
		return ctf_fail(c, -ENOMEM, "cannot make a CTF event");
	}
	return err;
}

/* --- output directory ---------------------------------------------------- */

static bool ctf_file(const char *name)
{
	return !strcmp(name, "metadata") || !strncmp(name, "perf_stream_", 12);
}

/*
 * An absent or empty directory is used as it is; a non-empty one only with
 * --force, after the CTF files of an earlier conversion are removed (a
 * stream file left from a recording with more CPUs would join the trace).
 */
static int prepare_dir(const char *dir, bool force, char *msg, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int err = 0;

	if (!d && errno == ENOENT) {	/* made here: the library's own attempt prints */
		if (!mkdir(dir, 0777))
			return 0;
		snprintf(msg, size, "cannot create the CTF directory '%s': %s", dir, strerror(errno));
		return -errno;
	}
	if (!d) {
		snprintf(msg, size, "cannot use '%s' as the CTF directory: %s", dir, strerror(errno));
		return -errno;
	}
	while (!err && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!force) {
			snprintf(msg, size, "cannot write the CTF trace in '%s': the directory is not empty; use -f/--force to replace the CTF files in it",
				 dir);
			err = -EEXIST;
		} else if (ctf_file(de->d_name) && unlinkat(dirfd(d), de->d_name, 0)) {
			snprintf(msg, size, "cannot remove '%s/%s': %s", dir, de->d_name,
				 strerror(errno));
			err = -errno;
		}
	}
	closedir(d);
	return err;
}

static void ctf_exit(struct ctf *c)
{
	for (int i = 0; c->streams && i < c->nr_streams; i++)
		if (c->streams[i].stream)
			bt_ctf_stream_put(c->streams[i].stream);
	free(c->streams);
	for (int i = 0; c->classes && i < c->nr_classes; i++) {
		if (c->classes[i].cls)
			bt_ctf_event_class_put(c->classes[i].cls);
		for (int j = 0; j < c->classes[i].nr_tp; j++)
			free(c->classes[i].tp[j].name);
		free(c->classes[i].tp);
		free((char *)c->classes[i].name);
	}
	free(c->classes);
	if (c->comm)
		bt_ctf_event_class_put(c->comm);
	if (c->exit)
		bt_ctf_event_class_put(c->exit);
	if (c->fork)
		bt_ctf_event_class_put(c->fork);
	if (c->mmap)
		bt_ctf_event_class_put(c->mmap);
	if (c->mmap2)
		bt_ctf_event_class_put(c->mmap2);
	for (int i = 0; i < T_NR; i++)
		if (c->t[i])
			bt_ctf_field_type_put(c->t[i]);
	if (c->sc)
		bt_ctf_stream_class_put(c->sc);
	if (c->clock)
		bt_ctf_clock_put(c->clock);
	if (c->writer)
		bt_ctf_writer_put(c->writer);
	if (c->tev_loaded)
		tracing_data__unload(&c->tev, &c->seq);
	free(c->strbuf);
}

int convert_ctf__write(const char *dir, const struct convert_ctf_opts *o, struct perf_session *s,
		       struct convert_stats *st, char *msg, size_t size)
{
	struct perf_header *h = s->header;
	struct ctf c = { .o = o, .st = st, .msg = msg, .size = size };
	int err;

	memset(st, 0, sizeof(*st));
	msg[0] = '\0';
	if (h->pipe) {
		snprintf(msg, size, "cannot convert the pipe-mode data of '%s' to CTF: its events are known only as they come; save it to a file with 'tperf record -o FILE'",
			 s->data.path);
		return -ENOTSUP;
	}
	if (o->tod && !h->env.has_clock_data) {
		snprintf(msg, size, "cannot convert the time of '%s' to wall-clock time (--tod): the file has no clock data; record with -k/--clockid",
			 s->data.path);
		return -ENOTSUP;
	}
	if ((err = prepare_dir(dir, o->force, msg, size)))
		return err;
	st->nr_attrs = h->nr_attrs;
	st->per_attr = calloc(h->nr_attrs + 1, sizeof(*st->per_attr));
	if (!st->per_attr)
		return -ENOMEM;
	err = tracing_data__load(&c.tev, &c.seq, h);
	if (err == -ENOMEM)
		return err;
	c.tev_loaded = !err;
	err = setup_writer(&c, dir, h);
	if (!err) {
		c.tool.sample = ctf_sample;
		c.tool.comm = c.tool.exit = c.tool.fork = ctf_side;
		c.tool.mmap = c.tool.mmap2 = ctf_side;
		c.tool.ordered_events = true;
		err = perf_session__process_events(s, &c.tool);
		if (err > 0)
			err = -EINVAL;
	}
	for (int i = 0; !err && i < c.nr_streams; i++)
		if (c.streams[i].stream && bt_ctf_stream_flush(c.streams[i].stream))
			err = ctf_fail(&c, -EIO, "cannot write the last CTF packets");
	if (!err && c.writer)
		bt_ctf_writer_flush_metadata(c.writer);
	ctf_exit(&c);
	return err;
}

#endif
