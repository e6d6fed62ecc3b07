// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PERF_RECORD_COMPRESSED records for record -z (see compress.h).  Each
 * record is a whole zstd frame, so that a reader never needs the record
 * before (perf's readers keep one stream across records, which reads
 * frames one after the other just as well).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "util/perf-data/compress.h"
#include "util/perf-data/event.h"

struct perf_zstd {
	ZSTD_CCtx *cctx;
	int level;
	unsigned char out[65535];	/* the record: header, then the frame */
};

/**
 * perf_zstd__new - see util/perf-data/compress.h
 */
struct perf_zstd *perf_zstd__new(int level)
{
	struct perf_zstd *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->cctx = ZSTD_createCCtx();
	if (!z->cctx) {
		free(z);
		return NULL;
	}
	z->level = level;
	return z;
}

/**
 * perf_zstd__delete - see util/perf-data/compress.h
 */
void perf_zstd__delete(struct perf_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	free(z);
}

/**
 * perf_zstd__records - see util/perf-data/compress.h
 */
long perf_zstd__records(struct perf_zstd *z, const void *in, size_t n, perf_zstd_fn fn, void *ctx)
{
	struct perf_event_header *h = (struct perf_event_header *)z->out;
	size_t c;
	int err;

	if (!n)
		return 0;
	c = ZSTD_compressCCtx(z->cctx, z->out + sizeof(*h), sizeof(z->out) - sizeof(*h), in, n,
			      z->level);
	if (ZSTD_isError(c)) {
		if (ZSTD_getErrorCode(c) == ZSTD_error_memory_allocation)
			return -ENOMEM;
		err = fn(ctx, in, n);	/* it does not fit: as it is */
		return err ? err : (long)n;
	}
	h->type = PERF_RECORD_COMPRESSED;
	h->misc = 0;
	h->size = (unsigned short)(sizeof(*h) + c);
	err = fn(ctx, z->out, sizeof(*h) + c);
	return err ? err : (long)(sizeof(*h) + c);
}
