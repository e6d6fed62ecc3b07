// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the DWARF preload (util/symbol/dwarf-preload.c): which records
 * of a data section it opens files for, and that what the unwinder takes
 * from it is what opening the file itself gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <elfutils/libdw.h>

#include "tests/tests.h"
#include "util/symbol/dwarf-preload.h"
#include "util/symbol/probe-elf.h"

struct buf {
	char data[8192];
	size_t len;
};

/* Record @rec (@rec_size bytes, header first) with @name after it, appended to @b. */
static void append_named(struct buf *b, void *rec, size_t rec_size, const char *name)
{
	size_t n = strlen(name) + 1, size = (rec_size + n + 7) & ~(size_t)7;

	((struct perf_event_header *)rec)->size = size;
	memset(b->data + b->len, 0, size);
	memcpy(b->data + b->len, rec, rec_size);
	memcpy(b->data + b->len + rec_size, name, n);
	b->len += size;
}

/* An MMAP2 record of @name (cpumode in @misc, @prot) appended to @b. */
static void add_mmap2(struct buf *b, u16 misc, u32 prot, const char *name)
{
	struct perf_record_mmap2 m = { .header = { .type = PERF_RECORD_MMAP2, .misc = misc },
				       .pid = 1, .tid = 1, .start = 0x400000, .len = 0x1000,
				       .prot = prot };

	append_named(b, &m, sizeof(m), name);
}

/* A user MMAP record of data (PERF_RECORD_MISC_MMAP_DATA) of @name appended to @b. */
static void add_mmap_data(struct buf *b, const char *name)
{
	struct perf_record_mmap m = { .header = { .type = PERF_RECORD_MMAP,
						  .misc = PERF_RECORD_MISC_USER |
							  PERF_RECORD_MISC_MMAP_DATA } };

	append_named(b, &m, sizeof(m), name);
}

struct names {
	char list[8][256];
	int nr;
};

static void collect(const char *name, void *arg)
{
	struct names *n = arg;

	if (n->nr < 8)
		snprintf(n->list[n->nr], sizeof(n->list[0]), "%s", name);
	n->nr++;
}

/* The records the thread looks at, and the one it opens a file for. */
static void make_section(struct buf *b, const char *exe)
{
	struct perf_event_header comm = { .type = PERF_RECORD_COMM, .size = 24 };

	b->len = 0;
	add_mmap2(b, PERF_RECORD_MISC_USER, PROT_READ, "/bin/sh");		/* not executable */
	add_mmap2(b, PERF_RECORD_MISC_KERNEL, PROT_READ | PROT_EXEC, "/bin/sh");	/* kernel's */
	add_mmap2(b, PERF_RECORD_MISC_USER, PROT_READ | PROT_EXEC, "rel/path");	/* relative */
	add_mmap2(b, PERF_RECORD_MISC_USER, PROT_READ | PROT_EXEC, "//anon");
	add_mmap_data(b, "/bin/sh");						/* data */
	memset(b->data + b->len, 0, comm.size);
	memcpy(b->data + b->len, &comm, sizeof(comm));
	b->len += comm.size;
	add_mmap2(b, PERF_RECORD_MISC_USER, PROT_READ | PROT_EXEC, exe);
}

static int test_preload_records(void)
{
	struct buf b;
	struct names n = { .nr = 0 };
	size_t len, last;

	make_section(&b, "/usr/lib/libx.so");
	len = b.len;
	/* a record that does not fit ends the walk; a cut one too */
	add_mmap2(&b, PERF_RECORD_MISC_USER, PROT_EXEC, "/after/a/bad/record");
	memcpy(b.data + len, &(struct perf_event_header){ .type = PERF_RECORD_MMAP2, .size = 4 },
	       sizeof(struct perf_event_header));
	TEST_ASSERT_EQUAL("walked", dwarf_preload__mapped_files(b.data, b.len, NULL, collect, &n),
			  len);
	TEST_ASSERT_EQUAL("files", n.nr, 1);
	TEST_ASSERT_STR("the executable mapping", n.list[0], "/usr/lib/libx.so");
	n.nr = 0;
	last = (sizeof(struct perf_record_mmap2) + strlen("/usr/lib/libx.so") + 1 + 7) & ~(size_t)7;
	TEST_ASSERT_EQUAL("cut short", dwarf_preload__mapped_files(b.data, len - 1, NULL, collect,
								    &n), len - last);
	TEST_ASSERT_EQUAL("none from a cut record", n.nr, 0);
	return TEST_OK;
}
TPERF_TEST(test_preload_records, "report: the DWARF preload opens executable user mappings only");

static int test_preload_take(void)
{
	char exe[4096], path[] = "/tmp/tperf-preload.XXXXXX";
	struct probe_elf *pe = NULL, *own = NULL;
	struct dwarf_preload *p;
	struct buf b;
	void *dw = NULL;
	Dwarf *own_dw;
	bool df = false, nothing = false;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd, err = TEST_OK;

	if (n <= 0)
		return test_skip("no /proc/self/exe");
	exe[n] = '\0';
	make_section(&b, exe);
	fd = mkstemp(path);
	if (fd < 0 || write(fd, b.data, b.len) != (ssize_t)b.len) {
		if (fd >= 0)
			close(fd);
		unlink(path);
		return test_skip("cannot write %s", path);
	}
	close(fd);
	p = dwarf_preload__start(path, 0, b.len, NULL);
	if (!p) {
		unlink(path);
		return test_skip("one CPU: no preload");
	}
	if (probe_elf__open(exe, &own)) {
		dwarf_preload__free(p);
		unlink(path);
		return test_skip("cannot open %s", exe);
	}
	own_dw = dwarf_begin_elf(probe_elf__scopes_elf(own), DWARF_C_READ, NULL);
	/* not known while the item waits its turn (the thread starts it at once) */
	for (int i = 0; i < 200 && !dwarf_preload__debug_frame(p, exe, &df); i++)
		usleep(10000);
	if (!dwarf_preload__debug_frame(p, exe, &df) || df != probe_elf__has_debug_frame(own)) {
		TEST_FAILED_AT("preload of %s: .debug_frame not known, or not the file's", exe);
		err = TEST_FAIL;
	} else if (!dwarf_preload__take(p, exe, &pe, &dw) || !pe || !dw != !own_dw) {
		TEST_FAILED_AT("preload of %s: not taken, or not what opening it gives", exe);
		err = TEST_FAIL;
	} else if (dwarf_preload__take(p, exe, &pe, &dw) ||
		   dwarf_preload__take(p, "/bin/sh", &pe, &dw) ||
		   dwarf_preload__debug_frame(p, "/bin/sh", &nothing)) {
		TEST_FAILED_AT("preload: taken twice, or a file it was not to open");
		err = TEST_FAIL;
	}
	if (dw && own_dw) {
		Dwarf_Aranges *a, *c;
		size_t na = 0, nc = 0;

		if (dwarf_getaranges(dw, &a, &na) != dwarf_getaranges(own_dw, &c, &nc) || na != nc) {
			TEST_FAILED_AT("the DWARF differs: %zu address ranges, not %zu", na, nc);
			err = TEST_FAIL;
		}
	}
	dwarf_end(dw);
	probe_elf__close(pe);
	dwarf_end(own_dw);
	probe_elf__close(own);
	dwarf_preload__free(p);
	unlink(path);
	return err;
}
TPERF_TEST(test_preload_take, "report: the DWARF preload's file is what opening it gives");

/*
 * The walk of a file: it opens the larger file first, and stops 4 MB past
 * the last mapping it had not seen (filler records between).
 */
static int test_preload_order(void)
{
	static char b[12u << 20];
	char exe[4096], path[] = "/tmp/tperf-preload.XXXXXX";
	const char *small = "/bin/true", *mid = "/usr/bin/dash", *late = "/bin/sh", *found[8];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct buf r;
	struct dwarf_preload *p;
	size_t len = 0;
	int fd, nr, err = TEST_OK;

	if (n <= 0)
		return test_skip("no /proc/self/exe");
	exe[n] = '\0';
	r.len = 0;
	add_mmap2(&r, PERF_RECORD_MISC_USER, PROT_READ | PROT_EXEC, small);
	add_mmap2(&r, PERF_RECORD_MISC_USER, PROT_READ | PROT_EXEC, exe);
	memcpy(b, r.data, r.len);
	len = r.len;
	/*
	 * a new mapping 3 MB on is found, one 6 MB after that is not (the walk
	 * stops 4 to 5 MB on: it reads a MB at a time)
	 */
	for (int part = 0; part < 2; part++) {
		size_t to = len + (part ? 6u << 20 : 3u << 20);

		while (len < to) {
			struct perf_event_header h = { .type = PERF_RECORD_COMM, .size = 65528 };

			memset(b + len, 0, h.size);
			memcpy(b + len, &h, sizeof(h));
			len += h.size;
		}
		r.len = 0;
		add_mmap2(&r, PERF_RECORD_MISC_USER, PROT_READ | PROT_EXEC, part ? late : mid);
		memcpy(b + len, r.data, r.len);
		len += r.len;
	}
	fd = mkstemp(path);
	if (fd < 0 || write(fd, b, len) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		unlink(path);
		return test_skip("cannot write %s", path);
	}
	close(fd);
	p = dwarf_preload__start(path, 0, len, NULL);
	if (!p) {
		unlink(path);
		return test_skip("one CPU: no preload");
	}
	nr = dwarf_preload__files(p, found, 8);
	if (nr != 3 || strcmp(found[0], exe) || strcmp(found[1], mid) || strcmp(found[2], small)) {
		TEST_FAILED_AT("found %d files (%s, %s, %s), not this test's, %s, %s", nr,
			       nr > 0 ? found[0] : "-", nr > 1 ? found[1] : "-",
			       nr > 2 ? found[2] : "-", mid, small);
		err = TEST_FAIL;
	}
	dwarf_preload__free(p);
	unlink(path);
	return err;
}
TPERF_TEST(test_preload_order, "report: the DWARF preload: largest file first, a walk that stops");
