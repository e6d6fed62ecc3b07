// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.data files: the writer and the reader together (features, pipe
 * mode, a killed writer, attr sizes, zstd, the directory format), the
 * ordered-events queue, the record counts of real files against perf's
 * `report --stats`, and corrupted files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "tests/tests.h"
#include "util/perf-data/data.h"
#include "util/event/perf-attr.h"
#include "util/perf-data/session.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	    PERF_SAMPLE_PERIOD)

static void two_events(struct perf_header *h)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_freq = 999, .freq = 1,
		.sample_type = ST, .read_format = PERF_FORMAT_ID, .sample_id_all = 1,
		.disabled = 1, .mmap = 1, .comm = 1, .exclude_guest = 1 };
	u64 ids1[] = { 100, 101 }, ids2[] = { 200 };

	perf_header__init(h);
	perf_header__add_attr(h, &a, sizeof(a), ids1, 2);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.mmap = a.comm = 0;
	perf_header__add_attr(h, &a, sizeof(a), ids2, 1);
}

/* A sample of event @id at @time; returns its size. */
static int sample(struct perf_header *h, u64 id, u64 time, u64 *buf)
{
	struct perf_sample s = { .ip = 0x400000 + time, .pid = 1, .tid = 2, .time = time,
				 .id = id, .period = 1 };

	s.misc = PERF_RECORD_MISC_USER;
	return perf_sample__synthesize(&h->attrs[0].attr, &s, buf, 256);
}

static int user_record(u32 type, u64 *buf)
{
	struct perf_event_header eh = { type, 0, 8 };

	memcpy(buf, &eh, 8);
	return 8;
}

static char tmp[256];

static void remove_tmp(void)
{
	if (tmp[0])
		test_rm_rf(tmp);
}

/* A file in this test's scratch folder, removed when the test exits. */
static const char *tmpfile_path(const char *name)
{
	static char path[512];
	char *d;

	if (!tmp[0]) {
		d = test_mkdtemp();
		if (!d)
			return "/nonexistent/scratch";
		snprintf(tmp, sizeof(tmp), "%s", d);
		atexit(remove_tmp);
	}
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	return path;
}

static int write_records(struct perf_data *d, struct perf_header *h, const u64 *times, int n)
{
	u64 buf[64];

	for (int i = 0; i < n; i++) {
		int len = times[i] ? sample(h, i % 2 ? 200 : 100, times[i], buf)
				   : user_record(PERF_RECORD_FINISHED_ROUND, buf);

		if (len < 0 || perf_data__write(d, buf, len))
			return -1;
	}
	return 0;
}

struct collect {
	struct perf_tool tool;
	u64 seq[64];
	int n;
	int nr_cpu_clock, nr_task_clock;
	u64 per_attr[16];		/* samples by attr index */
};

static int on_sample(struct perf_tool *t, struct perf_session *s, const union perf_event *ev,
		     struct perf_sample *sample, struct perf_header_attr *a)
{
	struct collect *c = (struct collect *)t;

	if (c->n < 64)
		c->seq[c->n++] = sample->time;
	if (a && a->idx < 16)
		c->per_attr[a->idx]++;
	if (a && a->attr.config == PERF_COUNT_SW_CPU_CLOCK)
		c->nr_cpu_clock++;
	else if (a)
		c->nr_task_clock++;
	return 0;
}

static int on_round(struct perf_tool *t, struct perf_session *s, const union perf_event *ev,
		    struct perf_sample *sample, struct perf_header_attr *a)
{
	struct collect *c = (struct collect *)t;

	if (c->n < 64)
		c->seq[c->n++] = 0;
	return 0;
}

static int read_all(const char *path, struct collect *c, bool ordered, struct perf_session **out)
{
	struct perf_session *s;
	char msg[512];
	int err;

	memset(c, 0, sizeof(*c));
	c->tool.sample = on_sample;
	c->tool.finished_round = on_round;
	c->tool.ordered_events = ordered;
	s = perf_session__new(path, &err, msg, sizeof(msg));
	if (!s) {
		fprintf(stderr, "%s\n", msg);
		return err;
	}
	err = perf_session__process_events(s, &c->tool);
	if (out)
		*out = s;
	else
		perf_session__delete(s);
	return err;
}

TPERF_TEST(perf_data_feature_roundtrip, "perf.data: write then read the header features")
{
	struct perf_header h, *r;
	struct perf_data d = { 0 };
	struct perf_session *s;
	struct collect c;
	const char *argv[] = { "tperf", "record", "-e", "cpu-clock" };
	static const u64 times[] = { 10, 20, 0, 30 };
	struct perf_build_id_entry bid = { .pid = -1, .misc = PERF_RECORD_MISC_KERNEL, .size = 20 };
	const char *path = tmpfile_path("features.data");

	two_events(&h);
	TEST_ASSERT_EQUAL("local env", perf_env__init_local(&h.env, 4, argv), 0);
	h.attrs[0].name = strdup("cpu-clock:u");
	h.env.first_sample_time = 10;
	h.env.last_sample_time = 30;
	h.env.clockid_res_ns = 1;
	h.env.tracing_data = strdup("opaque tracing data");
	h.env.tracing_data_size = 20;
	memset(bid.build_id, 0xab, 20);
	bid.filename = strdup("[kernel.kallsyms]");
	h.env.build_ids = malloc(sizeof(bid));
	memcpy(h.env.build_ids, &bid, sizeof(bid));
	h.env.nr_build_ids = 1;
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	TEST_ASSERT_EQUAL("write", write_records(&d, &h, times, 4), 0);
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);

	TEST_ASSERT_EQUAL("read", read_all(path, &c, true, &s), 0);
	r = s->header;
	TEST_ASSERT_EQUAL("attrs", r->nr_attrs, 2);
	TEST_ASSERT_EQUAL("ids", r->attrs[0].nr_ids, 2);
	TEST_ASSERT_STR("name from EVENT_DESC", r->attrs[0].name, "cpu-clock:u");
	TEST_ASSERT_STR("generated name", r->attrs[1].name, "task-clock");
	TEST_ASSERT_STR("hostname", r->env.hostname, h.env.hostname);
	TEST_ASSERT_STR("osrelease", r->env.os_release, h.env.os_release);
	TEST_ASSERT_STR("version", r->env.version, h.env.version);
	TEST_ASSERT_STR("arch", r->env.arch, h.env.arch);
	TEST_ASSERT_STR("cpuid", r->env.cpuid ? r->env.cpuid : "", h.env.cpuid ? h.env.cpuid : "");
	TEST_ASSERT_EQUAL("nrcpus", r->env.nr_cpus_online, h.env.nr_cpus_online);
	TEST_ASSERT_EQUAL("total mem", r->env.total_mem, h.env.total_mem);
	TEST_ASSERT_EQUAL("cmdline", r->env.nr_cmdline, 4);
	TEST_ASSERT_STR("cmdline[3]", r->env.cmdline[3], "cpu-clock");
	TEST_ASSERT_EQUAL("cores", r->env.nr_sibling_cores, h.env.nr_sibling_cores);
	TEST_ASSERT_EQUAL("core ids", r->env.nr_cpu_topo, h.env.nr_cpus_avail);
	TEST_ASSERT_EQUAL("numa", r->env.nr_numa_nodes, h.env.nr_numa_nodes);
	TEST_ASSERT_EQUAL("sample time", r->env.last_sample_time, 30);
	TEST_ASSERT_EQUAL("clockid", r->env.clockid_res_ns, 1);
	TEST_ASSERT_EQUAL("tracing data", r->env.tracing_data_size, 20);
	TEST_ASSERT_STR("tracing data bytes", r->env.tracing_data, "opaque tracing data");
	TEST_ASSERT_EQUAL("build ids", r->env.nr_build_ids, 1);
	TEST_ASSERT_STR("build id file", r->env.build_ids[0].filename, "[kernel.kallsyms]");
	TEST_ASSERT_EQUAL("build id byte", r->env.build_ids[0].build_id[19], 0xab);
	TEST_ASSERT_EQUAL("records", c.nr_cpu_clock + c.nr_task_clock, 3);
	TEST_ASSERT_EQUAL("by id", c.nr_task_clock, 2);
	TEST_ASSERT_VAL("no warning", !s->warnmsg[0]);
	perf_session__delete(s);
	perf_header__exit(&h);
	return TEST_OK;
}

TPERF_TEST(perf_data_pipe_roundtrip, "perf.data: pipe mode write then read")
{
	struct perf_header h;
	struct perf_data d = { 0 };
	struct perf_session *s;
	struct collect c;
	static const u64 times[] = { 5, 6, 0 };
	const char *path = tmpfile_path("pipe.data");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), saved = dup(1);

	TEST_ASSERT_VAL("temp file", fd >= 0 && saved >= 0);
	two_events(&h);
	perf_env__init_local(&h.env, 0, NULL);
	h.env.tracing_data = strdup("tracing");
	h.env.tracing_data_size = 5;	/* "traci", written with 3 bytes of padding */
	h.env.build_ids = calloc(1, sizeof(*h.env.build_ids));
	h.env.build_ids[0].filename = strdup("/usr/bin/true");
	h.env.build_ids[0].size = 20;
	h.env.nr_build_ids = 1;
	dup2(fd, 1);
	close(fd);
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, "-", &h), 0);
	TEST_ASSERT_EQUAL("write", write_records(&d, &h, times, 3), 0);
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);
	dup2(saved, 1);
	close(saved);
	TEST_ASSERT_EQUAL("read", read_all(path, &c, true, &s), 0);
	TEST_ASSERT_VAL("pipe", s->data.is_pipe);
	TEST_ASSERT_EQUAL("attrs from HEADER_ATTR", s->header->nr_attrs, 2);
	TEST_ASSERT_STR("hostname from HEADER_FEATURE", s->header->env.hostname, h.env.hostname);
	TEST_ASSERT_EQUAL("FINISHED_INIT", s->stats.nr_events[PERF_RECORD_FINISHED_INIT], 1);
	TEST_ASSERT_EQUAL("samples", c.nr_cpu_clock + c.nr_task_clock, 2);
	TEST_ASSERT_EQUAL("tracing data, padded", s->header->env.tracing_data_size, 8);
	TEST_ASSERT_VAL("tracing data bytes",
			!memcmp(s->header->env.tracing_data, "traci\0\0\0", 8));
	TEST_ASSERT_EQUAL("build-id records", s->header->env.nr_build_ids, 1);
	TEST_ASSERT_STR("build-id file", s->header->env.build_ids[0].filename, "/usr/bin/true");
	perf_session__delete(s);
	perf_header__exit(&h);
	return TEST_OK;
}

TPERF_TEST(perf_data_killed_writer, "perf.data: a writer killed mid-file leaves a readable file")
{
	struct perf_header h;
	struct perf_data d = { 0 };
	struct perf_session *s;
	struct collect c;
	static const u64 times[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const char *path = tmpfile_path("killed.data");
	u64 buf[64];
	int fd, n;

	two_events(&h);
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	TEST_ASSERT_EQUAL("write", write_records(&d, &h, times, 8), 0);
	/* no perf_data__finish(): as if SIGKILLed after the buffer reached the file */
	TEST_ASSERT_EQUAL("flush", perf_data__flush(&d), 0);
	perf_data__close(&d);
	TEST_ASSERT_EQUAL("read", read_all(path, &c, true, &s), 0);
	TEST_ASSERT_VAL("data size fixed up", s->data.size_fixed);
	TEST_ASSERT_VAL("says so", strstr(s->warnmsg, "was perf record killed?") != NULL);
	TEST_ASSERT_EQUAL("all records", c.nr_cpu_clock + c.nr_task_clock, 8);
	perf_session__delete(s);

	/* half a record at the end: read up to the last complete one */
	n = sample(&h, 100, 9, buf);
	fd = open(path, O_WRONLY | O_APPEND);
	TEST_ASSERT_VAL("append", fd >= 0 && write(fd, buf, n / 2) == n / 2);
	close(fd);
	TEST_ASSERT_EQUAL("read", read_all(path, &c, true, &s), 0);
	TEST_ASSERT_VAL("truncated", s->data.truncated);
	TEST_ASSERT_VAL("warning", strstr(s->warnmsg, "truncated record at offset") != NULL);
	TEST_ASSERT_EQUAL("complete records", c.nr_cpu_clock + c.nr_task_clock, 8);
	perf_session__delete(s);
	perf_header__exit(&h);
	return TEST_OK;
}

TPERF_TEST(perf_data_sigkill, "perf.data: a writer killed by SIGKILL leaves a readable file")
{
	struct perf_header h;
	struct perf_session *s;
	struct collect c;
	const char *path = tmpfile_path("sigkill.data");
	struct stat st;
	pid_t pid;
	int status;

	two_events(&h);
	pid = fork();
	if (pid == 0) {
		struct perf_data d = { 0 };
		u64 buf[64];

		if (perf_data__open_write(&d, path, &h))
			_exit(1);
		for (u64 t = 1;; t++) {
			int n = sample(&h, 100, t, buf);

			/* a record written in two pieces, as a ring buffer wraps */
			if (perf_data__write(&d, buf, 16) || perf_data__flush(&d) ||
			    perf_data__write(&d, (u8 *)buf + 16, n - 16))
				_exit(1);
			if (t % 7 == 0 && perf_data__flush(&d))
				_exit(1);
		}
	}
	TEST_ASSERT_VAL("fork", pid > 0);
	for (int i = 0; i < 2000 && (stat(path, &st) || st.st_size < 200000); i++)
		usleep(1000);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	TEST_ASSERT_VAL("killed", WIFSIGNALED(status));
	TEST_ASSERT_EQUAL("read", read_all(path, &c, true, &s), 0);
	TEST_ASSERT_VAL("data size fixed up", s->data.size_fixed);
	TEST_ASSERT_VAL("many records", c.nr_cpu_clock > 1000);
	TEST_ASSERT_EQUAL("in order", c.seq[63], 64);
	TEST_ASSERT_EQUAL("no corrupt record", s->stats.nr_unknown_id, 0);
	perf_session__delete(s);
	perf_header__exit(&h);
	return TEST_OK;
}

TPERF_TEST(perf_data_ordered_events, "perf.data: ordered events, flushed at FINISHED_ROUND")
{
	struct perf_header h;
	struct perf_data d = { 0 };
	struct collect c;
	/* 0 is FINISHED_ROUND */
	static const u64 times[] = { 5, 3, 1, 0, 4, 2, 9, 0, 6 };
	/* round 1 flushes nothing (the limit is the previous round's newest),
	 * round 2 flushes up to 5, the end flushes the rest */
	static const u64 want[] = { 0, 1, 2, 3, 4, 5, 0, 6, 9 };
	static const u64 unordered[] = { 5, 3, 1, 0, 4, 2, 9, 0, 6 };
	const char *path = tmpfile_path("ordered.data");

	two_events(&h);
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	TEST_ASSERT_EQUAL("write", write_records(&d, &h, times, 9), 0);
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);
	TEST_ASSERT_EQUAL("read", read_all(path, &c, true, NULL), 0);
	TEST_ASSERT_EQUAL("delivered", c.n, 9);
	for (int i = 0; i < 9; i++)
		TEST_ASSERT_EQUAL("order", c.seq[i], want[i]);
	TEST_ASSERT_EQUAL("unordered read", read_all(path, &c, false, NULL), 0);
	for (int i = 0; i < 9; i++)
		TEST_ASSERT_EQUAL("file order", c.seq[i], unordered[i]);
	perf_header__exit(&h);
	return TEST_OK;
}

/* room for a header, an attrs entry of up to 8 KiB and its ids */
#define CRAFT_BYTES 16384

/* A file-mode header with one attr of @asz bytes (attr.size @size) in memory. */
static size_t craft_file(u8 *buf, u64 asz, u32 size)
{
	struct perf_file_header fh = { PERF_MAGIC2, sizeof(fh), asz + 16 };
	struct perf_event_attr a = { .type = 1, .size = size, .sample_type = PERF_SAMPLE_IP,
				     .sample_period = 1 };
	struct perf_file_section ids = { 0, 0 };

	fh.attrs.offset = sizeof(fh);
	fh.attrs.size = asz + 16;
	fh.data.offset = sizeof(fh) + asz + 16;
	memset(buf, 0, CRAFT_BYTES);
	memcpy(buf, &fh, sizeof(fh));
	memcpy(buf + sizeof(fh), &a, sizeof(a) < asz ? sizeof(a) : asz);
	memcpy(buf + sizeof(fh) + asz, &ids, sizeof(ids));
	return fh.data.offset;
}

TPERF_TEST(perf_data_attr_sizes, "perf.data: older attrs are zero-extended, newer ones' fields past ours ignored")
{
	struct perf_header h;
	static u8 buf[CRAFT_BYTES];
	size_t n;

	n = craft_file(buf, PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER0);
	buf[sizeof(struct perf_file_header) + 40] = 0xff;	/* flag bits of VER0 */
	perf_header__init(&h);
	TEST_ASSERT_EQUAL("VER0 accepted", perf_header__read_file(&h, buf, n, "v0"), 0);
	TEST_ASSERT_EQUAL("one attr", h.nr_attrs, 1);
	TEST_ASSERT_EQUAL("size kept", h.attrs[0].attr.size, 64);
	TEST_ASSERT_EQUAL("later fields zero", h.attrs[0].attr.sample_regs_user, 0);
	TEST_ASSERT_EQUAL("period", h.attrs[0].attr.sample_period, 1);
	perf_header__exit(&h);

	n = craft_file(buf, PERF_ATTR_SIZE_VER0, 0);
	TEST_ASSERT_EQUAL("size 0 is VER0", perf_header__read_file(&h, buf, n, "v0"), 0);
	perf_header__exit(&h);

	/* every size perf wrote (VER0 to VER8: 64 ... 136, perf 6.3's config3) */
	for (u32 sz = 72; sz <= 136; sz += 8) {
		if (sz == 88)	/* no perf_event_attr was ever 88 bytes */
			continue;
		n = craft_file(buf, sz, sz);
		if (sz > sizeof(struct perf_event_attr))	/* a newer field, set */
			memset(buf + sizeof(struct perf_file_header) + sizeof(struct perf_event_attr),
			       0xff, sz - sizeof(struct perf_event_attr));
		TEST_ASSERT_EQUAL("accepted", perf_header__read_file(&h, buf, n, "v.data"), 0);
		TEST_ASSERT_EQUAL("one attr", h.nr_attrs, 1);
		TEST_ASSERT_EQUAL("its size kept", h.attrs[0].attr.size, sz);
		TEST_ASSERT_EQUAL("period", h.attrs[0].attr.sample_period, 1);
		perf_header__exit(&h);
	}

	n = craft_file(buf, 8192, 136);	/* no perf wrote such an entry */
	TEST_ASSERT_EQUAL("absurd size", perf_header__read_file(&h, buf, n, "new.data"), -EINVAL);
	TEST_ASSERT_VAL("message", strstr(h.errmsg, "'new.data': invalid attr size 8208"));
	perf_header__exit(&h);

	n = craft_file(buf, 72, 80);	/* attr.size larger than its entry */
	TEST_ASSERT_EQUAL("inconsistent", perf_header__read_file(&h, buf, n, "bad"), -EINVAL);
	perf_header__exit(&h);
	return TEST_OK;
}

TPERF_TEST(perf_data_pipe_attr_136, "perf.data: pipe-mode HEADER_ATTR of 136 bytes is accepted")
{
	struct perf_header h;
	u64 rec[64] = { 0 };
	struct perf_event_header eh = { PERF_RECORD_HEADER_ATTR, 0, 8 + 136 + 16 };
	struct perf_event_attr a = { .type = 1, .size = 136, .sample_type = ST };
	u64 ids[2] = { 7, 8 };

	memcpy(rec, &eh, 8);
	memcpy((u8 *)rec + 8, &a, sizeof(a));
	memcpy((u8 *)rec + 8 + 136, ids, 16);
	perf_header__init(&h);
	h.pipe = true;
	TEST_ASSERT_EQUAL("accepted", perf_header__process_attr_record(&h, (void *)rec), 0);
	TEST_ASSERT_EQUAL("ids", h.attrs[0].nr_ids, 2);
	TEST_ASSERT_EQUAL("id", h.attrs[0].ids[1], 8);
	TEST_ASSERT_EQUAL("size as written", h.attrs[0].attr.size, 136);
	eh.size = 8 + 136 + 12;
	memcpy(rec, &eh, 8);
	TEST_ASSERT_EQUAL("ids not whole", perf_header__process_attr_record(&h, (void *)rec),
			  -EINVAL);
	perf_header__exit(&h);
	return TEST_OK;
}

TPERF_TEST(perf_data_zstd_and_dir, "perf.data: COMPRESSED records and the directory format")
{
	struct perf_header h;
	struct perf_data d = { 0 };
	struct perf_session *s;
	struct collect c;
	u64 plain[256], packed[512], buf[64];
	size_t n = 0, z;
	char dir[300], path[400];
	int fd;

	two_events(&h);
	for (u64 t = 1; t <= 4; t++)
		n += sample(&h, 100, t, plain + n / 8);
	z = ZSTD_compress((u8 *)packed + 8, sizeof(packed) - 8, plain, n, 3);
	TEST_ASSERT_VAL("compress", !ZSTD_isError(z));
	/* perf does not pad COMPRESSED records: the next record is misaligned */
	struct perf_event_header eh = { PERF_RECORD_COMPRESSED, 0, (u16)(8 + z) };

	memcpy(packed, &eh, 8);
	snprintf(dir, sizeof(dir), "%s", tmpfile_path("dir.data"));
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/data", dir);
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	TEST_ASSERT_EQUAL("write", perf_data__write(&d, packed, eh.size), 0);
	n = sample(&h, 100, 5, buf);
	TEST_ASSERT_EQUAL("write", perf_data__write(&d, buf, n), 0);
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);
	/* data.0 holds more records, no header */
	snprintf(path, sizeof(path), "%s/data.0", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	n = sample(&h, 200, 7, buf);
	TEST_ASSERT_VAL("data.0", fd >= 0 && write(fd, buf, n) == (ssize_t)n);
	close(fd);

	TEST_ASSERT_EQUAL("read", read_all(dir, &c, true, &s), 0);
	TEST_ASSERT_VAL("directory", s->data.is_dir);
	TEST_ASSERT_EQUAL("decompressed", s->data.nr_compressed, 1);
	TEST_ASSERT_EQUAL("COMPRESSED counted", s->stats.nr_events[PERF_RECORD_COMPRESSED], 1);
	TEST_ASSERT_EQUAL("samples", c.nr_cpu_clock, 5);
	TEST_ASSERT_EQUAL("from data.0", c.nr_task_clock, 1);
	TEST_ASSERT_EQUAL("sorted", c.seq[4], 5);
	TEST_ASSERT_EQUAL("sorted", c.seq[5], 7);
	perf_session__delete(s);

	/* a corrupt zstd payload names the record */
	memset((u8 *)packed + 12, 0x55, 8);
	snprintf(path, sizeof(path), "%s", tmpfile_path("badzstd.data"));
	memset(&d, 0, sizeof(d));
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	perf_data__write(&d, packed, eh.size);
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);
	TEST_ASSERT_EQUAL("error", read_all(path, &c, true, &s), -EINVAL);
	TEST_ASSERT_VAL("message",
			strstr(s->errmsg, "cannot decompress the COMPRESSED record at offset"));
	perf_session__delete(s);
	perf_header__exit(&h);
	return TEST_OK;
}

/* ---- real files against perf report --stats ---- */

static const char *const fixtures[] = {
	"kdab-dwarf-unwind-x86_64/perf.data",
	"kdab-lbr-callstack/perf.lbr.data",
	"kdab-uprobe-tracepoint/probe.data.file",
	"kdab-zstd-sched-switch-dwarf/perf.data.zstd",
	"pdc-armv7-32bit/perf.data.armv7-3.4",
	"pdc-branch-stack-lbr/perf.data.branch-4.14",
	"pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8",
	"pdc-pipe-mode-6.12/perf.data.piped.header_features_aligned-6.12",
	"rcppthread-perf-mem-record/perf.data",
	"lpd-aarch64-pipe-zstd/sleep.compressed.pipe.data",
	"kdab-uprobe-tracepoint/probe.data.stream",
	"lpd-newer-abi-refused/sleep.compressed2.pipe.data",
};

static int type_by_name(const char *name)
{
	for (int t = 0; t < PERF_RECORD_TYPES; t++)
		if (perf_event__name(t) && !strcmp(perf_event__name(t), name))
			return t;
	return -1;
}

/* The samples counted for the event perf names @name. */
static long long samples_of(struct perf_session *s, struct collect *c, const char *name)
{
	char buf[256];

	for (int i = 0; i < s->header->nr_attrs && i < 16; i++) {
		struct perf_header_attr *a = &s->header->attrs[i];

		if (!a->name)
			perf_attr__default_name(&a->attr, buf, sizeof(buf));
		if (!strcmp(a->name ? a->name : buf, name))
			return (long long)c->per_attr[i];
	}
	return -1;
}

/*
 * Compare the "NAME events: N" lines of perf report --stats: the Aggregated
 * section by record type, then "EVENT stats:" sections' SAMPLE counts by
 * event.  0 when all equal.
 */
static int check_stats(const char *oracle, struct perf_session *s, struct collect *c)
{
	FILE *f = fopen(oracle, "r");
	char line[256], name[64], event[256] = "";
	unsigned long long n;
	int checked = 0;

	if (!f) {
		fprintf(stderr, "cannot open %s\n", oracle);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *st = strstr(line, " stats:");
		long long got;
		int t;

		if (st && strncmp(line, "Aggregated", 10)) {
			snprintf(event, sizeof(event), "%.*s", (int)(st - line), line);
			continue;
		}
		if (sscanf(line, " %63s events: %llu", name, &n) != 2 || !strcmp(name, "TOTAL"))
			continue;
		t = type_by_name(name);
		got = event[0] ? samples_of(s, c, event) :
		      t < 0 ? -1 : (long long)s->stats.nr_events[t];
		if (got != (long long)n) {
			fprintf(stderr, "%s: %s %s events: %lld, perf says %llu\n", oracle, event,
				name, got, n);
			fclose(f);
			return -1;
		}
		checked++;
	}
	fclose(f);
	if (!checked)
		fprintf(stderr, "%s: no counts found\n", oracle);
	return checked ? 0 : -1;
}

TPERF_TEST(perf_data_fixture_stats, "perf.data: record counts of the fixtures equal perf's")
{
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		char path[512], oracle[600], *slash;
		struct perf_session *s;
		struct collect c;
		struct stat st;
		int err;

		snprintf(path, sizeof(path), "%s", test_data_path(fixtures[i]));
		if (i == 0 && stat(path, &st))
			return test_missing_fixture("no test data at %s", path);
		c.tool.skip_unknown = true;
		err = read_all(path, &c, true, &s);
		if (i == sizeof(fixtures) / sizeof(fixtures[0]) - 1) {
			/*
			 * perf 6.16's COMPRESSED2 (type 83), which perf 6.1 cannot
			 * read: its one record holds the samples (perf's stderr
			 * text follows the stream in that file).
			 */
			TEST_ASSERT_EQUAL("type 83 is read", err, 0);
			TEST_ASSERT_EQUAL("COMPRESSED2 counted",
					  s->stats.nr_events[PERF_RECORD_COMPRESSED2], 1);
			TEST_ASSERT_EQUAL("not as COMPRESSED",
					  s->stats.nr_events[PERF_RECORD_COMPRESSED], 0);
			TEST_ASSERT_EQUAL("its samples", s->stats.nr_events[PERF_RECORD_SAMPLE], 7);
			perf_session__delete(s);
			continue;
		}
		TEST_ASSERT_EQUAL(fixtures[i], err, 0);
		TEST_ASSERT_VAL("read some records", s->stats.nr_records > 0);
		TEST_ASSERT_EQUAL("every sample has its event", s->stats.nr_unknown_id, 0);
		snprintf(oracle, sizeof(oracle), "%s", path);
		slash = strrchr(oracle, '/');
		if (strstr(fixtures[i], "kdab-uprobe"))
			strcat(oracle, ".expected-perf-stats.txt");
		else
			strcpy(slash + 1, "expected-perf-stats.txt");
		if (!stat(oracle, &st) && st.st_size && !strstr(fixtures[i], "stream") &&
		    check_stats(oracle, s, &c)) {
			perf_session__delete(s);
			return TEST_FAIL;
		}
		perf_session__delete(s);
	}
	return TEST_OK;
}

/* ---- corruption ---- */

static int read_file_bytes(const char *path, u8 **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*buf = malloc(n);
	*len = fread(*buf, 1, n, f);
	fclose(f);
	return 0;
}

static int read_mutant(const char *path, const u8 *buf, size_t len)
{
	struct collect c;
	FILE *f = fopen(path, "wb");
	int err;

	fwrite(buf, 1, len, f);
	fclose(f);
	memset(&c, 0, sizeof(c));
	c.tool.skip_unknown = false;
	{
		struct perf_session *s;
		char msg[512];

		s = perf_session__new(path, &err, msg, sizeof(msg));
		if (!s)
			return err < 0 && msg[0] ? 0 : -1;
		c.tool.sample = on_sample;
		c.tool.ordered_events = true;
		err = perf_session__process_events(s, &c.tool);
		if (err && !s->errmsg[0])
			err = 1;	/* an error without a message */
		perf_session__delete(s);
	}
	return err > 0 ? -1 : 0;
}

TPERF_TEST(perf_data_corruption, "perf.data: truncated and bit-flipped files never crash")
{
	static const char *const files[] = {
		"kdab-lbr-callstack/perf.lbr.data",
		"pdc-pipe-mode-6.12/perf.data.piped.header_features_aligned-6.12",
		"kdab-zstd-sched-switch-dwarf/perf.data.zstd",
		"kdab-uprobe-tracepoint/probe.data.stream",
	};
	const char *mutant = tmpfile_path("mutant.data");
	unsigned int seed = 1;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		u8 *buf, *copy;
		size_t len;

		if (read_file_bytes(test_data_path(files[i]), &buf, &len))
			return test_missing_fixture("no test data");
		copy = malloc(len);
		for (size_t cut = 0; cut < len; cut += 1 + len / 150)
			TEST_ASSERT_EQUAL("truncated", read_mutant(mutant, buf, cut), 0);
		for (int k = 0; k < 300; k++) {
			size_t head = len < 2048 ? len : 2048;
			size_t pos = (size_t)rand_r(&seed) % (k < 150 ? head : len);

			memcpy(copy, buf, len);
			copy[pos] ^= (u8)(1u << (rand_r(&seed) % 8));
			if (k % 3 == 0)	/* a record size or count set to an extreme */
				copy[pos] = 0xff;
			TEST_ASSERT_EQUAL("bit flip", read_mutant(mutant, copy, len), 0);
		}
		free(copy);
		free(buf);
	}
	return TEST_OK;
}

/* ---- Linux perf reads what we write ---- */

static int run(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t n;

	if (!p)
		return -1;
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	return pclose(p);
}

TPERF_TEST(perf_data_read_by_perf, "perf.data: Linux perf reads the files we write")
{
	struct perf_header h;
	struct perf_data d = { 0 };
	static const u64 times[] = { 1000, 2000, 0, 3000 };
	const char *path = tmpfile_path("for-perf.data");
	char cmd[1024], out[8192], want[4096], name[64], line[2048];
	const char *argv[] = { "tperf", "test" };

	if (system("perf --version >/dev/null 2>&1"))
		return test_skip("Linux perf is not installed");
	two_events(&h);
	perf_env__init_local(&h.env, 2, argv);
	h.env.first_sample_time = 1000;
	h.env.last_sample_time = 3000;
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	TEST_ASSERT_EQUAL("write", write_records(&d, &h, times, 4), 0);
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);

	want[0] = '\0';
	for (int i = 0; i < h.nr_attrs; i++) {
		perf_attr__default_name(&h.attrs[i].attr, name, sizeof(name));
		perf_attr__snprint_line(&h.attrs[i].attr, line, sizeof(line));
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s\n", name, line);
	}
	snprintf(cmd, sizeof(cmd), "perf evlist -v -i %s 2>&1", path);
	TEST_ASSERT_EQUAL("perf evlist exit", run(cmd, out, sizeof(out)), 0);
	TEST_ASSERT_STR("perf evlist -v", out, want);
	snprintf(cmd, sizeof(cmd), "perf report --header-only -i %s 2>&1 >/dev/null", path);
	TEST_ASSERT_EQUAL("perf report --header-only exit", run(cmd, out, sizeof(out)), 0);
	TEST_ASSERT_STR("no warning", out, "");
	snprintf(cmd, sizeof(cmd), "perf report --header-only -i %s 2>/dev/null | "
		 "grep -e '^# hostname' -e '^# nrcpus online' -e '^# sample duration'", path);
	TEST_ASSERT_EQUAL("header fields", run(cmd, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "# hostname : %s\n# nrcpus online : %u\n"
		 "# sample duration :      0.002 ms\n", h.env.hostname, h.env.nr_cpus_online);
	TEST_ASSERT_STR("perf's header dump", out, want);
	snprintf(cmd, sizeof(cmd), "perf report --stats -i %s 2>&1 | grep -c 'SAMPLE events'",
		 path);
	run(cmd, out, sizeof(out));
	TEST_ASSERT_VAL("perf counts the samples", atoi(out) >= 1);

	/* pipe mode too */
	{
		char ppath[600];
		int fd, saved = dup(1);
		struct perf_data pd = { 0 };

		snprintf(ppath, sizeof(ppath), "%s.pipe", path);
		fd = open(ppath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		TEST_ASSERT_VAL("pipe file", fd >= 0 && saved >= 0);
		dup2(fd, 1);
		close(fd);
		TEST_ASSERT_EQUAL("open pipe", perf_data__open_write(&pd, "-", &h), 0);
		TEST_ASSERT_EQUAL("write pipe", write_records(&pd, &h, times, 4), 0);
		TEST_ASSERT_EQUAL("finish pipe", perf_data__finish(&pd), 0);
		dup2(saved, 1);
		close(saved);
		snprintf(cmd, sizeof(cmd), "perf evlist -v -i %s 2>&1", ppath);
		TEST_ASSERT_EQUAL("perf evlist exit (pipe)", run(cmd, out, sizeof(out)), 0);
		want[0] = '\0';
		for (int i = 0; i < h.nr_attrs; i++) {
			perf_attr__default_name(&h.attrs[i].attr, name, sizeof(name));
			perf_attr__snprint_line(&h.attrs[i].attr, line, sizeof(line));
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s\n",
				 name, line);
		}
		TEST_ASSERT_STR("perf evlist -v (pipe)", out, want);
		snprintf(cmd, sizeof(cmd), "perf report --stats -i %s 2>&1 >/dev/null", ppath);
		TEST_ASSERT_EQUAL("perf report --stats (pipe)", run(cmd, out, sizeof(out)), 0);
		TEST_ASSERT_STR("no warning (pipe)", out, "");
	}

	/* this machine's values: the same as in a file perf records here */
#define HOSTLINES "2>/dev/null | grep -E '^# (os release|arch|nrcpus|cpudesc|cpuid|total memory|" \
		  "sibling|CPU [0-9]|node[0-9]+ cpu list)'"
	snprintf(cmd, sizeof(cmd), "perf record -q -e cpu-clock -o %s.perf -- true 2>/dev/null && "
		 "perf report --header-only -I -i %s.perf " HOSTLINES, path, path);
	if (run(cmd, want, sizeof(want)))
		return test_skip("perf record cannot record here");
	snprintf(cmd, sizeof(cmd), "perf report --header-only -I -i %s " HOSTLINES, path);
	run(cmd, out, sizeof(out));
	TEST_ASSERT_STR("host features", out, want);
	perf_header__exit(&h);
	return TEST_OK;
}

TPERF_TEST(perf_data_perf_recorded, "perf.data: files perf records here (file, pipe, -z, dir)")
{
	static const char *const modes[] = { "-o %s", "-o - > %s", "-z -o %s",
					      "--threads -o %s" /* the directory format */ };
	char path[512], oracle[600], cmd[2048];

	if (system("perf --version >/dev/null 2>&1"))
		return test_skip("Linux perf is not installed");
	for (int i = 0; i < 4; i++) {
		struct perf_session *s;
		struct collect c;
		int n;

		snprintf(path, sizeof(path), "%s%d", tmpfile_path("recorded.data"), i);
		n = snprintf(cmd, sizeof(cmd), "perf record -q -e cpu-clock -F 999 ");
		snprintf(cmd + n, sizeof(cmd) - n, modes[i], path);
		/* a workload that runs on the CPU, so cpu-clock samples it */
		strcat(cmd, " -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>/dev/null");
		if (system(cmd)) {
			if (i == 3)
				break;	/* a perf without --threads */
			return test_skip("perf record cannot record cpu-clock here");
		}
		snprintf(oracle, sizeof(oracle), "%s.stats", path);
		snprintf(cmd, sizeof(cmd), "perf report --stats -i %s > %s 2>/dev/null", path,
			 oracle);
		TEST_ASSERT_EQUAL("perf report --stats", system(cmd), 0);
		c.tool.skip_unknown = false;
		TEST_ASSERT_EQUAL(modes[i], read_all(path, &c, true, &s), 0);
		TEST_ASSERT_STR("no warning", s->warnmsg, "");
		TEST_ASSERT_VAL("samples", c.nr_cpu_clock > 0);
		TEST_ASSERT_EQUAL("every sample has its event", s->stats.nr_unknown_id, 0);
		if (i == 2)
			TEST_ASSERT_VAL("compressed", s->data.nr_compressed > 0);
		if (i == 3)
			TEST_ASSERT_VAL("directory", s->data.is_dir);
		if (check_stats(oracle, s, &c)) {
			perf_session__delete(s);
			return TEST_FAIL;
		}
		perf_session__delete(s);
	}
	return TEST_OK;
}

/* Write @h in pipe mode to @path (stdout redirected). */
static int write_pipe_file(const char *path, struct perf_header *h)
{
	struct perf_data pd = { 0 };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), saved = dup(1), err;

	if (fd < 0 || saved < 0)
		return -1;
	dup2(fd, 1);
	close(fd);
	err = perf_data__open_write(&pd, "-", h) || perf_data__finish(&pd);
	dup2(saved, 1);
	close(saved);
	return err;
}

TPERF_TEST(perf_data_attr_names_vs_perf, "perf.data: generated event names equal perf's")
{
	static const struct perf_event_attr attrs[] = {
		{ .type = PERF_TYPE_HARDWARE, .config = 0, .exclude_kernel = 1, .exclude_hv = 1 },
		{ .type = PERF_TYPE_HARDWARE, .config = 1, .precise_ip = 2 },
		{ .type = PERF_TYPE_HARDWARE, .config = 9, .exclude_user = 1, .exclude_guest = 1 },
		{ .type = PERF_TYPE_HARDWARE, .config = 42 },
		{ .type = PERF_TYPE_SOFTWARE, .config = 9, .exclude_host = 1 },
		{ .type = PERF_TYPE_SOFTWARE, .config = 3, .exclude_guest = 1, .exclude_idle = 1 },
		{ .type = PERF_TYPE_HW_CACHE, .config = 0x10000, .exclude_guest = 1 },
		{ .type = PERF_TYPE_HW_CACHE, .config = 0x00103, .exclude_guest = 1 },
		{ .type = PERF_TYPE_HW_CACHE, .config = 0x10205, .exclude_guest = 1 },
		{ .type = PERF_TYPE_RAW, .config = 0x1cd, .precise_ip = 3, .exclude_guest = 1 },
		{ .type = PERF_TYPE_BREAKPOINT, .bp_type = 3, .bp_addr = 0x1000, .bp_len = 4,
		  .exclude_guest = 1 },
		{ .type = PERF_TYPE_TRACEPOINT, .config = 0x13d, .exclude_guest = 1 },
		{ .type = 11, .config = 0x10, .exclude_guest = 1 },
		{ .type = PERF_TYPE_SOFTWARE, .exclude_guest = 1, .sample_period = 7,
		  .sample_type = PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_WEIGHT_STRUCT |
				 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_AUX |
				 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE |
				 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_READ,
		  .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HW_INDEX |
					PERF_SAMPLE_BRANCH_PRIV_SAVE | PERF_SAMPLE_BRANCH_TYPE_SAVE,
		  .pinned = 1, .inherit_stat = 1, .watermark = 1, .wakeup_watermark = 4096,
		  .use_clockid = 1, .clockid = 4, .context_switch = 1, .write_backward = 1,
		  .namespaces = 1, .aux_output = 1, .cgroup = 1, .text_poke = 1, .build_id = 1,
		  .inherit_thread = 1, .remove_on_exec = 1, .sigtrap = 1, .sig_data = 5,
		  .sample_regs_intr = 0xff, .aux_watermark = 8, .sample_max_stack = 127,
		  .aux_sample_size = 64, .exclude_callchain_kernel = 1, .exclusive = 1 },
	};
	const char *path = tmpfile_path("names.pipe");
	struct perf_header h;
	char cmd[1024], out[16384], want[16384], name[128], line[4096];
	u64 id = 1;

	if (system("perf --version >/dev/null 2>&1"))
		return test_skip("Linux perf is not installed");
	perf_header__init(&h);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++, id++) {
		struct perf_event_attr a = attrs[i];

		a.size = sizeof(a);
		if (!a.sample_type)
			a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID;
		perf_header__add_attr(&h, &a, sizeof(a), &id, 1);
	}
	TEST_ASSERT_EQUAL("write", write_pipe_file(path, &h), 0);
	want[0] = '\0';
	for (int i = 0; i < h.nr_attrs; i++) {
		perf_attr__default_name(&h.attrs[i].attr, name, sizeof(name));
		perf_attr__snprint_line(&h.attrs[i].attr, line, sizeof(line));
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s\n", name, line);
	}
	strcat(want, "# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint "
		     "events\n");
	snprintf(cmd, sizeof(cmd), "perf evlist -v -i %s 2>&1", path);
	TEST_ASSERT_EQUAL("perf evlist exit", run(cmd, out, sizeof(out)), 0);
	TEST_ASSERT_STR("perf evlist -v", out, want);
	perf_header__exit(&h);
	return TEST_OK;
}

/*
 * The fuzzer's seeds: seed-* read without error, err-* are refused with a
 * message, trunc-* read up to the record the file ends inside (a payload far
 * larger than the file), with the warning that says so.
 */
TPERF_TEST(perf_data_fuzz_seeds, "perf.data: the fuzz seed corpus (seed-* read, err-* not, trunc-* in part)")
{
	char dir[4096];
	struct dirent *de;
	int nr = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/../fuzz/corpus/perf-data", test_data_path(""));
	d = opendir(dir);
	if (!d)
		return test_missing_fixture("no seed corpus at %s", dir);
	while ((de = readdir(d))) {
		bool trunc = !strncmp(de->d_name, "trunc-", 6);
		bool valid = trunc || !strncmp(de->d_name, "seed-", 5);
		struct perf_session *s;
		struct collect c;
		char path[8300], msg[512] = "";
		int err;

		if (!valid && strncmp(de->d_name, "err-", 4))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		memset(&c, 0, sizeof(c));
		c.tool.sample = on_sample;
		c.tool.ordered_events = true;
		s = perf_session__new(path, &err, msg, sizeof(msg));
		if (s) {
			err = perf_session__process_events(s, &c.tool);
			if (err && !s->errmsg[0])
				TEST_FAILED_AT("%s: an error without a message", de->d_name);
			if (!err && trunc && !(s->data.truncated && s->warnmsg[0])) {
				TEST_FAILED_AT("%s: no truncation warning", de->d_name);
				err = -EINVAL;
			}
			perf_session__delete(s);
		} else if (!msg[0]) {
			TEST_FAILED_AT("%s: refused without a message", de->d_name);
			err = 0;
		}
		if (valid ? err != 0 : err == 0) {
			TEST_FAILED_AT("%s: %s", de->d_name, valid ? "refused" : "accepted");
			closedir(d);
			return TEST_FAIL;
		}
		nr++;
	}
	closedir(d);
	TEST_ASSERT_VAL("seeds found", nr >= 8);
	return TEST_OK;
}

/* Samples whose time must come in order, each with its address (ip = 0x400000 + time). */
struct in_order {
	struct perf_tool tool;
	u64 next, bad;
};

static int on_in_order(struct perf_tool *t, struct perf_session *s, const union perf_event *ev,
		       struct perf_sample *sample, struct perf_header_attr *a)
{
	struct in_order *o = (struct in_order *)t;

	if (sample->time != o->next || sample->ip != 0x400000 + sample->time)
		o->bad++;
	o->next = sample->time + 1;
	return 0;
}

static int read_in_order(const char *path, u64 *bad, u64 *next)
{
	struct in_order o = { .tool.sample = on_in_order, .tool.ordered_events = true, .next = 1 };
	struct perf_session *s;
	char msg[512];
	int err;

	s = perf_session__new(path, &err, msg, sizeof(msg));
	if (!s)
		return err;
	err = perf_session__process_events(s, &o.tool);
	perf_session__delete(s);
	*bad = o.bad;
	*next = o.next;
	return err;
}

/*
 * The directory format: the newest third of the samples in its data file,
 * the others in data.0 and data.1, all queued to the end: a new file is
 * read into a new block, not over the records of the last one.
 */
static int held_blocks_dir(void)
{
	enum { N = 90000 };
	struct perf_header h;
	struct perf_data d = { 0 };
	const char *dir = tmpfile_path("blocks.dir");
	char path[600];
	u64 buf[64], bad, next;
	int fd = -1;

	two_events(&h);
	TEST_ASSERT_VAL("mkdir", !mkdir(dir, 0700) || errno == EEXIST);
	snprintf(path, sizeof(path), "%s/data", dir);
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	for (u64 t = N; t >= 1; t--) {
		int len = sample(&h, t % 2 ? 200 : 100, t, buf);

		TEST_ASSERT_VAL("sample", len > 0);
		if (t == 2 * N / 3 || t == N / 3) {	/* the next file */
			if (fd >= 0)
				close(fd);
			snprintf(path, sizeof(path), "%s/data.%d", dir, t == N / 3);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			TEST_ASSERT_VAL("data.N", fd >= 0);
		}
		if (fd < 0)
			TEST_ASSERT_VAL("write", !perf_data__write(&d, buf, len));
		else
			TEST_ASSERT_VAL("write data.N", write(fd, buf, len) == len);
	}
	close(fd);
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);
	TEST_ASSERT_EQUAL("read", read_in_order(dir, &bad, &next), 0);
	TEST_ASSERT_EQUAL("directory: all, in order", next, N + 1);
	TEST_ASSERT_EQUAL("directory: intact", bad, 0);
	perf_header__exit(&h);
	return TEST_OK;
}

/*
 * Records are read into blocks of a MB and queued where they are (held):
 * with no FINISHED_ROUND all of 6 MB stay queued to the end, newest first,
 * so a block read into again while it is held would show.  A file, and
 * the same records in pipe mode, as a file and through a pipe (stdin).
 */
TPERF_TEST(perf_data_held_blocks, "perf.data: queued records stay whole across read blocks and files")
{
	enum { N = 100000 };
	struct perf_header h;
	struct perf_data d = { 0 };
	const char *path = tmpfile_path("blocks.data");
	char pipe_path[512];
	u64 buf[64], bad, next;
	int fd, saved, err;

	two_events(&h);
	TEST_ASSERT_EQUAL("open", perf_data__open_write(&d, path, &h), 0);
	for (u64 t = N; t >= 1; t--) {
		int len = sample(&h, t % 2 ? 200 : 100, t, buf);

		TEST_ASSERT_VAL("write", len > 0 && !perf_data__write(&d, buf, len));
	}
	TEST_ASSERT_EQUAL("finish", perf_data__finish(&d), 0);
	TEST_ASSERT_EQUAL("read", read_in_order(path, &bad, &next), 0);
	TEST_ASSERT_EQUAL("file: all, in order", next, N + 1);
	TEST_ASSERT_EQUAL("file: intact", bad, 0);

	snprintf(pipe_path, sizeof(pipe_path), "%s", tmpfile_path("blocks.pipe"));
	fd = open(pipe_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	saved = dup(1);
	TEST_ASSERT_VAL("temp file", fd >= 0 && saved >= 0);
	memset(&d, 0, sizeof(d));
	dup2(fd, 1);
	close(fd);
	err = perf_data__open_write(&d, "-", &h);
	for (u64 t = N; !err && t >= 1; t--) {
		int len = sample(&h, t % 2 ? 200 : 100, t, buf);

		err = len > 0 ? perf_data__write(&d, buf, len) : -1;
	}
	err = err ?: perf_data__finish(&d);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	TEST_ASSERT_EQUAL("pipe write", err, 0);
	TEST_ASSERT_EQUAL("pipe-mode file", read_in_order(pipe_path, &bad, &next), 0);
	TEST_ASSERT_EQUAL("pipe-mode file: all, in order", next, N + 1);
	TEST_ASSERT_EQUAL("pipe-mode file: intact", bad, 0);
	fd = open(pipe_path, O_RDONLY);
	saved = dup(0);
	TEST_ASSERT_VAL("stdin", fd >= 0 && saved >= 0);
	dup2(fd, 0);
	close(fd);
	err = read_in_order("-", &bad, &next);
	dup2(saved, 0);
	close(saved);
	TEST_ASSERT_EQUAL("pipe read", err, 0);
	TEST_ASSERT_EQUAL("pipe: all, in order", next, N + 1);
	TEST_ASSERT_EQUAL("pipe: intact", bad, 0);
	perf_header__exit(&h);
	return held_blocks_dir();
}

/* LOST (@lost_records of them) and one LOST_SAMPLES of @lost_samples after 20 samples */
static int lost_file(const char *path, int lost_records, u64 lost_samples)
{
	static const u64 times[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
				       17, 18, 19, 20 };
	struct perf_header h;
	struct perf_data d = { 0 };
	u64 buf[8] = { 0 };
	struct perf_event_header *eh = (void *)buf;
	int err;

	two_events(&h);
	err = perf_data__open_write(&d, path, &h) || write_records(&d, &h, times, 20);
	for (int i = 0; !err && i < lost_records; i++) {
		*eh = (struct perf_event_header){ PERF_RECORD_LOST, 0, 24 + 24 };
		buf[1] = 100;
		buf[2] = 3;
		err = perf_data__write(&d, buf, eh->size);
	}
	if (!err && lost_samples) {
		memset(buf, 0, sizeof(buf));
		*eh = (struct perf_event_header){ PERF_RECORD_LOST_SAMPLES, 0, 16 + 24 };
		buf[1] = lost_samples;
		err = perf_data__write(&d, buf, eh->size);
	}
	err = err || perf_data__finish(&d);
	perf_header__exit(&h);
	return err;
}

TPERF_TEST(perf_data_lost_warnings, "perf.data: perf 6.1's warnings about LOST and LOST_SAMPLES")
{
	const char *path = tmpfile_path("lost.data");
	struct perf_session *s;
	struct collect c;
	char buf[512];

	TEST_ASSERT_EQUAL("lossy file", lost_file(path, 2, 5), 0);
	TEST_ASSERT_EQUAL("read", read_all(path, &c, true, &s), 0);
	TEST_ASSERT_EQUAL("counted", s->stats.total_lost_samples, 5);
	perf_session__lost_warnings(s, true, buf, sizeof(buf));
	/* 20 samples, 2 LOST, 1 LOST_SAMPLES */
	TEST_ASSERT_STR("chunks and 20% lost", buf,
			"Warning:\nProcessed 23 events and lost 2 chunks!\n\n"
			"Check IO/CPU overload!\n\n"
			"Warning:\nProcessed 25 samples and lost 20.00%!\n\n");
	perf_session__lost_warnings(s, false, buf, sizeof(buf));
	TEST_ASSERT_STR("no chunks", buf, "Warning:\nProcessed 25 samples and lost 20.00%!\n\n");
	perf_session__delete(s);

	TEST_ASSERT_EQUAL("1 lost of 21: under 5%", lost_file(path, 0, 1), 0);
	TEST_ASSERT_EQUAL("read again", read_all(path, &c, true, &s), 0);
	perf_session__lost_warnings(s, true, buf, sizeof(buf));
	TEST_ASSERT_STR("silent", buf, "");
	perf_session__delete(s);
	return TEST_OK;
}
