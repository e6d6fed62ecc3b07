// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "# ========" block of `report --header` as perf 6.1 prints it: the
 * file's header fields, then one or more lines for each feature section
 * present, in feature order, then the features missing.  Sections are read
 * raw (the file's bytes, or a pipe's HEADER_FEATURE payload) so that every
 * feature prints from what the file holds.  Topologies, caches and memory
 * only say that they are there, as perf does without -I.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/lib/io.h"
#include "util/perf-data/header-print.h"
#include "util/event/perf-attr.h"

struct raw {
	const u8 *p, *end;
};

static int raw_u32(struct raw *r, u32 *v)
{
	if (r->end - r->p < 4)
		return -EINVAL;
	memcpy(v, r->p, 4);
	r->p += 4;
	return 0;
}

static int raw_u64(struct raw *r, u64 *v)
{
	if (r->end - r->p < 8)
		return -EINVAL;
	memcpy(v, r->p, 8);
	r->p += 8;
	return 0;
}

/* perf's string: u32 length (NUL and padding included), then the bytes. */
static int raw_str(struct raw *r, char *buf, size_t size)
{
	u32 len;

	if (raw_u32(r, &len) || len > (size_t)(r->end - r->p))
		return -EINVAL;
	snprintf(buf, size, "%.*s", (int)strnlen((const char *)r->p, len), (const char *)r->p);
	r->p += len;
	return 0;
}

static void attr_field(const char *name, const char *val, void *priv)
{
	fprintf(priv, ", %s = %s", name, val);
}

/* "# event : name = X, , id = { 1, 2 }, type = 1, size = 128, ..." per event */
static void print_event_desc(FILE *fp, struct raw *r)
{
	u32 nr, size, nr_ids;
	char name[1024];

	if (raw_u32(r, &nr) || raw_u32(r, &size) || size < PERF_ATTR_SIZE_VER0)
		return;
	for (u32 i = 0; i < nr; i++) {
		struct perf_event_attr attr;
		const u8 *a = r->p;

		if (size > (size_t)(r->end - r->p))
			return;
		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, a, size < sizeof(attr) ? size : sizeof(attr));
		r->p += size;
		if (raw_u32(r, &nr_ids) || raw_str(r, name, sizeof(name)) ||
		    nr_ids > (size_t)(r->end - r->p) / 8)
			return;
		fprintf(fp, "# event : name = %s, ", name);
		if (nr_ids) {
			fprintf(fp, ", id = {");
			for (u32 k = 0; k < nr_ids; k++) {
				u64 id = 0;

				raw_u64(r, &id);
				fprintf(fp, "%s %" PRIu64, k ? "," : "", id);
			}
			fprintf(fp, " }");
		}
		perf_attr__for_each_field(&attr, attr_field, fp);
		fprintf(fp, "\n");
	}
}

/* "# pmu mappings: cpu = 4, software = 1" */
static void print_pmu_mappings(FILE *fp, struct raw *r)
{
	char name[256];
	u32 nr, type;

	if (raw_u32(r, &nr))
		return;
	fprintf(fp, "# pmu mappings: ");
	if (!nr)
		fprintf(fp, "not available");
	for (u32 i = 0; i < nr; i++) {
		if (raw_u32(r, &type) || raw_str(r, name, sizeof(name)))
			break;
		fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "", name, type);
	}
	fprintf(fp, "\n");
}

/* nr "name=value" pairs after "# @pmu pmu capabilities: " */
static void print_caps(FILE *fp, struct raw *r, u32 nr, const char *pmu)
{
	char name[256], val[256];

	fprintf(fp, "# %s pmu capabilities: ", pmu);
	if (!nr)
		fprintf(fp, "not available");
	for (u32 i = 0; i < nr; i++) {
		if (raw_str(r, name, sizeof(name)) || raw_str(r, val, sizeof(val)))
			break;
		fprintf(fp, "%s%s=%s", i ? ", " : "", name, val);
	}
	fprintf(fp, "\n");
}

static void print_pmu_caps(FILE *fp, struct raw *r)
{
	char pmu[256];
	u32 nr_pmus, nr;

	if (raw_u32(r, &nr_pmus))
		return;
	/* each: u32 nr_caps, the caps, then the PMU's name */
	for (u32 i = 0; i < nr_pmus; i++) {
		struct raw caps;
		char skip[256];

		if (raw_u32(r, &nr))
			return;
		caps = *r;
		for (u32 k = 0; k < 2 * nr; k++)
			if (raw_str(r, skip, sizeof(skip)))
				return;
		if (raw_str(r, pmu, sizeof(pmu)))
			return;
		print_caps(fp, &caps, nr, pmu);
	}
}

static void print_hybrid(FILE *fp, struct raw *r)
{
	char pmu[256], cpus[1024];
	u32 nr;

	if (raw_u32(r, &nr))
		return;
	fprintf(fp, "# hybrid cpu system:\n");
	for (u32 i = 0; i < nr; i++) {
		if (raw_str(r, pmu, sizeof(pmu)) || raw_str(r, cpus, sizeof(cpus)))
			return;
		fprintf(fp, "# %s cpu list : %s\n", pmu, cpus);
	}
}

static const char *clockid_name(u32 id)
{
	static const char *const names[] = { "realtime", "monotonic", NULL, NULL,
					     "monotonic_raw", NULL, NULL, "boottime", NULL,
					     NULL, NULL, "tai" };

	return id < sizeof(names) / sizeof(names[0]) && names[id] ? names[id] : "(not found)";
}

static void print_clock_data(FILE *fp, struct raw *r)
{
	u32 version, clockid;
	u64 tod, clk;
	char date[64] = "<error>";
	struct tm tm;
	time_t sec;

	if (raw_u32(r, &version) || raw_u32(r, &clockid) || raw_u64(r, &tod) ||
	    raw_u64(r, &clk))
		return;
	sec = tod / 1000000000;
	if (localtime_r(&sec, &tm)) {
		char d[48];

		strftime(d, sizeof(d), "%F %T", &tm);
		snprintf(date, sizeof(date), "%s.%06d", d, (int)(tod % 1000000000 / 1000));
	}
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name(clockid), clockid);
	fprintf(fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", date, (long)sec,
		(int)(tod % 1000000000 / 1000), (long)(clk / 1000000000),
		(long)(clk % 1000000000), clockid_name(clockid));
}

static void print_group_desc(FILE *fp, struct perf_header *h)
{
	char buf[256];

	for (int i = 0; i < h->nr_attrs; i++) {
		struct perf_header_attr *a = &h->attrs[i];

		if (a->leader_idx != i || a->nr_members < 2)
			continue;
		fprintf(fp, "# group: %s{%s", a->group_name ? a->group_name : "",
			perf_header__event_name(h, a, buf, sizeof(buf)));
		for (int k = i + 1; k < h->nr_attrs && k < i + (int)a->nr_members; k++)
			fprintf(fp, ",%s", perf_header__event_name(h, &h->attrs[k], buf, sizeof(buf)));
		fprintf(fp, "}\n");
	}
}

static void print_sample_time(FILE *fp, const struct perf_env *e)
{
	u64 f = e->first_sample_time, l = e->last_sample_time;

	fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", f / 1000000000,
		f % 1000000000 / 1000);
	fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", l / 1000000000,
		l % 1000000000 / 1000);
	fprintf(fp, "# sample duration : %10.3f ms\n", (double)(l - f) / 1000000);
}

/* The features that print from what tperf's header reader kept. */
static bool print_env_feature(FILE *fp, struct perf_header *h, int feat)
{
	const struct perf_env *e = &h->env;

	switch (feat) {
	case HEADER_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", e->hostname ? e->hostname : "");
		return true;
	case HEADER_OSRELEASE:
		fprintf(fp, "# os release : %s\n", e->os_release ? e->os_release : "");
		return true;
	case HEADER_VERSION:
		fprintf(fp, "# perf version : %s\n", e->version ? e->version : "");
		return true;
	case HEADER_ARCH:
		fprintf(fp, "# arch : %s\n", e->arch ? e->arch : "");
		return true;
	case HEADER_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", e->nr_cpus_online,
			e->nr_cpus_avail);
		return true;
	case HEADER_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", e->cpu_desc ? e->cpu_desc : "");
		return true;
	case HEADER_CPUID:
		fprintf(fp, "# cpuid : %s\n", e->cpuid ? e->cpuid : "");
		return true;
	case HEADER_TOTAL_MEM:
		fprintf(fp, "# total memory : %" PRIu64 " kB\n", e->total_mem);
		return true;
	case HEADER_CMDLINE:
		fprintf(fp, "# cmdline : ");
		for (int i = 0; i < e->nr_cmdline; i++)
			fprintf(fp, "%s ", e->cmdline[i]);
		fprintf(fp, "\n");
		return true;
	case HEADER_SAMPLE_TIME:
		print_sample_time(fp, e);
		return true;
	case HEADER_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", e->clockid_res_ns * 1000);
		return true;
	case HEADER_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", e->dir_format_version);
		return true;
	case HEADER_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			e->comp_type == 1 ? "Zstd" : "Unknown", (int)e->comp_level,
			(int)e->comp_ratio);
		return true;
	case HEADER_GROUP_DESC:
		print_group_desc(fp, h);
		return true;
	default:
		return false;
	}
}

void perf_header__fprintf_feature(FILE *fp, struct perf_header *h, int feat, const void *buf,
				  size_t size)
{
	struct raw r = { buf, (const u8 *)buf + size };

	if (print_env_feature(fp, h, feat))
		return;
	switch (feat) {
	case HEADER_EVENT_DESC:
		print_event_desc(fp, &r);
		break;
	case HEADER_CPU_TOPOLOGY:
	case HEADER_NUMA_TOPOLOGY:
	case HEADER_CACHE:
	case HEADER_MEM_TOPOLOGY:
		fprintf(fp, "# %s info available, use -I to display\n", perf_header__feat_name(feat));
		break;
	case HEADER_BRANCH_STACK:
		fprintf(fp, "# contains samples with branch stack\n");
		break;
	case HEADER_AUXTRACE:
		fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case HEADER_STAT:
		fprintf(fp, "# contains stat data\n");
		break;
	case HEADER_PMU_MAPPINGS:
		print_pmu_mappings(fp, &r);
		break;
	case HEADER_CPU_PMU_CAPS: {
		u32 nr;

		if (!raw_u32(&r, &nr))
			print_caps(fp, &r, nr, "cpu");
		break;
	}
	case HEADER_PMU_CAPS:
		print_pmu_caps(fp, &r);
		break;
	case HEADER_HYBRID_TOPOLOGY:
		print_hybrid(fp, &r);
		break;
	case HEADER_CLOCK_DATA:
		print_clock_data(fp, &r);
		break;
	default:	/* TRACING_DATA, BUILD_ID, BPF_*: nothing, as perf without -I */
		break;
	}
}

/* One section of the file at @fd, printed. */
static void print_section(FILE *fp, struct perf_header *h, int fd, int feat)
{
	const struct perf_file_section *s = &h->feat_sec[feat];
	void *buf;

	if (s->size > (64u << 20))
		return;
	buf = malloc(s->size + 1);
	if (!buf)
		return;
	if (io__pread_all(fd, buf, s->size, s->offset) == (ssize_t)s->size)
		perf_header__fprintf_feature(fp, h, feat, buf, s->size);
	free(buf);
}

int perf_header__fprintf(FILE *fp, struct perf_header *h, int fd, time_t mtime)
{
	bool pipe = h->pipe;

	fprintf(fp, "# ========\n");
	if (!pipe && mtime)
		fprintf(fp, "# captured on    : %s", ctime(&mtime));
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", pipe ? 0 : (u64)h->data.offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", pipe ? 0 : (u64)h->data.size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n",
		pipe ? 0 : (u64)(h->data.offset + h->data.size));
	if (pipe)
		return ferror(fp) ? -EIO : 0;
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		if (perf_header__has_feat(h, feat))
			print_section(fp, h, fd, feat);
	fprintf(fp, "# missing features: ");
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		if (!perf_header__has_feat(h, feat))
			fprintf(fp, "%s ", perf_header__feat_name(feat));
	fprintf(fp, "\n");
	return ferror(fp) ? -EIO : 0;
}
