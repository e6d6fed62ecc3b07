// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A bounded walk over perf's tracing data: header, "header_page" and
 * "header_event" sections, the ftrace formats, then per system its event
 * formats, each a text with "name: " and "ID: " lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/perf-data/trace-names.h"

struct tn_rd {
	const char *p, *end;
	int swap;			/* the data's endianness differs */
};

static int rd_bytes(struct tn_rd *r, void *out, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		return -EINVAL;
	memcpy(out, r->p, n);
	r->p += n;
	return 0;
}

static int rd_u32(struct tn_rd *r, uint32_t *v)
{
	if (rd_bytes(r, v, 4))
		return -EINVAL;
	if (r->swap)
		*v = __builtin_bswap32(*v);
	return 0;
}

static int rd_u64(struct tn_rd *r, uint64_t *v)
{
	if (rd_bytes(r, v, 8))
		return -EINVAL;
	if (r->swap)
		*v = __builtin_bswap64(*v);
	return 0;
}

static const char *rd_str(struct tn_rd *r)
{
	const char *s = r->p, *nul = memchr(r->p, '\0', r->end - r->p);

	if (!nul)
		return NULL;
	r->p = nul + 1;
	return s;
}

static int skip_sized(struct tn_rd *r)
{
	uint64_t n;

	if (rd_u64(r, &n) || n > (uint64_t)(r->end - r->p))
		return -EINVAL;
	r->p += n;
	return 0;
}

/* The value of "key: value" in the format text @t (@n bytes) into @out. */
static int field(const char *t, size_t n, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key);

	for (const char *l = t; l < t + n;) {
		const char *e = memchr(l, '\n', t + n - l);
		size_t len = e ? (size_t)(e - l) : (size_t)(t + n - l);

		if (len > kl && !memcmp(l, key, kl)) {
			size_t vl = len - kl;

			if (vl >= size)
				vl = size - 1;
			memcpy(out, l + kl, vl);
			out[vl] = '\0';
			return 0;
		}
		l += len + 1;
	}
	return -ENOENT;
}

int trace_names__find(const void *data, size_t size, uint64_t id, char *buf, size_t bufsize)
{
	struct tn_rd r = { data, (const char *)data + size, 0 };
	uint32_t n, nsys;
	char big, lsz, idstr[32], name[256];
	const char *s;

	if (size < 10 || memcmp(data, "\x17\x08\x44tracing", 10))
		return -EINVAL;
	r.p += 10;
	if (!rd_str(&r) || rd_bytes(&r, &big, 1) || rd_bytes(&r, &lsz, 1))
		return -EINVAL;
	r.swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (rd_u32(&r, &n))			/* page size */
		return -EINVAL;
	s = rd_str(&r);
	if (!s || strcmp(s, "header_page") || skip_sized(&r))
		return -EINVAL;
	s = rd_str(&r);
	if (!s || strcmp(s, "header_event") || skip_sized(&r))
		return -EINVAL;
	if (rd_u32(&r, &n))			/* ftrace formats */
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (skip_sized(&r))
			return -EINVAL;
	if (rd_u32(&r, &nsys))
		return -EINVAL;
	for (uint32_t i = 0; i < nsys; i++) {
		const char *sys = rd_str(&r);

		if (!sys || rd_u32(&r, &n))
			return -EINVAL;
		for (uint32_t k = 0; k < n; k++) {
			uint64_t len;
			const char *t = r.p;

			if (rd_u64(&r, &len) || len > (uint64_t)(r.end - r.p))
				return -EINVAL;
			t = r.p;
			r.p += len;
			if (field(t, len, "ID: ", idstr, sizeof(idstr)) ||
			    strtoull(idstr, NULL, 10) != id ||
			    field(t, len, "name: ", name, sizeof(name)))
				continue;
			snprintf(buf, bufsize, "%s:%s", sys, name);
			return 0;
		}
	}
	return -ENOENT;
}
