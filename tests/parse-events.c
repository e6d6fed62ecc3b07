// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for util/parse-events.c on a fake sysfs tree
 * (tests/data/sysfs-fake-x86) and a fake tracefs (tests/data/tracefs-fake),
 * so they do not depend on the machine.  The expected attrs are those Linux
 * perf 6.1 builds for the same strings (checked with `perf stat -vv` where
 * this machine has the PMU; the fake PMUs follow the same rules).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/hw_breakpoint.h>

#include "tests/tests.h"
#include "util/cpumap.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/parse-events.h"
#include "util/pmu.h"

/* exclude_* and other attr bits, as a compact mask */
enum {
	EU = 1 << 0,	/* exclude_user */
	EK = 1 << 1,	/* exclude_kernel */
	EH = 1 << 2,	/* exclude_hv */
	EI = 1 << 3,	/* exclude_idle */
	EHO = 1 << 4,	/* exclude_host */
	EG = 1 << 5,	/* exclude_guest */
	PIN = 1 << 6,	/* pinned */
	EXC = 1 << 7,	/* exclusive */
};

struct pe_case {
	const char *str;
	int nr;			/* events created */
	uint32_t type;
	uint64_t config, config1, config2;
	unsigned int bits;
	int precise;
	uint32_t bp_type;
	uint64_t bp_addr, bp_len, period, sample_type;
	const char *name;	/* of the first event */
};

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE
#define HC PERF_TYPE_HW_CACHE
#define TP PERF_TYPE_TRACEPOINT
#define BP PERF_TYPE_BREAKPOINT
#define TP_ST (PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

static const struct pe_case good[] = {
	/* symbolic hardware and software names, with aliases */
	{ "cycles", 1, HW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cycles" },
	{ "cpu-cycles", 1, HW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-cycles" },
	{ "instructions", 1, HW, 1, 0, 0, EG, 0, 0, 0, 0, 0, 0, "instructions" },
	{ "cache-references", 1, HW, 2, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cache-references" },
	{ "cache-misses", 1, HW, 3, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cache-misses" },
	{ "branches", 1, HW, 4, 0, 0, EG, 0, 0, 0, 0, 0, 0, "branches" },
	{ "branch-instructions", 1, HW, 4, 0, 0, EG, 0, 0, 0, 0, 0, 0, "branch-instructions" },
	{ "branch-misses", 1, HW, 5, 0, 0, EG, 0, 0, 0, 0, 0, 0, "branch-misses" },
	{ "bus-cycles", 1, HW, 6, 0, 0, EG, 0, 0, 0, 0, 0, 0, "bus-cycles" },
	{ "stalled-cycles-frontend", 1, HW, 7, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "stalled-cycles-frontend" },
	{ "idle-cycles-frontend", 1, HW, 7, 0, 0, EG, 0, 0, 0, 0, 0, 0, "idle-cycles-frontend" },
	{ "stalled-cycles-backend", 1, HW, 8, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "stalled-cycles-backend" },
	{ "idle-cycles-backend", 1, HW, 8, 0, 0, EG, 0, 0, 0, 0, 0, 0, "idle-cycles-backend" },
	{ "ref-cycles", 1, HW, 9, 0, 0, EG, 0, 0, 0, 0, 0, 0, "ref-cycles" },
	{ "cpu-clock", 1, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock" },
	{ "task-clock", 1, SW, 1, 0, 0, EG, 0, 0, 0, 0, 0, 0, "task-clock" },
	{ "page-faults", 1, SW, 2, 0, 0, EG, 0, 0, 0, 0, 0, 0, "page-faults" },
	{ "faults", 1, SW, 2, 0, 0, EG, 0, 0, 0, 0, 0, 0, "faults" },
	{ "context-switches", 1, SW, 3, 0, 0, EG, 0, 0, 0, 0, 0, 0, "context-switches" },
	{ "cs", 1, SW, 3, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cs" },
	{ "cpu-migrations", 1, SW, 4, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-migrations" },
	{ "migrations", 1, SW, 4, 0, 0, EG, 0, 0, 0, 0, 0, 0, "migrations" },
	{ "minor-faults", 1, SW, 5, 0, 0, EG, 0, 0, 0, 0, 0, 0, "minor-faults" },
	{ "major-faults", 1, SW, 6, 0, 0, EG, 0, 0, 0, 0, 0, 0, "major-faults" },
	{ "alignment-faults", 1, SW, 7, 0, 0, EG, 0, 0, 0, 0, 0, 0, "alignment-faults" },
	{ "emulation-faults", 1, SW, 8, 0, 0, EG, 0, 0, 0, 0, 0, 0, "emulation-faults" },
	{ "dummy", 1, SW, 9, 0, 0, EG, 0, 0, 0, 0, 0, 0, "dummy" },
	{ "bpf-output", 1, SW, 10, 0, 0, EG, 0, 0, 0, 0, 0, 0, "bpf-output" },
	{ "cgroup-switches", 1, SW, 11, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cgroup-switches" },
	/* modifiers: perf 6.1's exclude rules (a modifier resets exclude_guest) */
	{ "cycles:u", 1, HW, 0, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "cycles:u" },
	{ "cycles:k", 1, HW, 0, 0, 0, EU | EH, 0, 0, 0, 0, 0, 0, "cycles:k" },
	{ "cycles:h", 1, HW, 0, 0, 0, EU | EK, 0, 0, 0, 0, 0, 0, "cycles:h" },
	{ "cycles:uk", 1, HW, 0, 0, 0, EH | EG, 0, 0, 0, 0, 0, 0, "cycles:uk" },
	{ "cycles:ku", 1, HW, 0, 0, 0, EH | EG, 0, 0, 0, 0, 0, 0, "cycles:ku" },
	{ "cycles:uhk", 1, HW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cycles:uhk" },
	{ "cycles:G", 1, HW, 0, 0, 0, EHO, 0, 0, 0, 0, 0, 0, "cycles:G" },
	{ "cycles:H", 1, HW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cycles:H" },
	{ "cycles:GH", 1, HW, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "cycles:GH" },
	{ "cycles:uG", 1, HW, 0, 0, 0, EK | EH | EHO, 0, 0, 0, 0, 0, 0, "cycles:uG" },
	{ "cycles:Gu", 1, HW, 0, 0, 0, EK | EH | EHO, 0, 0, 0, 0, 0, 0, "cycles:Gu" },
	{ "cycles:uH", 1, HW, 0, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "cycles:uH" },
	{ "cycles:p", 1, HW, 0, 0, 0, EG, 1, 0, 0, 0, 0, 0, "cycles:p" },
	{ "cycles:pp", 1, HW, 0, 0, 0, EG, 2, 0, 0, 0, 0, 0, "cycles:pp" },
	{ "cycles:ppp", 1, HW, 0, 0, 0, EG, 3, 0, 0, 0, 0, 0, "cycles:ppp" },
	{ "cycles:kp", 1, HW, 0, 0, 0, EU | EH | EG, 1, 0, 0, 0, 0, 0, "cycles:kp" },
	{ "cycles:Gp", 1, HW, 0, 0, 0, EHO, 1, 0, 0, 0, 0, 0, "cycles:Gp" },
	{ "cycles:P", 1, HW, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "cycles:P" },
	{ "cycles:S", 1, HW, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "cycles:S" },
	{ "cycles:D", 1, HW, 0, 0, 0, PIN, 0, 0, 0, 0, 0, 0, "cycles:D" },
	{ "cycles:I", 1, HW, 0, 0, 0, EI, 0, 0, 0, 0, 0, 0, "cycles:I" },
	{ "cycles:W", 1, HW, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "cycles:W" },
	{ "cpu-clock:e", 1, SW, 0, 0, 0, EXC, 0, 0, 0, 0, 0, 0, "cpu-clock:e" },
	{ "cpu-clock:u", 1, SW, 0, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "cpu-clock:u" },
	/* cache events, every spelling */
	{ "L1-dcache-loads", 1, HC, 0x0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "L1-dcache-loads" },
	{ "L1-dcache-load-misses", 1, HC, 0x10000, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "L1-dcache-load-misses" },
	{ "L1-dcache-stores", 1, HC, 0x100, 0, 0, EG, 0, 0, 0, 0, 0, 0, "L1-dcache-stores" },
	{ "L1-dcache-prefetch-misses", 1, HC, 0x10200, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "L1-dcache-prefetch-misses" },
	{ "L1-icache-loads", 1, HC, 0x1, 0, 0, EG, 0, 0, 0, 0, 0, 0, "L1-icache-loads" },
	{ "LLC-load-misses", 1, HC, 0x10002, 0, 0, EG, 0, 0, 0, 0, 0, 0, "LLC-load-misses" },
	{ "LLC-prefetches", 1, HC, 0x202, 0, 0, EG, 0, 0, 0, 0, 0, 0, "LLC-prefetches" },
	{ "dTLB-store-misses", 1, HC, 0x10103, 0, 0, EG, 0, 0, 0, 0, 0, 0, "dTLB-store-misses" },
	{ "iTLB-load-misses", 1, HC, 0x10004, 0, 0, EG, 0, 0, 0, 0, 0, 0, "iTLB-load-misses" },
	{ "branch-load-misses", 1, HC, 0x10005, 0, 0, EG, 0, 0, 0, 0, 0, 0, "branch-load-misses" },
	{ "node-loads", 1, HC, 0x6, 0, 0, EG, 0, 0, 0, 0, 0, 0, "node-loads" },
	{ "l1d-read-miss", 1, HC, 0x10000, 0, 0, EG, 0, 0, 0, 0, 0, 0, "l1d-read-miss" },
	{ "L1-data-write-access", 1, HC, 0x100, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "L1-data-write-access" },
	{ "LLC-misses", 1, HC, 0x10002, 0, 0, EG, 0, 0, 0, 0, 0, 0, "LLC-misses" },
	{ "LLC-misses-load", 1, HC, 0x10002, 0, 0, EG, 0, 0, 0, 0, 0, 0, "LLC-misses-load" },
	{ "LLC-speculative-read-ops", 1, HC, 0x202, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "LLC-speculative-read-ops" },
	{ "L2", 1, HC, 0x2, 0, 0, EG, 0, 0, 0, 0, 0, 0, "L2" },
	{ "Data-TLB", 1, HC, 0x3, 0, 0, EG, 0, 0, 0, 0, 0, 0, "Data-TLB" },
	{ "bpc-loads", 1, HC, 0x5, 0, 0, EG, 0, 0, 0, 0, 0, 0, "bpc-loads" },
	{ "L1-dcache-load-misses:u", 1, HC, 0x10000, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0,
	  "L1-dcache-load-misses:u" },
	/* raw */
	{ "r1a8", 1, PERF_TYPE_RAW, 0x1a8, 0, 0, EG, 0, 0, 0, 0, 0, 0, "r1a8" },
	{ "r0", 1, PERF_TYPE_RAW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "r0" },
	{ "rff:u", 1, PERF_TYPE_RAW, 0xff, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "rff:u" },
	/* PMU terms, formats, aliases */
	{ "cpu/event=0x3c/", 1, 4, 0x3c, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu/event=0x3c/" },
	{ "cpu/event=0x3c,umask=0x0/", 1, 4, 0x3c, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "cpu/event=0x3c,umask=0x0/" },
	{ "cpu/event=0xc0,umask=0x1,edge,inv,cmask=3/", 1, 4, 0x38401c0, 0, 0, EG, 0, 0, 0, 0,
	  0, 0, "cpu/event=0xc0,umask=0x1,edge,inv,cmask=3/" },
	{ "cpu/event=1,any=1,in_tx/", 1, 4, 0x100200001ULL, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "cpu/event=1,any=1,in_tx/" },
	{ "cpu/event=0xcd,ldlat=30,frontend=0x11/", 1, 4, 0xcd, 0x11, 0, EG, 0, 0, 0, 0, 0, 0,
	  "cpu/event=0xcd,ldlat=30,frontend=0x11/" },
	{ "cpu/config=0x1234,config1=5,config2=6/", 1, 4, 0x1234, 5, 6, EG, 0, 0, 0, 0, 0, 0,
	  "cpu/config=0x1234,config1=5,config2=6/" },
	{ "cpu/fc_mask=7/", 1, 4, 0, 0, 7, EG, 0, 0, 0, 0, 0, 0, "cpu/fc_mask=7/" },
	{ "cpu/event=0x3c,name=mycycles/", 1, 4, 0x3c, 0, 0, EG, 0, 0, 0, 0, 0, 0, "mycycles" },
	{ "cpu/event=0x3c/u", 1, 4, 0x3c, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "cpu/event=0x3c/u" },
	{ "cpu/event=0x3c/:k", 1, 4, 0x3c, 0, 0, EU | EH, 0, 0, 0, 0, 0, 0, "cpu/event=0x3c/:k" },
	{ "cpu/event=0x3c/pp", 1, 4, 0x3c, 0, 0, EG, 2, 0, 0, 0, 0, 0, "cpu/event=0x3c/pp" },
	{ "cpu/cycles-t/", 1, 4, 0x10000003cULL, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu/cycles-t/" },
	{ "cpu/mem-loads/", 1, 4, 0x1cd, 3, 0, EG, 0, 0, 0, 0, 0, 0, "cpu/mem-loads/" },
	{ "cpu/mem-loads,ldlat=50/", 1, 4, 0x1cd, 50, 0, EG, 0, 0, 0, 0, 0, 0,
	  "cpu/mem-loads,ldlat=50/" },
	{ "msr/tsc/", 1, 9, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "msr/tsc/" },
	{ "msr/aperf/", 1, 9, 1, 0, 0, EG, 0, 0, 0, 0, 0, 0, "msr/aperf/" },
	{ "msr/tsc,name=foo/", 1, 9, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "foo" },
	{ "msr/event=0x100000000000/", 1, 9, 0x100000000000ULL, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "msr/event=0x100000000000/" },
	{ "tsc", 1, 9, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "tsc" },
	{ "mperf:u", 1, 9, 2, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "mperf:u" },
	{ "power/energy-pkg/", 1, 20, 2, 0, 0, EG, 0, 0, 0, 0, 0, 0, "power/energy-pkg/" },
	{ "power/energy-ram/", 1, 20, 3, 0, 0, EG, 0, 0, 0, 0, 0, 0, "power/energy-ram/" },
	{ "uncore_imc_0/cas_count_read/", 1, 21, 0x304, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "uncore_imc_0/cas_count_read/" },
	{ "uncore_imc_0/event=0x1ff/", 1, 21, 0x1000000ffULL, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "uncore_imc_0/event=0x1ff/" },
	{ "uncore_imc_0/big/", 1, 21, 0x100000004ULL, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "uncore_imc_0/big/" },
	{ "uncore_imc_0/thresh/", 1, 21, 0x1000000, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "uncore_imc_0/thresh/" },
	{ "cpu-clock/period=1000/", 1, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "cpu-clock/period=1000/" },
	{ "cycles/name=abc/", 1, HW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "abc" },
	/* tracepoints */
	{ "sched:sched_switch", 1, TP, 301, 0, 0, EG, 0, 0, 0, 0, 1, TP_ST, "sched:sched_switch" },
	{ "sched:sched_switch:u", 1, TP, 301, 0, 0, EK | EH | EG, 0, 0, 0, 0, 1, TP_ST,
	  "sched:sched_switch" },
	{ "syscalls:sys_exit_openat", 1, TP, 306, 0, 0, EG, 0, 0, 0, 0, 1, TP_ST,
	  "syscalls:sys_exit_openat" },
	{ "sched:*", 4, TP, 0, 0, 0, EG, 0, 0, 0, 0, 1, TP_ST, NULL },
	{ "sched:sched_wakeup*", 2, TP, 0, 0, 0, EG, 0, 0, 0, 0, 1, TP_ST, NULL },
	{ "*:sys_*_openat", 2, TP, 0, 0, 0, EG, 0, 0, 0, 0, 1, TP_ST, NULL },
	{ "irq:irq_handler_entr?", 1, TP, 307, 0, 0, EG, 0, 0, 0, 0, 1, TP_ST,
	  "irq:irq_handler_entry" },
	/* breakpoints: default length 4, 8 (sizeof(long)) for x */
	{ "mem:0x1000", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_RW, 0x1000, 4, 1, 0, "mem:0x1000" },
	{ "mem:0x1000:rw", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_RW, 0x1000, 4, 1, 0,
	  "mem:0x1000:rw" },
	{ "mem:0x1000:r", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_R, 0x1000, 4, 1, 0, "mem:0x1000:r" },
	{ "mem:0x1000:x", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_X, 0x1000, 8, 1, 0, "mem:0x1000:x" },
	{ "mem:0x1000:rwx", 1, BP, 0, 0, 0, EG, 0, 7, 0x1000, 4, 1, 0, "mem:0x1000:rwx" },
	{ "mem:0x1000/8:w", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_W, 0x1000, 8, 1, 0, "mem:0x1000" },
	{ "mem:0x1000/2", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_RW, 0x1000, 2, 1, 0, "mem:0x1000" },
	{ "mem:4096:w:u", 1, BP, 0, 0, 0, EK | EH | EG, 0, HW_BREAKPOINT_W, 4096, 4, 1, 0,
	  "mem:4096:w:u" },
	/* lists and groups */
	{ "cycles:u,instructions", 2, HW, 0, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "cycles:u" },
	{ "{cycles,instructions}:u", 2, HW, 0, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "cycles" },
	{ "{cycles:k,instructions}:u", 2, HW, 0, 0, 0, EH | EG, 0, 0, 0, 0, 0, 0, "cycles:k" },
	{ "{cycles:G,instructions}:u", 2, HW, 0, 0, 0, EK | EH | EHO, 0, 0, 0, 0, 0, 0,
	  "cycles:G" },
	{ "{cycles:p,instructions}:p", 2, HW, 0, 0, 0, EG, 2, 0, 0, 0, 0, 0, "cycles:p" },
	{ "{cpu-clock,task-clock}", 2, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock" },
	{ "{cpu-clock,task-clock}:S", 2, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock" },
	{ "cpu-clock,{task-clock,faults},cs", 4, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock" },
};

static int setup_fake_tree(void)
{
	static char sysfs[4096], tracefs[4096];

	snprintf(sysfs, sizeof(sysfs), "%s", test_data_path("sysfs-fake-x86"));
	snprintf(tracefs, sizeof(tracefs), "%s", test_data_path("tracefs-fake"));
	if (setenv("TPERF_SYSFS", sysfs, 1) || setenv("TPERF_TRACEFS", tracefs, 1))
		return -1;
	pmu__reset();
	return pmu__find("cpu") ? 0 : -1;
}

static int check_case(const struct pe_case *c)
{
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;
	struct perf_event_attr *a;
	struct evsel *e;
	int ret;

	TEST_ASSERT_VAL("evlist", evlist);
	ret = parse_events(evlist, c->str, &err);
	if (ret) {
		TEST_FAILED_AT("'%s': %s", c->str, err.msg ? err.msg : "no message");
		parse_events_error__exit(&err);
		evlist__delete(evlist);
		return TEST_FAIL;
	}
	TEST_ASSERT_EQUAL(c->str, evlist->nr_entries, c->nr);
	e = evlist__first(evlist);
	a = &e->attr;
	TEST_ASSERT_EQUAL(c->str, a->type, c->type);
	if (c->type != TP || c->nr == 1)
		TEST_ASSERT_EQUAL(c->str, a->config, c->config);
	TEST_ASSERT_EQUAL(c->str, a->size, sizeof(*a));
	TEST_ASSERT_EQUAL(c->str, c->type == BP ? 0 : a->config1, c->config1);
	TEST_ASSERT_EQUAL(c->str, c->type == BP ? 0 : a->config2, c->config2);
	TEST_ASSERT_EQUAL(c->str, a->exclude_user, !!(c->bits & EU));
	TEST_ASSERT_EQUAL(c->str, a->exclude_kernel, !!(c->bits & EK));
	TEST_ASSERT_EQUAL(c->str, a->exclude_hv, !!(c->bits & EH));
	TEST_ASSERT_EQUAL(c->str, a->exclude_idle, !!(c->bits & EI));
	TEST_ASSERT_EQUAL(c->str, a->exclude_host, !!(c->bits & EHO));
	TEST_ASSERT_EQUAL(c->str, a->exclude_guest, !!(c->bits & EG));
	TEST_ASSERT_EQUAL(c->str, a->pinned, !!(c->bits & PIN));
	TEST_ASSERT_EQUAL(c->str, a->exclusive, !!(c->bits & EXC));
	TEST_ASSERT_EQUAL(c->str, a->precise_ip, c->precise);
	TEST_ASSERT_EQUAL(c->str, a->bp_type, c->bp_type);
	if (c->type == BP) {
		TEST_ASSERT_EQUAL(c->str, a->bp_addr, c->bp_addr);
		TEST_ASSERT_EQUAL(c->str, a->bp_len, c->bp_len);
	}
	TEST_ASSERT_EQUAL(c->str, a->sample_period, c->period);
	TEST_ASSERT_EQUAL(c->str, a->sample_type, c->sample_type);
	TEST_ASSERT_EQUAL(c->str, a->freq, 0);
	if (c->name)
		TEST_ASSERT_STR(c->str, e->name, c->name);
	evlist__for_each_entry(evlist, e)
		TEST_ASSERT_VAL("name set", e->name && *e->name);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(parse_events_valid, "parse-events: valid event strings and their attrs")
{
	if (setup_fake_tree())
		return test_skip("no fake sysfs tree at %s", test_data_path("sysfs-fake-x86"));
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int ret = check_case(&good[i]);

		if (ret)
			return ret;
	}
	return TEST_OK;
}

struct pe_bad {
	const char *str;
	int idx;		/* caret offset */
	const char *msg;
	const char *help;	/* NULL: none */
};

static const struct pe_bad bad[] = {
	{ "", 0, "empty event", NULL },
	{ "cycle", 0, "unknown event 'cycle'",
	  "did you mean 'cycles'? ('tperf list' shows every event)" },
	{ "nosuchevent", 0, "unknown event 'nosuchevent'", NULL },
	{ "cpu-clock,", 10, "empty event after ','", NULL },
	{ ",cpu-clock", 0, "empty event", NULL },
	{ "cpu-clock,,task-clock", 10, "empty event", NULL },
	{ "cpu-clock:uu", 11, "modifier 'u' is given twice", NULL },
	{ "cpu-clock:pppp", 10, "precise level ':pppp' is too high (at most ppp)", NULL },
	{ "cpu-clock:x", 10, "unknown modifier 'x'",
	  "valid modifiers: u,k,h,G,H,I,p,pp,ppp,P,S,D,W,e" },
	{ "cpu-clock:", 10, "missing modifier after ':'",
	  "valid modifiers: u,k,h,G,H,I,p,pp,ppp,P,S,D,W,e" },
	{ "cpu/evnt=1/", 4, "unknown term 'evnt' for PMU 'cpu'",
	  "valid terms: any,cmask,edge,event,fc_mask,frontend,in_tx,in_tx_cp,inv,ldlat,"
	  "offcore_rsp,pc,umask,config,config1,config2,name,period,freq,branch_type,"
	  "call-graph,stack-size,no-inherit,inherit,max-stack,no-overwrite,overwrite,"
	  "percore,aux-output,metric-id" },
	{ "msr/tsc,bogus/", 8, "unknown term 'bogus' for PMU 'msr'",
	  "valid terms: event,config,config1,config2,name,period,freq,branch_type,"
	  "call-graph,stack-size,no-inherit,inherit,max-stack,no-overwrite,overwrite,"
	  "percore,aux-output,metric-id" },
	{ "cpu/event=0x100/", 4, "value 0x100 too big for term 'event' of PMU 'cpu'",
	  "the largest value of 'event' is 0xff" },
	{ "cpu/edge=2/", 4, "value 0x2 too big for term 'edge' of PMU 'cpu'",
	  "the largest value of 'edge' is 0x1" },
	{ "uncore_imc_0/event=0x1000/", 13,
	  "value 0x1000 too big for term 'event' of PMU 'uncore_imc_0'",
	  "the largest value of 'event' is 0xfff" },
	{ "cpu/event=abc/", 4, "term 'event' takes a number, not 'abc'", NULL },
	{ "cpu/event=/", 10, "missing value for term 'event'", NULL },
	{ "cpu/event=1", 11, "missing '/' at the end of the terms", NULL },
	{ "msr/tsc", 7, "missing '/' at the end of the terms", NULL },
	{ "cpu/event=1 /", 11, "expected ',' or '/' after a term", NULL },
	{ "cpu/name=/", 9, "missing value for term 'name'", NULL },
	{ "nopmu/event=1/", 0, "unknown PMU 'nopmu'",
	  "PMUs here: breakpoint cpu msr power software tracepoint uncore_imc_0" },
	{ "cpu-clock/bogus=1/", 10, "unknown term 'bogus' for event 'cpu-clock'",
	  "valid terms: config,config1,config2,name,period,freq,branch_type,call-graph,"
	  "stack-size,no-inherit,inherit,max-stack,no-overwrite,overwrite,percore,"
	  "aux-output,metric-id" },
	{ "sched:nosuch", 0, "unknown tracepoint 'sched:nosuch'",
	  "'tperf list tracepoint' shows the tracepoints" },
	{ "sched:sched_swich", 0, "unknown tracepoint 'sched:sched_swich'",
	  "did you mean 'sched:sched_switch'?" },
	{ "schd:sched_switch", 0, "unknown tracepoint 'schd:sched_switch'",
	  "did you mean 'sched:sched_switch'?" },
	{ "sched:zz*", 0, "no tracepoint matches 'sched:zz*'",
	  "'tperf list tracepoint' shows the tracepoints" },
	{ "mem:", 4, "breakpoint address must be a number (mem:0x1000)", NULL },
	{ "mem:zz", 4, "breakpoint address must be a number (mem:0x1000)", NULL },
	{ "mem:0x1000/", 11, "breakpoint length must be a number (mem:ADDR/8)", NULL },
	{ "mem:0x1000/16", 11, "breakpoint length 16 is not 1 to 8", NULL },
	{ "mem:0x1000:rr", 12, "breakpoint access 'r' is given twice", NULL },
	{ "mem:0x1000:rz", 12, "bad breakpoint access 'z'",
	  "access is r, w, x or a combination (mem:ADDR:rw)" },
	{ "{cpu-clock", 0, "unterminated group", "close it with '}'" },
	{ "{cpu-clock,task-clock", 0, "unterminated group", "close it with '}'" },
	{ "{}", 1, "empty event", NULL },
	{ "{cpu-clock,{task-clock}}", 11, "groups cannot be nested", NULL },
	{ "cpu-clock}", 9, "'}' without '{'", NULL },
	{ "{cpu-clock}:", 12, "missing modifier after ':'", NULL },
	{ "{cpu-clock}:uu", 13, "modifier 'u' is given twice", NULL },
	{ "{cpu-clock}x", 11, "unexpected 'x' after the group", NULL },
	{ "cpu-clock xyz", 9, "unexpected ' xyz' after the event", NULL },
	{ "cpu-clock#", 9, "unexpected '#' after the event", NULL },
	{ "#", 0, "unexpected character '#'", NULL },
	{ "L1-dcache-stores-x", 0, "unknown event 'L1-dcache-stores-x'", NULL },
	{ "L1-icache-stores", 0, "cache 'L1-icache' has no 'store' events",
	  "run 'tperf list cache' for the valid cache events" },
	{ "branch-prefetches", 0, "cache 'branch' has no 'prefetch' events",
	  "run 'tperf list cache' for the valid cache events" },
	{ "cpu/event=1,event=0x10000000000000000/", 12,
	  "term 'event' takes a number, not '0x10000000000000000'", NULL },
};

TPERF_TEST(parse_events_invalid, "parse-events: errors name the token and say what is wrong")
{
	if (setup_fake_tree())
		return test_skip("no fake sysfs tree at %s", test_data_path("sysfs-fake-x86"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct pe_bad *c = &bad[i];
		struct evlist *evlist = evlist__new();
		struct parse_events_error err;
		int ret = parse_events(evlist, c->str, &err);

		TEST_ASSERT_VAL(c->str, ret == -EINVAL);
		TEST_ASSERT_EQUAL(c->str, evlist->nr_entries, 0);
		TEST_ASSERT_STR(c->str, err.str, c->str);
		TEST_ASSERT_STR(c->str, err.msg, c->msg);
		TEST_ASSERT_EQUAL(c->str, err.idx, c->idx);
		if (c->help)
			TEST_ASSERT_STR(c->str, err.help, c->help);
		parse_events_error__exit(&err);
		evlist__delete(evlist);
	}
	return TEST_OK;
}
