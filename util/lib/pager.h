/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TPERF_PAGER_H
#define TPERF_PAGER_H

/*
 * Send stdout through a pager when it is a terminal, as perf and git do:
 * TPERF_PAGER, then PAGER, then "less" (with LESS=FRX unless set); "cat" or
 * an empty value means none.  Nothing happens with --no-pager.
 */
void setup_pager(void);
int pager_in_use(void);

#endif
