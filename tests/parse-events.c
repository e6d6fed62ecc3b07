// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for util/event/parse-events.c on a fake sysfs tree
 * (tests/data/sysfs-fake-x86) and a fake tracefs (tests/data/tracefs-fake),
 * so they do not depend on the machine.  The expected attrs are those Linux
 * perf 6.1 builds for the same strings (checked with `perf stat -vv` where
 * this machine has the PMU; the fake PMUs follow the same rules).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/hw_breakpoint.h>

#include "builtin.h"
#include "tests/tests.h"
#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/event/parse-events.h"
#include "util/lib/parse-options.h"
#include "util/event/pmu.h"

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
	  "L1-dcache-load-misses" },
	{ "l1d-read-miss:k", 1, HC, 0x10000, 0, 0, EU | EH, 0, 0, 0, 0, 0, 0, "l1d-read-miss" },
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
	{ "cpu/mem-loads-ldlat,ldlat=30/", 1, 4, 0x1cd, 30, 0, EG, 0, 0, 0, 0, 0, 0,
	  "cpu/mem-loads-ldlat,ldlat=30/" },
	{ "cpu/inst-spaced/", 1, 4, 0x1c0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu/inst-spaced/" },
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
	/* uncore_imc/x/ and imc/x/: every uncore_imc_N */
	{ "uncore_imc/cas_count_read/", 2, 21, 0x304, 0, 0, EG, 0, 0, 0, 0, 0, 0,
	  "uncore_imc/cas_count_read/" },
	{ "imc/event=0x1ff/u", 2, 21, 0x1000000ffULL, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0,
	  "imc/event=0x1ff/u" },
	/* tracepoints */
	{ "sched:sched_switch/max-stack=3/", 1, TP, 301, 0, 0, EG, 0, 0, 0, 0, 1, TP_ST,
	  "sched:sched_switch" },
	{ "sched:sched_wakeup*/call-graph=no/k", 2, TP, 0, 0, 0, EU | EH, 0, 0, 0, 0, 1, TP_ST,
	  NULL },
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
	{ "mem:0x1000/0", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_RW, 0x1000, 4, 1, 0, "mem:0x1000" },
	{ "mem:0x1000/16", 1, BP, 0, 0, 0, EG, 0, HW_BREAKPOINT_RW, 0x1000, 16, 1, 0, "mem:0x1000" },
	{ "mem:0x1000:xw", 1, BP, 0, 0, 0, EG, 0, 6, 0x1000, 4, 1, 0, "mem:0x1000:xw" },
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
	/* blanks between tokens, as perf's lexer skips them */
	{ "cpu-clock, task-clock", 2, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock" },
	{ " { cpu-clock , task-clock } :u ", 2, SW, 0, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0,
	  "cpu-clock" },
	{ "cpu-clock :u", 1, SW, 0, 0, 0, EK | EH | EG, 0, 0, 0, 0, 0, 0, "cpu-clock :u" },
	{ "cpu-clock: k", 1, SW, 0, 0, 0, EU | EH, 0, 0, 0, 0, 0, 0, "cpu-clock: k" },
	{ "cpu-clock ", 1, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock" },
	{ "cpu-clock//", 1, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock//" },
	{ "msr//", 1, 9, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "msr//" },
	{ "cpu-clock/config=3/", 1, SW, 3, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock/config=3/" },
	{ "mygroup{cpu-clock,task-clock}", 2, SW, 0, 0, 0, EG, 0, 0, 0, 0, 0, 0, "cpu-clock" },
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

/*
 * The event with the lowest attr.type, the first of equals: one name on
 * several PMUs ("uncore_imc/x/") comes in the sysfs folder's order, which
 * depends on the file system holding the fake tree (as for perf).
 */
static struct evsel *lowest_type(struct evlist *evlist)
{
	struct evsel *e, *low = evlist__first(evlist);

	evlist__for_each_entry(evlist, e)
		if (e->attr.type < low->attr.type)
			low = e;
	return low;
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
	e = lowest_type(evlist);
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
		return test_missing_fixture("no fake sysfs tree at %s", test_data_path("sysfs-fake-x86"));
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
	  "PMUs here: breakpoint cpu msr power software tracepoint uncore_imc_0 uncore_imc_1" },
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
	/* perf 6.1 takes only call-graph and its kin on a tracepoint */
	{ "sched:sched_switch/name=sw/", 19, "unknown term 'name' for tracepoint 'sched:sched_switch'",
	  "valid terms: call-graph,stack-size,max-stack,inherit,no-inherit,overwrite,"
	  "no-overwrite,aux-output" },
	{ "sched:sched_switch/call-graph=fp,period=3/", 33,
	  "unknown term 'period' for tracepoint 'sched:sched_switch'", NULL },
	{ "cpu-clock/branch_type=any_call,u/", 31, "unknown term 'u' for event 'cpu-clock'", NULL },
	{ "cpu-clock/branch_type=bogus/", 10, "unknown branch filter 'bogus'",
	  "valid branch filters: u,k,hv,any,any_call,any_ret,ind_call,abort_tx,in_tx,no_tx,"
	  "cond,ind_jmp,call,save_type,stack,priv" },
	{ "sched:zz*", 0, "no tracepoint matches 'sched:zz*'",
	  "'tperf list tracepoint' shows the tracepoints" },
	{ "mem:", 4, "breakpoint address must be a number (mem:0x1000)", NULL },
	{ "mem:zz", 4, "breakpoint address must be a number (mem:0x1000)", NULL },
	{ "mem:0x1000/", 11, "breakpoint length must be a number (mem:ADDR/8)", NULL },
	{ "mem:0x1000/x", 11, "breakpoint length must be a number (mem:ADDR/8)", NULL },
	{ "mem:-1", 4, "breakpoint address must be a number (mem:0x1000)", NULL },
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
	{ "cpu-clock xyz", 10, "unexpected 'xyz' after the event", NULL },
	{ "cpu-clock: x", 11, "unknown modifier 'x'",
	  "valid modifiers: u,k,h,G,H,I,p,pp,ppp,P,S,D,W,e" },
	{ "grp{cpu-clock", 3, "unterminated group", "close it with '}'" },
	{ "cpu-clock#", 9, "unexpected '#' after the event", NULL },
	{ "#", 0, "unexpected character '#'", NULL },
	{ "L1-dcache-stores-x", 0, "unknown event 'L1-dcache-stores-x'", NULL },
	{ "cpu/mem-loads-ldlat/", 4, "this event needs a value for 'ldlat': add ',ldlat=N'", NULL },
	{ "cpu/umask=1,mem-loads-ldlat,edge/", 12,
	  "this event needs a value for 'ldlat': add ',ldlat=N'", NULL },
	{ "mem-loads-ldlat", 0, "this event needs a value for 'ldlat': add ',ldlat=N'", NULL },
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
		return test_missing_fixture("no fake sysfs tree at %s", test_data_path("sysfs-fake-x86"));
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

static struct evsel *nth(struct evlist *evlist, int n)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e)
		if (e->idx == n)
			return e;
	return NULL;
}

TPERF_TEST(parse_events_groups, "parse-events: groups, leaders, group modifiers, appending")
{
	struct evlist *evlist;
	struct evsel *e;

	if (setup_fake_tree())
		return test_missing_fixture("no fake sysfs tree");
	evlist = evlist__new();
	TEST_ASSERT_VAL("parse", !parse_events(evlist, "cpu-clock,{task-clock,faults,cs}:S", NULL));
	TEST_ASSERT_VAL("parse again appends", !parse_events(evlist, "{cycles:k,instructions}:u",
							     NULL));
	TEST_ASSERT_EQUAL("entries", evlist->nr_entries, 6);
	TEST_ASSERT_EQUAL("groups", evlist->nr_groups, 2);
	e = nth(evlist, 0);
	TEST_ASSERT_VAL("alone", evsel__is_group_leader(e) && e->nr_members == 1);
	e = nth(evlist, 1);
	TEST_ASSERT_VAL("leader", evsel__is_group_leader(e));
	TEST_ASSERT_EQUAL("members", e->nr_members, 3);
	TEST_ASSERT_VAL(":S on the leader", e->sample_read_leader);
	TEST_ASSERT_VAL("member 2", nth(evlist, 2)->leader == e && nth(evlist, 3)->leader == e);
	TEST_ASSERT_STR("member name", nth(evlist, 3)->name, "cs");
	e = nth(evlist, 4);
	TEST_ASSERT_VAL("second leader", evsel__is_group_leader(e) && e->nr_members == 2);
	/* cycles:k then :u on the group: user and kernel, not hv */
	TEST_ASSERT_VAL("cycles:k + :u", !e->attr.exclude_user && !e->attr.exclude_kernel &&
					 e->attr.exclude_hv && e->attr.exclude_guest);
	e = nth(evlist, 5);
	TEST_ASSERT_VAL("instructions + :u", !e->attr.exclude_user && e->attr.exclude_kernel &&
					     e->attr.exclude_hv && e->leader == nth(evlist, 4));
	TEST_ASSERT_EQUAL("idx", e->idx, 5);
	evlist__delete(evlist);

	evlist = evlist__new();
	TEST_ASSERT_VAL("weak, pinned", !parse_events(evlist, "{cpu-clock,task-clock}:WDe", NULL));
	evlist__for_each_entry(evlist, e)
		TEST_ASSERT_VAL("W on every member", e->weak_group);
	/* the kernel pins (and makes exclusive) a group by its leader: perf sets it there only */
	TEST_ASSERT_VAL("D, e on the leader", nth(evlist, 0)->attr.pinned &&
					      nth(evlist, 0)->attr.exclusive);
	TEST_ASSERT_VAL("not on the member", !nth(evlist, 1)->attr.pinned &&
					     !nth(evlist, 1)->attr.exclusive);
	TEST_ASSERT_VAL("error keeps the list", parse_events(evlist, "cpu-clock,bogus", NULL));
	TEST_ASSERT_EQUAL("nothing added on error", evlist->nr_entries, 2);
	TEST_ASSERT_VAL("named group", !parse_events(evlist, "g1{cpu-clock,task-clock}", NULL));
	TEST_ASSERT_STR("group name", nth(evlist, 2)->group_name, "g1");
	TEST_ASSERT_VAL("member has none", !nth(evlist, 3)->group_name);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(parse_events_pmu_fields, "parse-events: scale, unit, cpumask and flags from sysfs")
{
	struct evlist *evlist;
	struct evsel *e;
	char buf[32];

	if (setup_fake_tree())
		return test_missing_fixture("no fake sysfs tree");
	evlist = evlist__new();
	TEST_ASSERT_VAL("parse", !parse_events(evlist, "power/energy-pkg/,uncore_imc_0/cas_count_read/,"
					       "uncore_imc_0/clockticks/,cpu/topdown-total-slots/,"
					       "msr/tsc/,cpu-clock,cpu/mem-loads/", NULL));
	e = nth(evlist, 0);
	TEST_ASSERT_VAL("power pmu", e->pmu && !strcmp(e->pmu->name, "power") && !e->powercap);
	TEST_ASSERT_VAL("scale", e->scale == 2.3283064365386962890625e-10);
	TEST_ASSERT_STR("unit", e->unit, "Joules");
	TEST_ASSERT_VAL("requires cpu", e->requires_cpu && e->own_cpus);
	cpu_map__snprint(e->own_cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("cpumask", buf, "0");
	e = nth(evlist, 1);
	TEST_ASSERT_VAL("MiB scale", e->scale == 6.103515625e-5);
	TEST_ASSERT_STR("MiB", e->unit, "MiB");
	cpu_map__snprint(e->own_cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("uncore cpumask", buf, "0,2");
	TEST_ASSERT_VAL("not per-pkg", !e->per_pkg && !e->snapshot);
	e = nth(evlist, 2);
	TEST_ASSERT_VAL("per-pkg, snapshot", e->per_pkg && e->snapshot && e->scale == 1.0);
	TEST_ASSERT_STR("no unit", e->unit, "");
	e = nth(evlist, 3);
	TEST_ASSERT_VAL("core pmu: any cpu", !e->own_cpus && !e->requires_cpu && e->scale == 4.0);
	e = nth(evlist, 4);
	TEST_ASSERT_VAL("msr has no cpumask here", !e->own_cpus && !e->requires_cpu);
	e = nth(evlist, 5);
	TEST_ASSERT_VAL("legacy: no pmu", !e->pmu && e->scale == 1.0 && !strcmp(e->unit, ""));
	TEST_ASSERT_STR("alias unit", nth(evlist, 6)->unit, "loads");
	evlist__delete(evlist);

	evlist = evlist__new();
	TEST_ASSERT_VAL("wildcard", !parse_events(evlist, "uncore_imc/cas_count_read/", NULL));
	/* (in the fake folder's readdir order) */
	e = nth(evlist, 0);
	if (e && e->attr.type != 22)
		e = nth(evlist, 1);
	TEST_ASSERT_VAL("second pmu", e && e->attr.type == 22 && e->scale == 6.103515625e-5);
	cpu_map__snprint(e->own_cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("its cpumask", buf, "1,3");
	TEST_ASSERT_VAL("tracepoint terms", !parse_events(evlist, "sched:sched_wakeup*/call-graph=fp,"
							      "max-stack=4/", NULL));
	evlist__for_each_entry(evlist, e) {
		if (e->idx >= 2)
			TEST_ASSERT_VAL("terms on each", !strcmp(e->terms.call_graph, "fp") &&
							  e->terms.max_stack == 4);
	}
	TEST_ASSERT_EQUAL("two tracepoints", evlist->nr_entries, 4);
	evlist__delete(evlist);
	return TEST_OK;
}

TPERF_TEST(parse_events_powercap, "parse-events: power/energy-*/ through powercap without a power PMU")
{
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;
	char *dir = test_mkdtemp();
	struct evsel *e;
	int ret;

	TEST_ASSERT_VAL("tmp", dir && evlist);
	test_write_file(dir, "bus/event_source/devices/software/type", "1\n");
	test_write_file(dir, "class/powercap/intel-rapl:0/name", "package-0\n");
	test_write_file(dir, "class/powercap/intel-rapl:0/energy_uj", "1000\n");
	test_write_file(dir, "class/powercap/intel-rapl:0/max_energy_range_uj", "262143328850\n");
	setenv("TPERF_SYSFS", dir, 1);
	pmu__reset();
	ret = parse_events(evlist, "power/energy-pkg/", &err);
	if (ret)
		parse_events_error__print(&err, stderr);
	TEST_ASSERT_VAL("parse", !ret);
	e = evlist__first(evlist);
	TEST_ASSERT_VAL("powercap event", e->powercap && !e->pmu);
	TEST_ASSERT_STR("unit", e->unit, "Joules");
	TEST_ASSERT_VAL("microjoules", e->scale == 1e-6 && e->requires_cpu);
	TEST_ASSERT_STR("name", e->name, "power/energy-pkg/");
	ret = parse_events(evlist, "power/energy-gpu/", &err);
	TEST_ASSERT_VAL("no gpu zone", ret == -EINVAL);
	TEST_ASSERT_STR("message", err.msg, "unknown powercap event 'energy-gpu'");
	TEST_ASSERT_EQUAL("caret", err.idx, 6);
	TEST_ASSERT_STR("help", err.help, "valid events: energy-pkg");
	parse_events_error__exit(&err);
	evlist__delete(evlist);
	return test_rm_rf(dir) ? TEST_FAIL : TEST_OK;
}

TPERF_TEST(parse_events_terms, "parse-events: config terms, and what 'stat' accepts")
{
	struct evlist *evlist = evlist__new();
	struct parse_events_error err;
	struct evsel *e;

	if (setup_fake_tree())
		return test_missing_fixture("no fake sysfs tree");
	TEST_ASSERT_VAL("parse", !parse_events(evlist,
		"cpu/event=1,period=1000,no-inherit,call-graph=dwarf,stack-size=4096,max-stack=3,"
		"metric-id=m1,percore,overwrite,aux-output/,cpu-clock/freq=99,inherit/", NULL));
	e = nth(evlist, 0);
	TEST_ASSERT_VAL("period", e->terms.period_set && e->terms.period == 1000 &&
				  !e->terms.freq_set);
	TEST_ASSERT_VAL("no sample_period in the attr", !e->attr.sample_period);
	TEST_ASSERT_EQUAL("no-inherit", e->terms.inherit, 0);
	TEST_ASSERT_STR("call-graph", e->terms.call_graph, "dwarf");
	TEST_ASSERT_EQUAL("stack-size", e->terms.stack_size, 4096);
	TEST_ASSERT_EQUAL("max-stack", e->terms.max_stack, 3);
	TEST_ASSERT_STR("metric-id", e->terms.metric_id, "m1");
	TEST_ASSERT_VAL("percore, overwrite, aux-output",
			e->terms.percore && e->terms.overwrite == 1 && e->terms.aux_output);
	e = nth(evlist, 1);
	TEST_ASSERT_VAL("freq", e->terms.freq_set && e->terms.freq == 99);
	TEST_ASSERT_VAL("inherit", e->terms.inherit == 1 && e->terms.overwrite == -1 &&
				   e->terms.max_stack == -1);
	evlist->parse.stat_terms = true;
	TEST_ASSERT_VAL("stat: period ok", !parse_events(evlist, "msr/tsc,period=10,percore/", NULL));
	TEST_ASSERT_VAL("stat: freq refused", parse_events(evlist, "msr/tsc,freq=10/", &err));
	TEST_ASSERT_STR("stat message", err.msg, "'freq' is not usable in 'tperf stat'");
	TEST_ASSERT_EQUAL("caret on the term", err.idx, 8);
	parse_events_error__exit(&err);
	TEST_ASSERT_VAL("stat: unknown", parse_events(evlist, "msr/evnt=1/", &err));
	TEST_ASSERT_STR("stat terms", err.help,
			"valid terms: event,config,config1,config2,name,period,percore,metric-id");
	parse_events_error__exit(&err);
	evlist__delete(evlist);
	return TEST_OK;
}

static int count_cache(const char *name, uint64_t config, void *data)
{
	int *n = data;

	if (*n == 0 && (strcmp(name, "L1-dcache-loads") || config != 0))
		return -1;
	if (*n == 1 && (strcmp(name, "L1-dcache-load-misses") || config != 0x10000))
		return -1;
	if (!strcmp(name, "node-prefetch-misses") && config != 0x10206)
		return -1;
	if (!strcmp(name, "L1-icache-stores") || !strcmp(name, "iTLB-stores") ||
	    !strcmp(name, "branch-prefetches"))
		return -1;
	(*n)++;
	return 0;
}

static int stop_at_3(const char *name, uint64_t config, void *data)
{
	(void)name;
	(void)config;
	return ++*(int *)data == 3 ? 42 : 0;
}

TPERF_TEST(parse_events_cache_list, "parse-events: the generic cache events, in perf's order")
{
	int n = 0;

	TEST_ASSERT_EQUAL("walk", for_each_hw_cache_event(count_cache, &n), 0);
	TEST_ASSERT_EQUAL("valid combinations", n, 32);
	n = 0;
	TEST_ASSERT_EQUAL("stops", for_each_hw_cache_event(stop_at_3, &n), 42);
	TEST_ASSERT_EQUAL("at 3", n, 3);
	TEST_ASSERT_EQUAL("hw symbols", nr_event_symbols_hw, 10);
	TEST_ASSERT_EQUAL("sw symbols", nr_event_symbols_sw, 12);
	return TEST_OK;
}

/* The callbacks print their errors; keep the test output clean. */
static void quiet_stderr(bool on)
{
	static int saved = -1;

	fflush(stderr);
	if (on) {
		int fd = open("/dev/null", O_WRONLY);

		saved = dup(2);
		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
	} else if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
		saved = -1;
	}
}

TPERF_TEST(parse_events_options, "parse-events: -e and --filter callbacks")
{
	struct evlist *evlist = NULL;
	int ret;
	struct option opt = { .value = &evlist };
	char out[4096] = "";
	FILE *fp;

	if (setup_fake_tree())
		return test_missing_fixture("no fake sysfs tree");
	TEST_ASSERT_EQUAL("-e allocates", parse_events_option(&opt, "cpu-clock", 0), 0);
	TEST_ASSERT_VAL("allocated", evlist && evlist->nr_entries == 1);
	quiet_stderr(true);
	ret = parse_tp_filter_option(&opt, "prev_pid == 1", 0);
	quiet_stderr(false);
	TEST_ASSERT_EQUAL("--filter after cpu-clock", ret, -1);
	TEST_ASSERT_EQUAL("-e tracepoint", parse_events_option(&opt, "sched:sched_switch", 0), 0);
	TEST_ASSERT_EQUAL("--filter", parse_tp_filter_option(&opt, "prev_pid == 1", 0), 0);
	TEST_ASSERT_STR("filter", evlist__last(evlist)->filter, "prev_pid == 1");
	TEST_ASSERT_EQUAL("second --filter", parse_tp_filter_option(&opt, "next_pid != 0", 0), 0);
	TEST_ASSERT_STR("and-ed as perf", evlist__last(evlist)->filter,
			"(prev_pid == 1) && (next_pid != 0)");
	/* every event of the last -e must be a tracepoint; cpu-clock before stays out */
	TEST_ASSERT_EQUAL("-e two", parse_events_option(&opt, "sched:sched_switch,sched:sched_wakeup",
							 0), 0);
	TEST_ASSERT_EQUAL("--filter both", parse_tp_filter_option(&opt, "common_pid != 0", 0), 0);
	TEST_ASSERT_STR("first of them", nth(evlist, 2)->filter, "common_pid != 0");
	TEST_ASSERT_STR("second of them", nth(evlist, 3)->filter, "common_pid != 0");
	TEST_ASSERT_STR("not the earlier -e", nth(evlist, 1)->filter,
			"(prev_pid == 1) && (next_pid != 0)");
	TEST_ASSERT_EQUAL("-e mixed", parse_events_option(&opt, "cpu-clock,sched:sched_switch", 0), 0);
	quiet_stderr(true);
	ret = parse_tp_filter_option(&opt, "prev_pid == 1", 0);
	quiet_stderr(false);
	TEST_ASSERT_EQUAL("--filter after a mixed -e", ret, -1);
	fp = fmemopen(out, sizeof(out), "w");
	TEST_ASSERT_VAL("fmemopen", fp);
	{
		struct parse_events_error err;

		parse_events(evlist, "cpu/evnt=1/", &err);
		parse_events_error__print(&err, fp);
		parse_events_error__exit(&err);
	}
	fclose(fp);
	TEST_ASSERT_STR("printed error", out,
			"tperf: event syntax error: 'cpu/evnt=1/'\n"
			"                                ^ unknown term 'evnt' for PMU 'cpu'\n"
			"valid terms: any,cmask,edge,event,fc_mask,frontend,in_tx,in_tx_cp,inv,"
			"ldlat,offcore_rsp,pc,umask,config,config1,config2,name,period,freq,"
			"branch_type,call-graph,stack-size,no-inherit,inherit,max-stack,"
			"no-overwrite,overwrite,percore,aux-output,metric-id\n");
	quiet_stderr(true);
	ret = parse_events_option(&opt, "bogus", 0);
	quiet_stderr(false);
	TEST_ASSERT_EQUAL("-e error", ret, -1);
	TEST_ASSERT_EQUAL("still 6", evlist->nr_entries, 6);
	evlist__delete(evlist);
	return TEST_OK;
}

/*
 * The fields `perf stat` sets itself when it opens a counter, not the
 * parser: sample_type IDENTIFIER, read_format (times, and ID|GROUP in a
 * group), inherit, disabled + enable_on_exec on leaders, no sample_period.
 * Everything else in the expected files comes from the parser.
 */
static void stat_overlay(struct evsel *e, struct perf_event_attr *a)
{
	*a = e->attr;
	a->sample_type = PERF_SAMPLE_IDENTIFIER;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (e->leader->nr_members > 1)
		a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	a->inherit = 1;
	a->sample_period = 0;
	if (evsel__is_group_leader(e)) {
		a->disabled = 1;
		a->enable_on_exec = 1;
	}
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;

	if (!f)
		return NULL;
	buf = malloc(65536);
	if (buf) {
		n = (ssize_t)fread(buf, 1, 65535, f);
		len = n > 0 ? (size_t)n : 0;
		buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

static const char *const attr_files[] = {
	"cpu-clock", "task-clock", "page-faults", "cycles", "cycles-u", "instructions-k",
	"l1-dcache-load-misses", "msr-tsc", "sched-switch", "mem-rw", "group-clocks",
	"cycles-ppp", "cycles-GH", "cache-prefetch", "raw", "bp-x",
};

TPERF_TEST(parse_events_attr_vs_perf, "parse-events: attrs as perf 6.1 -vv prints them (this machine)")
{
	char path[4096];
	int checked = 0;

	unsetenv("TPERF_SYSFS");
	unsetenv("TPERF_TRACEFS");
	pmu__reset();
	for (size_t i = 0; i < sizeof(attr_files) / sizeof(attr_files[0]); i++) {
		struct evlist *evlist = evlist__new();
		char *want, *nl, *got = NULL;
		size_t got_len = 0;
		struct evsel *e;
		FILE *fp;

		snprintf(path, sizeof(path), "attr-expected/%s.txt", attr_files[i]);
		want = read_text(test_data_path(path));
		TEST_ASSERT_VAL(path, want && want[0] == '#' && (nl = strchr(want, '\n')));
		*nl = '\0';
		if (parse_events(evlist, want + 2, NULL)) {
			/* msr or tracefs missing on this machine: nothing to compare */
			free(want);
			evlist__delete(evlist);
			continue;
		}
		fp = open_memstream(&got, &got_len);
		TEST_ASSERT_VAL("memstream", fp);
		evlist__for_each_entry(evlist, e) {
			struct perf_event_attr a;

			stat_overlay(e, &a);
			perf_event_attr__fprintf(fp, &a);
		}
		fclose(fp);
		TEST_ASSERT_STR(want + 2, got, nl + 1);
		checked++;
		free(got);
		free(want);
		evlist__delete(evlist);
	}
	return checked ? TEST_OK : test_missing_fixture("no event of the expected files parses here");
}

TPERF_TEST(attr_fprintf_record, "attr printing: a perf record -vv attr, field by field")
{
	struct perf_event_attr a = { 0 };
	char *want = read_text(test_data_path("attr-expected/record-dwarf.txt"));
	char *got = NULL;
	size_t len = 0;
	FILE *fp;

	TEST_ASSERT_VAL("expected file", want && strchr(want, '\n'));
	a.type = 9;
	a.size = sizeof(a);
	a.sample_freq = 4000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD | PERF_SAMPLE_REGS_USER |
			PERF_SAMPLE_STACK_USER | PERF_SAMPLE_DATA_SRC;
	a.read_format = PERF_FORMAT_ID | (1 << 4) /* LOST */;
	a.disabled = a.inherit = a.mmap = a.comm = a.freq = a.enable_on_exec = a.task = 1;
	a.mmap_data = a.sample_id_all = a.exclude_guest = a.exclude_callchain_user = 1;
	a.mmap2 = a.comm_exec = a.ksymbol = a.bpf_event = 1;
	a.sample_regs_user = 0xff0fff;
	a.sample_stack_user = 8192;
	fp = open_memstream(&got, &len);
	TEST_ASSERT_VAL("memstream", fp);
	perf_event_attr__fprintf(fp, &a);
	fclose(fp);
	TEST_ASSERT_STR("record attr", got, strchr(want, '\n') + 1);
	free(got);
	free(want);
	return TEST_OK;
}

TPERF_TEST(attr_fprintf_bits, "attr printing: sample_type and branch bits in perf's order")
{
	struct perf_event_attr a = { 0 };
	char *want = read_text(test_data_path("attr-expected/record-branch.txt"));
	char *got = NULL;
	size_t len = 0;
	FILE *fp;

	TEST_ASSERT_VAL("expected file", want && strchr(want, '\n'));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_freq = 4000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK |
			PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_DATA_SRC |
			PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
			PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT;
	a.read_format = PERF_FORMAT_ID | (1 << 4) /* LOST */;
	a.disabled = a.inherit = a.mmap = a.comm = a.freq = a.enable_on_exec = a.task = 1;
	a.mmap_data = a.sample_id_all = a.exclude_guest = a.mmap2 = a.comm_exec = 1;
	a.use_clockid = a.ksymbol = a.bpf_event = 1;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY_CALL |
			       PERF_SAMPLE_BRANCH_ABORT_TX | PERF_SAMPLE_BRANCH_COND |
			       PERF_SAMPLE_BRANCH_IND_JUMP | PERF_SAMPLE_BRANCH_CALL |
			       PERF_SAMPLE_BRANCH_TYPE_SAVE;
	a.sample_regs_user = 0x3;
	a.clockid = 1;
	a.sample_regs_intr = 0xff0fff;
	fp = open_memstream(&got, &len);
	TEST_ASSERT_VAL("memstream", fp);
	perf_event_attr__fprintf(fp, &a);
	fclose(fp);
	TEST_ASSERT_STR("record attr", got, strchr(want, '\n') + 1);
	free(got);
	free(want);
	return TEST_OK;
}

TPERF_TEST(parse_events_hybrid, "parse-events: one event per core PMU on a hybrid machine")
{
	static char dir[4096];
	struct evlist *evlist = evlist__new();
	struct evsel *e;
	char buf[32];

	snprintf(dir, sizeof(dir), "%s", test_data_path("sysfs-fake-hybrid"));
	setenv("TPERF_SYSFS", dir, 1);
	pmu__reset();
	if (!pmu__find("cpu_core"))
		return test_missing_fixture("no fake hybrid sysfs tree at %s", dir);
	TEST_ASSERT_VAL("parse", !parse_events(evlist, "cycles:u,L1-dcache-load-misses,r1a8,"
					       "cpu-clock,msr/tsc/,cpu_atom/cpu-cycles/", NULL));
	TEST_ASSERT_EQUAL("entries", evlist->nr_entries, 9);
	/* pmus sorted by name: cpu_atom (10) first, then cpu_core (4) */
	e = nth(evlist, 0);
	TEST_ASSERT_VAL("cycles on cpu_atom", e->attr.type == PERF_TYPE_HARDWARE &&
			e->attr.config == 0xa00000000ULL && e->attr.exclude_kernel);
	TEST_ASSERT_STR("name", e->name, "cycles:u");
	cpu_map__snprint(e->own_cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("atom cpus", buf, "4-7");
	e = nth(evlist, 1);
	TEST_ASSERT_VAL("cycles on cpu_core", e->attr.config == 0x400000000ULL &&
			!strcmp(e->pmu->name, "cpu_core") && e->attr.exclude_kernel);
	cpu_map__snprint(e->own_cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("core cpus", buf, "0-3");
	TEST_ASSERT_VAL("not requires_cpu", !e->requires_cpu);
	e = nth(evlist, 3);
	TEST_ASSERT_VAL("cache on cpu_core", e->attr.type == PERF_TYPE_HW_CACHE &&
			e->attr.config == 0x400010000ULL);
	TEST_ASSERT_STR("cache name", e->name, "L1-dcache-load-misses");
	TEST_ASSERT_VAL("raw: the pmu's type", nth(evlist, 4)->attr.type == 10 &&
			nth(evlist, 5)->attr.type == 4 && nth(evlist, 5)->attr.config == 0x1a8);
	TEST_ASSERT_VAL("software: one", nth(evlist, 6)->attr.type == PERF_TYPE_SOFTWARE &&
			!nth(evlist, 6)->own_cpus && nth(evlist, 7)->attr.type == 9);
	e = nth(evlist, 8);
	TEST_ASSERT_VAL("pmu alias", e->attr.type == 10 && e->attr.config == 0x3c);
	cpu_map__snprint(e->own_cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("its cpus", buf, "4-7");
	TEST_ASSERT_VAL("core: any thread", !e->requires_cpu);
	evlist__delete(evlist);
	return TEST_OK;
}

/* The fuzzer's seeds: seed-* parse, err-* are refused with a message. */
TPERF_TEST(parse_events_fuzz_seeds, "parse-events: the fuzz seed corpus (seed-* valid, err-* not)")
{
	static char dir[4096];
	struct dirent *de;
	int nr = 0;
	DIR *d;

	if (setup_fake_tree())
		return test_missing_fixture("no fake sysfs tree");
	snprintf(dir, sizeof(dir), "%s/../fuzz/corpus/parse-events", test_data_path(""));
	d = opendir(dir);
	if (!d)
		return test_missing_fixture("no seed corpus at %s", dir);
	while ((de = readdir(d))) {
		struct parse_events_error err;
		struct evlist *evlist;
		char path[8192], *text;
		bool valid = !strncmp(de->d_name, "seed-", 5);
		int ret;

		if (!valid && strncmp(de->d_name, "err-", 4))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		text = read_text(path);
		TEST_ASSERT_VAL(path, text);
		evlist = evlist__new();
		ret = parse_events(evlist, text, &err);
		if (valid && ret)
			TEST_FAILED_AT("%s: '%s': %s", de->d_name, text, err.msg);
		TEST_ASSERT_VAL(de->d_name, valid ? !ret && evlist->nr_entries > 0 :
					    ret == -EINVAL && err.msg && !evlist->nr_entries);
		parse_events_error__exit(&err);
		evlist__delete(evlist);
		free(text);
		nr++;
	}
	closedir(d);
	TEST_ASSERT_VAL("seeds found", nr >= 20);
	return TEST_OK;
}
