/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A private tracefs instance (instances/tperf-PID) and the restore list:
 * every write goes through tracefs_instance__write(), which saves the old
 * value first; tracefs_instance__remove() replays the list and removes the
 * instance.  It also runs from atexit and from the SIGINT/SIGTERM handler,
 * so the user's tracing is left as it was on every exit path.
 */
#ifndef TPERF_TRACEFS_INSTANCE_H
#define TPERF_TRACEFS_INSTANCE_H

#include <signal.h>
#include <stdbool.h>

/**
 * tracefs_instance__mount_point - the tracefs mount, "/sys/kernel/tracing"
 *	(mounted there when it is not yet), or NULL
 */
const char *tracefs_instance__mount_point(void);

/**
 * tracefs_instance__create - mkdir instances/@name; removal is registered
 *	at once (atexit and the signal handlers)
 * Returns 0 or -errno.
 */
int tracefs_instance__create(const char *name);

/**
 * tracefs_instance__attach - use the existing directory @dir as the
 *	instance: its writes are restored as the instance's are, but the
 *	directory is not removed (tests point it at a directory of files)
 * Returns 0 or -errno.
 */
int tracefs_instance__attach(const char *dir);

/**
 * tracefs_instance__path - the path of @file in the instance (static buffer
 *	per call site is not kept: copy it)
 */
const char *tracefs_instance__path(const char *file, char *buf, size_t size);

/**
 * tracefs_instance__write - save @file's value, then write @val to it; the
 *	restore list grows as needed (every write is undone)
 * Returns 0 or -errno (the kernel's refusal, e.g. -EPERM, -EINVAL; -ENOMEM
 * when the old value cannot be kept: then nothing is written).
 */
int tracefs_instance__write(const char *file, const char *val);

/**
 * tracefs_instance__append - append @val to @file (O_APPEND, e.g. filters)
 */
int tracefs_instance__append(const char *file, const char *val);

/**
 * tracefs_instance__read - read @file of the instance into @buf (NUL-terminated)
 * Returns the length or -errno.
 */
int tracefs_instance__read(const char *file, char *buf, size_t size);

/**
 * tracefs_instance__remove - replay the restore list and rmdir the instance;
 *	async-signal-safe, idempotent.  A busy instance is tried again for up
 *	to 5 s.
 * Return: 0, or -errno of the rmdir that failed: @name (its size @size)
 *	then gets the instance's name, for the caller to say so.
 */
int tracefs_instance__remove_named(char *name, size_t size);
void tracefs_instance__remove(void);

/**
 * tracefs_instance__on_signal - what the signals that end a process do
 *	(SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGALRM ...): with @flag
 *	set they only set *@flag to the signal (the caller stops, cleans up,
 *	and ends as the signal would where tracefs_instance__user_stop() says
 *	no), with NULL they remove the instance and kill the process with the
 *	signal; a fault (SIGSEGV ...) removes it and kills the process always
 */
void tracefs_instance__on_signal(volatile sig_atomic_t *flag);

/**
 * tracefs_instance__stale - the instances a tperf left behind (SIGKILL):
 *	named tperf-PID where no process PID runs; their names into @names, each
 *	NUL-terminated, an empty one after the last, *@nr of them (as many as
 *	@size holds)
 * Returns 0 or -errno (no tracefs, instances/ unreadable).
 */
int tracefs_instance__stale(char *names, size_t size, size_t *nr);

/**
 * tracefs_instance__remove_stale - stop instance @name (tperf-PID), clear
 *	its events and remove it
 * Returns 0 or -errno (-EINVAL: not a tperf instance's name).
 */
int tracefs_instance__remove_stale(const char *name);

/** tracefs_instance__user_stop - is @sig a user's way to stop a command (INT, TERM, HUP)? */
bool tracefs_instance__user_stop(int sig);

#endif
