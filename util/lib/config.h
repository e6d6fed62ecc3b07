/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one mutable global meant to stay: settings every command shares,
 * filled from the global options in perf.c (and later from a config file).
 * Other writable static variables are listed with their reasons in
 * tests/shell/globals.allow (Documentation/design.md, "State").
 */
#ifndef TPERF_CONFIG_H
#define TPERF_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

struct tperf_config {
	int verbose;		/* -v count, or --debug verbose=N */
	int debug_ordered_events;
	bool debug_stderr;	/* --debug stderr: debug messages even when quiet */
	bool quiet;		/* -q: only errors */
	bool no_pager;		/* --no-pager */
	bool use_color;		/* decided by pager/color setup */
	const char *buildid_dir; /* --buildid-dir: the build-id cache, NULL: default */
	const char *cmd;	/* the running subcommand, for messages */
	bool demangle;		/* false with --no-demangle (report, script): C++ and Rust
				   names stay as in the symbol table */
};

extern struct tperf_config tperf_config;

#endif
