// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The data source word of memory samples, decoded into perf's names.  Its
 * bit fields (linux/perf_event.h): op 0-4, lvl 5-18, snoop 19-23, lock
 * 24-25, dtlb 26-32, lvl_num 33-36, remote 37, snoopx 38-39, blk 40-42,
 * hops 43-45.
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/report/mem-src.h"

#define BITS(v, shift, width) (((v) >> (shift)) & ((1ULL << (width)) - 1))

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len + 1 >= o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n < o->size - o->len ? (size_t)n : o->size - o->len - 1;
}

/* The names of the set bits of @m (skipping @skip) joined by " or "; how many. */
static int put_bits(struct out *o, uint64_t m, uint64_t skip, const char *const *names,
		    int nr, int printed)
{
	for (int i = 0; i < nr; i++) {
		if (!(m & (1ULL << i)) || (skip & (1ULL << i)))
			continue;
		put(o, "%s%s", printed++ ? " or " : "", names[i]);
	}
	return printed;
}

static const char *op_name(uint64_t op)
{
	if (op & 1)
		return "N/A";
	if (op & 2)
		return "LOAD";
	if (op & 4)
		return "STORE";
	if (op & 8)
		return "PFETCH";
	if (op & 16)
		return "EXEC";
	return "No";
}

static void put_lvl(struct out *o, uint64_t d)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
		"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached",
	};
	static const char *const lvlnum[16] = {
		[9] = "CXL", [10] = "I/O", [11] = "Any cache", [12] = "LFB/MAB", [13] = "RAM",
		[14] = "PMEM", [15] = "N/A",
	};
	static const char *const hops[8] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
		"", "", "",
	};
	uint64_t m = BITS(d, 5, 14), num = BITS(d, 33, 4), hop = BITS(d, 43, 3);
	size_t start = o->len;
	int printed = 0;

	if (BITS(d, 37, 1))
		put(o, "Remote ");
	if (hop)
		put(o, "%s ", hops[hop]);
	else
		printed = put_bits(o, m, 6, lvl, 14, 0);
	if (num) {
		if (printed++)
			put(o, " or ");
		if (lvlnum[num])
			put(o, "%s", lvlnum[num]);
		else
			put(o, "L%u", (unsigned int)num);
	}
	if (o->len == start)
		put(o, "N/A");
	if (m & 2)
		put(o, " hit");
	if (m & 4)
		put(o, " miss");
}

static void put_snoop(struct out *o, uint64_t d)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	int printed = put_bits(o, BITS(d, 19, 5), 0, snoop, 5, 0);

	if (!put_bits(o, BITS(d, 38, 2), 0, snoopx, 2, printed))
		put(o, "N/A");
}

static void put_tlb(struct out *o, uint64_t d)
{
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	uint64_t m = BITS(d, 26, 7);

	if (!put_bits(o, m, 6, tlb, 7, 0))
		put(o, "N/A");
	if (m & 2)
		put(o, " hit");
	if (m & 4)
		put(o, " miss");
}

size_t mem_src__scnprintf(char *buf, size_t size, uint64_t d)
{
	struct out o = { .buf = buf, .size = size };
	uint64_t lock = BITS(d, 24, 2), blk = BITS(d, 40, 3);

	if (size)
		buf[0] = '\0';
	put(&o, "|OP %s|LVL ", op_name(BITS(d, 0, 5)));
	put_lvl(&o, d);
	put(&o, "|SNP ");
	put_snoop(&o, d);
	put(&o, "|TLB ");
	put_tlb(&o, d);
	put(&o, "|LCK %s|BLK ", (lock & 1) ? "N/A" : (lock & 2) ? "Yes" : "No");
	if (!blk || (blk & 1))
		put(&o, " N/A");
	if (blk & 2 && !(blk & 1))
		put(&o, " Data");
	if (blk & 4 && !(blk & 1))
		put(&o, " Addr");
	return o.len;
}
