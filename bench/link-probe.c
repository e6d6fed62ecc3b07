// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * link-probe: a program that links one function of each library tperf uses
 * (never calling them) and prints a version line, like `tperf --version`.
 * bench/link-layout.sh links it with every library shared, then as the
 * Makefile links tperf, to show what each layout costs at start-up.
 */
#include <elfutils/libdwfl.h>
#include <event-parse.h>
#include <libelf.h>
#include <stdio.h>
#include <tracefs.h>
#include <zlib.h>
#include <zstd.h>
#ifdef HAVE_LIBUNWIND
#include <libunwind.h>
#endif

int main(int argc, char **argv)
{
	static const Dwfl_Callbacks callbacks;

	if (argc > 100) {
		/* referenced so that the linker keeps each library */
		dwfl_begin(&callbacks);
		elf_version(EV_CURRENT);
		zlibVersion();
		ZSTD_versionNumber();
		tep_free(tep_alloc());
		tracefs_tracing_dir();
#ifdef HAVE_LIBUNWIND
		unw_init_local(NULL, NULL);
#endif
	}
	puts("tperf version 0.0.0");
	return 0;
}
