// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a pmu-events tree: mapfile.csv to pick the model folder for the
 * CPUID, then the metrics of every *.json file in it (sorted by file name,
 * so the order does not depend on the file system).
 */
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/lib/file.h"
#include "util/lib/json.h"
#include "util/perf-data/header.h"
#include "util/stat/metric-table.h"

#define MAX_JSON_SIZE (64 << 20)
#define MAX_LINE 4096

/**
 * metric_table__cpuid - the CPUID string the table is chosen by
 * @buf: receives "vendor-family-MODEL-STEPPING" (model and stepping in hex)
 * @size: its size
 *
 * Return: 0, -ENOSYS (no CPUID on this architecture) or -ENOSPC.
 */
int metric_table__cpuid(char *buf, size_t size)
{
	const char *env = getenv("PERF_CPUID");
	unsigned int family, model, stepping;
	char raw[128], vendor[64];

	if (env && *env) {
		if ((size_t)snprintf(buf, size, "%s", env) >= size)
			return -ENOSPC;
		return 0;
	}
	if (arch_get_cpuid(raw, sizeof(raw)))
		return -ENOSYS;
	if (sscanf(raw, "%63[^,],%u,%u,%u", vendor, &family, &model, &stepping) != 4)
		return -ENOSYS;
	if ((size_t)snprintf(buf, size, "%s-%u-%X-%X", vendor, family, model, stepping) >= size)
		return -ENOSPC;
	return 0;
}

struct metric_table *metric_table__new(void)
{
	return calloc(1, sizeof(struct metric_table));
}

static void pmu_metric__exit(struct pmu_metric *m)
{
	free(m->name);
	free(m->expr);
	free(m->groups);
	free(m->scale_unit);
	free(m->desc);
	free(m->constraint);
}

void metric_table__delete(struct metric_table *table)
{
	if (!table)
		return;
	for (int i = 0; i < table->nr; i++)
		pmu_metric__exit(&table->metrics[i]);
	free(table->metrics);
	free(table->cpuid);
	free(table->dir);
	free(table);
}

/* The string member @key of @obj, copied: 0 (NULL when absent), -EINVAL, -ENOMEM. */
static int get_str(const struct json_value *obj, const char *key, char **res)
{
	const struct json_value *v = json__get(obj, key);

	*res = NULL;
	if (!v)
		return 0;
	if (v->type != JSON_STRING)
		return -EINVAL;
	*res = strdup(v->str);
	return *res ? 0 : -ENOMEM;
}

static int add_metric(struct metric_table *table, const struct json_value *obj, size_t idx,
		      char *msg, size_t size)
{
	struct pmu_metric m = { NULL }, *t;
	int err;

	err = get_str(obj, "MetricName", &m.name);
	if (!err)
		err = get_str(obj, "MetricExpr", &m.expr);
	if (!err)
		err = get_str(obj, "MetricGroup", &m.groups);
	if (!err)
		err = get_str(obj, "ScaleUnit", &m.scale_unit);
	if (!err)
		err = get_str(obj, "BriefDescription", &m.desc);
	if (!err)
		err = get_str(obj, "MetricConstraint", &m.constraint);
	if (!err && (!m.name || !m.expr || !*m.name)) {
		snprintf(msg, size, "entry %zu: a metric needs a MetricName and a MetricExpr",
			 idx);
		err = -EINVAL;
	} else if (err == -EINVAL) {
		snprintf(msg, size, "entry %zu: a metric's fields must be strings", idx);
	}
	if (err)
		goto fail;
	t = realloc(table->metrics, (table->nr + 1) * sizeof(*t));
	if (!t) {
		err = -ENOMEM;
		goto fail;
	}
	table->metrics = t;
	t[table->nr++] = m;
	return 0;
fail:
	if (err == -ENOMEM)
		snprintf(msg, size, "out of memory");
	pmu_metric__exit(&m);
	return err;
}

/**
 * metric_table__add_json - the metrics of one JSON file
 * @table: receives them
 * @text: the file's text
 * @len: its length
 * @msg: receives the error
 * @size: its size
 *
 * Objects without a MetricName (event definitions) are skipped.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int metric_table__add_json(struct metric_table *table, const char *text, size_t len, char *msg,
			   size_t size)
{
	struct json_value *root;
	int err;

	err = json__parse(text, len, &root, msg, size);
	if (err)
		return err;
	if (root->type != JSON_ARRAY) {
		snprintf(msg, size, "not a JSON array");
		json__delete(root);
		return -EINVAL;
	}
	for (size_t i = 0; i < root->nr && !err; i++) {
		const struct json_value *obj = &root->items[i];

		if (obj->type != JSON_OBJECT) {
			snprintf(msg, size, "entry %zu: not an object", i);
			err = -EINVAL;
		} else if (json__get(obj, "MetricName")) {
			err = add_metric(table, obj, i, msg, size);
		}
	}
	json__delete(root);
	return err;
}

static int read_json(struct metric_table *table, const char *path, char *msg, size_t size)
{
	char err_msg[256];
	struct stat st;
	char *text;
	size_t len;
	FILE *f;
	int err;

	f = file__fopen(path, MAX_JSON_SIZE, &st);
	if (!f) {
		err = -errno;
		snprintf(msg, size, "cannot read '%s': %s", path, strerror(errno));
		return err;
	}
	text = malloc(st.st_size + 1);
	if (!text) {
		fclose(f);
		snprintf(msg, size, "out of memory");
		return -ENOMEM;
	}
	len = fread(text, 1, st.st_size, f);
	if (ferror(f)) {
		snprintf(msg, size, "cannot read '%s': %s", path, strerror(errno));
		free(text);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	err = metric_table__add_json(table, text, len, err_msg, sizeof(err_msg));
	if (err)
		snprintf(msg, size, "'%s': %s", path, err_msg);
	free(text);
	return err;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.json of @dir, in name order. */
static int read_dir(struct metric_table *table, const char *dir, char *msg, size_t size)
{
	char **names = NULL, path[4096];
	int nr = 0, err = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		err = -errno;
		snprintf(msg, size, "cannot open the model folder '%s': %s", dir, strerror(errno));
		return err;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **t;

		if (l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		t = realloc(names, (nr + 1) * sizeof(*names));
		if (!t || !(t[nr] = strdup(de->d_name))) {
			names = t ?: names;
			err = -ENOMEM;
			snprintf(msg, size, "out of memory");
			break;
		}
		names = t;
		nr++;
	}
	closedir(d);
	if (!err && nr)
		qsort(names, nr, sizeof(*names), name_cmp);
	for (int i = 0; i < nr; i++) {
		if (!err && (size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >=
				    sizeof(path)) {
			snprintf(msg, size, "path too long in '%s'", dir);
			err = -ENAMETOOLONG;
		}
		if (!err)
			err = read_json(table, path, msg, size);
		free(names[i]);
	}
	free(names);
	return err;
}

/* perf's match: the regular expression covers the whole CPUID. */
static int cpuid_matches(const char *re_text, const char *cpuid)
{
	regmatch_t m[1];
	regex_t re;
	int ok;

	if (regcomp(&re, re_text, REG_EXTENDED))
		return 0;
	ok = !regexec(&re, cpuid, 1, m, 0) && m[0].rm_so == 0 &&
	     (size_t)m[0].rm_eo == strlen(cpuid);
	regfree(&re);
	return ok;
}

/*
 * The model folder of @cpuid in @mapfile: 0 with @folder set, -ENOENT when
 * no row matches, or -errno of the read.
 */
static int find_model(const char *mapfile, const char *cpuid, char *folder, size_t fsize)
{
	size_t cap = 0;
	char *line = NULL;
	ssize_t n;
	FILE *f;
	int err = -ENOENT;

	f = file__fopen(mapfile, MAX_JSON_SIZE, NULL);
	if (!f)
		return -errno;
	while ((n = file__getline(&line, &cap, f, MAX_LINE)) > 0) {
		char *fields[4] = { NULL }, *save = NULL, *p;
		int nf = 0;

		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		for (p = strtok_r(line, ",", &save); p && nf < 4; p = strtok_r(NULL, ",", &save))
			fields[nf++] = p;
		if (nf < 3 || (nf == 4 && strcmp(fields[3], "core")))
			continue;
		if (cpuid_matches(fields[0], cpuid)) {
			snprintf(folder, fsize, "%s", fields[2]);
			err = 0;
			break;
		}
	}
	if (n < 0)
		err = -errno;
	free(line);
	fclose(f);
	return err;
}

/**
 * metric_table__load - the metric table of this CPU
 * @res: receives it, or NULL when there is none
 * @msg: why there is none, or the error
 * @size: its size
 *
 * Return: 0 or -errno (a tree that cannot be read).
 */
int metric_table__load(struct metric_table **res, char *msg, size_t size)
{
	const char *root = getenv("TPERF_PMU_EVENTS");
	char cpuid[128], mapfile[4096], dir[4096], folder[256], base[2060];
	struct metric_table *table;
	struct stat st;
	int err;

	*res = NULL;
	if (!root || !*root) {
		snprintf(msg, size, "no metric table: set TPERF_PMU_EVENTS to a pmu-events "
			 "tree (perf's tools/perf/pmu-events/arch layout)");
		return 0;
	}
	if (metric_table__cpuid(cpuid, sizeof(cpuid))) {
		snprintf(msg, size, "no metric table: the CPUID of this machine is unknown; "
			 "set PERF_CPUID");
		return 0;
	}
	/* the arch folder (with x86/) or the x86 folder itself */
	if (strlen(root) > 2048) {
		snprintf(msg, size, "TPERF_PMU_EVENTS is too long");
		return -ENAMETOOLONG;
	}
	snprintf(base, sizeof(base), "%s/x86", root);
	if (stat(base, &st) || !S_ISDIR(st.st_mode))
		snprintf(base, sizeof(base), "%s", root);
	snprintf(mapfile, sizeof(mapfile), "%.2048s/mapfile.csv", base);
	err = find_model(mapfile, cpuid, folder, sizeof(folder));
	if (err == -ENOENT && stat(mapfile, &st) == 0) {
		snprintf(msg, size, "no metric table for CPUID '%s' in '%s'", cpuid, mapfile);
		return 0;
	}
	if (err) {
		snprintf(msg, size, "cannot read '%s': %s", mapfile, strerror(-err));
		return err;
	}
	if (strstr(folder, "..") || folder[0] == '/') {
		snprintf(msg, size, "'%s': the model folder '%s' is outside the tree", mapfile,
			 folder);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%.2048s/%.255s", base, folder);
	table = metric_table__new();
	if (!table) {
		snprintf(msg, size, "out of memory");
		return -ENOMEM;
	}
	table->cpuid = strdup(cpuid);
	table->dir = strdup(dir);
	err = table->cpuid && table->dir ? read_dir(table, dir, msg, size) : -ENOMEM;
	if (err) {
		if (err == -ENOMEM)
			snprintf(msg, size, "out of memory");
		metric_table__delete(table);
		return err;
	}
	*res = table;
	return 0;
}

/**
 * metric_table__find - a metric by name
 * @table: the table
 * @name: case-insensitive
 *
 * Return: the metric or NULL.
 */
const struct pmu_metric *metric_table__find(const struct metric_table *table, const char *name)
{
	for (int i = 0; table && i < table->nr; i++)
		if (!strcasecmp(table->metrics[i].name, name))
			return &table->metrics[i];
	return NULL;
}

/**
 * pmu_metric__in_group - whether a metric is in a group
 * @m: the metric
 * @group: one group name
 *
 * Return: 1 or 0.
 */
int pmu_metric__in_group(const struct pmu_metric *m, const char *group)
{
	const char *p = m->groups;
	size_t gl = strlen(group);

	while (p && *p) {
		size_t l = strcspn(p, ";");

		if (l == gl && !strncasecmp(p, group, l))
			return 1;
		p += l;
		if (*p)
			p++;
	}
	return 0;
}
