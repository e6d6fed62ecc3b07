// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loads a trace.dat with libkshark, the library KernelShark reads its files
 * with, and prints one line per entry, in KernelShark's order:
 * "PID TASK SYSTEM/EVENT".  Used by t0505; built there with pkg-config.
 */
#include <stdio.h>
#include <stdlib.h>
#include <kernelshark/libkshark.h>
int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	ssize_t n;
	int sd;

	if (argc != 2 || !kshark_instance(&ctx))
		return 2;
	sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "kshark_open failed: %d\n", sd);
		return 1;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	if (n < 0)
		return 1;
	for (ssize_t i = 0; i < n; i++) {
		char *ev = kshark_get_event_name(rows[i]), *task = kshark_get_task(rows[i]);
		printf("%d %s %s\n", rows[i]->pid, task ? task : "?", ev ? ev : "?");
		free(ev); free(task); free(rows[i]);
	}
	free(rows);
	kshark_close_all(ctx);
	kshark_free(ctx);
	return 0;
}
