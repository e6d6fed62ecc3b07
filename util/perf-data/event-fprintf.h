/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records as text, in Linux perf 6.1's words: the "PERF_RECORD_MMAP2
 * 1/1: [0x...(0x...) @ 0x... fe:00 123 0]: r-xp /usr/bin/x" lines of
 * `perf script --show-*-events`, and the raw dump of `perf script -D` /
 * `perf report -D` (offset, size, type, hex dump, decoded line).
 */
#ifndef TPERF_EVENT_FPRINTF_H
#define TPERF_EVENT_FPRINTF_H

#include <stdio.h>

#include "util/perf-data/event.h"
#include "util/perf-data/header.h"

/**
 * perf_event__fprintf - "PERF_RECORD_<NAME>" and the record's details, as
 * perf prints them, with the newline
 *
 * Details are decoded for MMAP, MMAP2, COMM, FORK, EXIT, LOST,
 * LOST_SAMPLES, SWITCH, SWITCH_CPU_WIDE, THROTTLE, UNTHROTTLE, KSYMBOL and
 * the user records ID_INDEX, THREAD_MAP, CPU_MAP, FINISHED_ROUND; others
 * print their name.  Fields are read only within header.size.
 * Return: 0 or -EIO.
 */
int perf_event__fprintf(FILE *fp, const union perf_event *ev);

/**
 * perf_event__fprintf_raw - the raw part of a -D dump of one record:
 * "\n0x<off>@<path> [0x<size>]: event: <type>", the hex dump lines
 * (". ... raw event: size N bytes" and ".  0000:  xx ... ascii"), an empty line
 * @path: the file name as given by the user
 */
void perf_event__fprintf_raw(FILE *fp, const union perf_event *ev, u64 offset, const char *path);

/**
 * perf_event__fprintf_dump - the whole -D entry of one record: the raw
 * part, the "[cpu ]time 0x<off> [0x<size>]: PERF_RECORD_..." line, and for
 * samples perf's sample dump (pid/tid, ip, period, addr, the FP chain, the
 * read values, the branch stack entries, weight, data_src, phys_addr)
 * @h: the file's header: the time stamp is printed by its first event's
 *	sample_type ("-1 -1" for non-samples without sample_id_all), as perf does
 * @attr: the record's event (NULL when unknown)
 * @s: the parsed sample fields
 * Return: 0 or -EIO.
 */
int perf_event__fprintf_dump(FILE *fp, const union perf_event *ev, u64 offset, const char *path,
			     const struct perf_header *h, const struct perf_event_attr *attr,
			     const struct perf_sample *s);

/**
 * perf_reg_name - the name perf gives sample register @bit (x86: "AX" ...
 * "R15", "XMM0" from bit 32)
 * @buf: room for a generated name
 */
const char *perf_reg_name(unsigned int bit, char *buf, size_t size);

#endif
