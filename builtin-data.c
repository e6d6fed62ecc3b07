// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf data convert: a perf.data into perf 6.1's JSON layout or into CTF,
 * as `perf data convert` writes them (util/convert/).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "util/convert/convert.h"
#include "util/lib/config.h"
#include "util/lib/debug.h"
#include "util/lib/parse-options.h"
#include "util/model/machine.h"
#include "util/perf-data/session.h"
#include "util/report/reader.h"

struct data_convert {
	const char *input, *to_json, *to_ctf, *to_pprof;
	bool force, all, tod;
	bool out_regular;		/* the JSON/pprof output is a regular file */
	struct convert_ctf_opts ctf;
	struct machine machine;
	struct perf_session *session;
	struct convert_stats st;
};

/* The output file (JSON, pprof): a new one, or with -f the old one truncated (perf's rule). */
static int open_output(struct data_convert *dc, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (dc->force ? O_TRUNC : O_EXCL), 0666);
	struct stat st;

	if (fd >= 0) {
		dc->out_regular = !fstat(fd, &st) && S_ISREG(st.st_mode);
		return fd;
	}
	if (errno == EEXIST)
		ui__error("cannot write '%s': the file exists; use -f/--force to overwrite it", path);
	else
		ui__error("cannot open '%s' for writing: %s", path, strerror(errno));
	return -1;
}

/* After a failed conversion: no half file left (a device or a pipe stays). */
static void remove_output(const struct data_convert *dc, const char *path)
{
	if (dc->out_regular)
		unlink(path);
}

static FILE *open_json(struct data_convert *dc)
{
	int fd = open_output(dc, dc->to_json);
	FILE *fp;

	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "w");
	if (!fp) {
		ui__error("cannot open '%s' for writing: %s", dc->to_json, strerror(errno));
		close(fd);
	}
	return fp;
}

/* -v: how many samples of each event went out (and into each CPU's stream). */
static void print_verbose(struct data_convert *dc)
{
	struct perf_header *h = dc->session->header;
	char buf[256];

	if (tperf_config.verbose <= 0)
		return;
	for (int i = 0; i < dc->st.nr_attrs && i < h->nr_attrs; i++)
		fprintf(stderr, "  %s: %" PRIu64 " samples\n",
			perf_header__event_name(h, &h->attrs[i], buf, sizeof(buf)), dc->st.per_attr[i]);
	for (int c = 0; c < dc->st.nr_cpus; c++)
		if (dc->st.per_cpu[c])
			fprintf(stderr, "  perf_stream_%d: %" PRIu64 " events\n", c, dc->st.per_cpu[c]);
}

/* perf's two summary lines on stderr. */
static void print_summary(struct data_convert *dc, double mb)
{
	const char *kind = dc->to_json ? "JSON" : dc->to_ctf ? "CTF" : "pprof";
	const char *out = dc->to_json ? dc->to_json : dc->to_ctf ? dc->to_ctf : dc->to_pprof;

	fprintf(stderr, "[ tperf data convert: Converted '%s' into %s data '%s' ]\n", dc->input,
		kind, out);
	fprintf(stderr, "[ tperf data convert: Converted and wrote %.3f MB (%" PRIu64 " samples",
		mb, dc->st.samples);
	if (dc->st.non_samples)
		fprintf(stderr, ", %" PRIu64 " non-samples", dc->st.non_samples);
	fprintf(stderr, ") ]\n");
	print_verbose(dc);
}

static int convert_to_json(struct data_convert *dc)
{
	char msg[512];
	double mb;
	FILE *fp = open_json(dc);
	int err;

	if (!fp)
		return -1;
	err = convert_json__write(fp, dc->session, &dc->machine, dc->input, &dc->st, msg,
				  sizeof(msg));
	mb = ftell(fp) / 1024.0 / 1024.0;
	if (fclose(fp) && !err)
		err = -EIO;
	if (err)
		remove_output(dc, dc->to_json);
	if (err == -ENOTSUP)
		ui__error("%s", msg);
	else if (err == -ENOMEM)
		ui__error("out of memory converting '%s'", dc->input);
	else if (err == -EIO)
		ui__error("cannot write '%s': %s", dc->to_json, strerror(errno ? errno : EIO));
	else if (err && dc->session->errmsg[0])
		ui__error("%s", dc->session->errmsg);
	else if (err)
		ui__error("cannot convert '%s': %s", dc->input, strerror(-err));
	if (!err)
		print_summary(dc, mb);
	return err;
}

/* Why a conversion to @what (CTF, pprof) failed: the writer's @msg first. */
static void convert_failed(const struct data_convert *dc, int err, const char *msg,
			   const char *what)
{
	if (err == -ENOMEM)
		ui__error("out of memory converting '%s'", dc->input);
	else if (msg[0])
		ui__error("%s", msg);
	else if (dc->session->errmsg[0])
		ui__error("%s", dc->session->errmsg);
	else
		ui__error("cannot convert '%s' to %s: %s", dc->input, what, strerror(-err));
}

static int convert_to_ctf(struct data_convert *dc)
{
	char msg[512] = "";
	int err;

	dc->ctf.all = dc->all;
	dc->ctf.tod = dc->tod;
	dc->ctf.force = dc->force;
	err = convert_ctf__write(dc->to_ctf, &dc->ctf, dc->session, &dc->st, msg, sizeof(msg));
	if (err)
		convert_failed(dc, err, msg, "CTF");
	else
		print_summary(dc, dc->st.bytes / 1024.0 / 1024.0);
	return err;
}

static int convert_to_pprof(struct data_convert *dc)
{
	char msg[512] = "";
	int fd = open_output(dc, dc->to_pprof);
	int err;

	if (fd < 0)
		return -1;
	err = convert_pprof__write(fd, dc->session, &dc->machine, &dc->st, msg, sizeof(msg));
	if (err)
		remove_output(dc, dc->to_pprof);
	if (err)
		convert_failed(dc, err, msg, "pprof");
	else
		print_summary(dc, dc->st.bytes / 1024.0 / 1024.0);
	return err;
}

static int run_convert(struct data_convert *dc)
{
	const struct reader_opts ro = { .input = dc->input, .inline_frames = false };
	char msg[512];
	int err;

	dc->session = reader__open(&ro, builtin__progress(), msg, sizeof(msg));
	if (!dc->session) {
		ui__error("%s", msg);
		return 1;
	}
	if (!dc->to_ctf) {	/* CTF has addresses only: no model to build */
		err = reader__machine(&dc->machine, &ro, dc->session, true, builtin__say);
		if (err)
			ui__error("out of memory reading '%s'", dc->input);
		else
			err = dc->to_json ? convert_to_json(dc) : convert_to_pprof(dc);
		machine__exit(&dc->machine);
	} else {
		err = convert_to_ctf(dc);
	}
	if (!err && dc->session->warnmsg[0])
		ui__warning("%s", dc->session->warnmsg);
	convert_stats__exit(&dc->st);
	perf_session__delete(dc->session);
	return err ? 1 : 0;
}

/* @named: "convert" was given (`tperf data -h` shows convert's options too). */
static int data_convert(int argc, const char **argv, bool named)
{
	struct data_convert dc = { 0 };
	const struct option options[] = {
		OPT_BOOLEAN('f', "force", &dc.force,
			    "overwrite the output file (JSON) or the CTF files of the output directory"),
		OPT_STRING('i', "input", &dc.input, "file", "input file name"),
		OPT_INCR('v', "verbose", &tperf_config.verbose,
			 "be more verbose (samples per event, events per CTF stream)"),
		OPT_BOOLEAN(0, "all", &dc.all, "Convert all events (CTF: COMM, FORK, EXIT, MMAP, MMAP2 too)"),
		OPT_STRING(0, "to-ctf", &dc.to_ctf, "dir", "Convert to CTF format"),
		OPT_STRING(0, "to-json", &dc.to_json, "file", "Convert to JSON format"),
		OPT_STRING(0, "to-pprof", &dc.to_pprof, "file",
			   "Convert to pprof's gzipped profile.proto (for Go's pprof)"),
		OPT_BOOLEAN(0, "tod", &dc.tod, "Convert time to wall clock time (CTF)"),
		OPT_END()
	};
	const char *const usage[] = { "tperf data convert [<options>]", NULL };

	argc = parse_options(argc, argv, options, usage, 0);
	if (!named)
		usage_with_options_msg(usage, options, "missing command: 'tperf data convert'");
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	if (!dc.to_ctf && !dc.to_json && !dc.to_pprof)
		usage_with_options_msg(usage, options, "nothing to do: give --to-ctf DIR, --to-json FILE or --to-pprof FILE");
	if (!!dc.to_ctf + !!dc.to_json + !!dc.to_pprof > 1)
		usage_with_options_msg(usage, options, "give only one of --to-ctf, --to-json and --to-pprof");
	if (dc.to_pprof && (dc.all || dc.tod))
		usage_with_options_msg(usage, options, "--%s is not supported with --to-pprof (a profile has samples only; its start is on the wall clock when the file has clock data)",
				       dc.all ? "all" : "tod");
	if (dc.to_pprof && !convert_pprof__available()) {
		ui__error("cannot convert to pprof: tperf was built without protobuf-c; install libprotobuf-c-dev and protobuf-c-compiler and rebuild");
		return 1;
	}
	if (dc.to_json && dc.all)
		usage_with_options_msg(usage, options, "--all is not supported with --to-json (perf 6.1's JSON has samples only); use --to-ctf");
	if (dc.to_json && dc.tod)
		usage_with_options_msg(usage, options, "--tod is not supported with --to-json (its timestamps are the sample clock's, as perf's); use --to-ctf");
	if (dc.to_ctf && !convert_ctf__available()) {
		ui__error("cannot convert to CTF: tperf was built without libbabeltrace-ctf; install libbabeltrace-ctf-dev and rebuild");
		return 1;
	}
	if (!dc.input || !*dc.input)
		dc.input = perf_data__default_input();
	return run_convert(&dc);
}

int cmd_data(int argc, const char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "convert"))
		return data_convert(argc - 1, argv + 1, true);
	if (argc > 1 && argv[1][0] != '-')
		die_usage("unknown command 'data %s': the only one is 'tperf data convert'", argv[1]);
	return data_convert(argc, argv, false);
}
