// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for util/mem-src: the decoding perf 6.1 prints for -F data_src
 * (words of tests/data/rcppthread-perf-mem-record as perf printed them, and
 * made-up words for the remote, hops, snoopx and blk fields).
 */
#include <stdint.h>
#include <string.h>

#include "tests/tests.h"
#include "util/report/mem-src.h"

static const struct { uint64_t word; const char *text; } words[] = {
	{ 0x5080144, "|OP STORE|LVL L1 hit|SNP N/A|TLB N/A|LCK N/A|BLK  N/A" },
	{ 0x5080184, "|OP STORE|LVL L1 miss|SNP N/A|TLB N/A|LCK N/A|BLK  N/A" },
	{ 0x268100142, "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A" },
	{ 0x252100142, "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L2 miss|LCK Yes|BLK  N/A" },
	{ 0x1868100242, "|OP LOAD|LVL LFB/MAB or LFB/MAB hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A" },
	{ 0x1a68201042, "|OP LOAD|LVL Local RAM or RAM hit|SNP Hit|TLB L1 or L2 hit|LCK No|BLK  N/A" },
	/* load, L2 hit, lvl_num 2, remote, HitM + Fwd, locked, blk data+addr */
	{ 2 | 0x22ULL << 5 | 0x10ULL << 19 | 2ULL << 24 | 2ULL << 33 | 1ULL << 37 | 1ULL << 38 |
	  6ULL << 40, "|OP LOAD|LVL Remote L2 or L2 hit|SNP HitM or Fwd|TLB N/A|LCK Yes|BLK  Data Addr" },
	/* no op, miss, RAM two hops away, nothing else */
	{ 4ULL << 5 | 13ULL << 33 | 1ULL << 37 | 2ULL << 43,
	  "|OP No|LVL Remote node, same socket RAM miss|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
};

static int mem_src_words(void)
{
	char buf[160];

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = mem_src__scnprintf(buf, sizeof(buf), words[i].word);

		TEST_ASSERT_STR("decoded word", buf, words[i].text);
		TEST_ASSERT_EQUAL("its length", n, strlen(words[i].text));
	}
	TEST_ASSERT_EQUAL("truncated length", mem_src__scnprintf(buf, 8, 0x5080144), 7);
	TEST_ASSERT_STR("truncated text", buf, "|OP STO");
	return 0;
}

TPERF_TEST(mem_src_words, "mem-src: data_src words decoded as perf prints them");
