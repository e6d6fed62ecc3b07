/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --control of stat and record: perf's commands read from a descriptor
 * or a FIFO ("enable", "disable", "enable NAME", "disable NAME",
 * "snapshot", "evlist", "stop", "ping", one a line), "ack\n" written to
 * the ack descriptor after each command perf acknowledges.  The command
 * reads the descriptor when poll() says so, takes the commands one by one
 * and acts on them; enabling and disabling the events is done here.
 */
#ifndef TPERF_EVLIST_CTL_H
#define TPERF_EVLIST_CTL_H

#include <stdbool.h>
#include <stddef.h>

struct evlist;

enum evlist_ctl_cmd {
	EVLIST_CTL_NONE,		/* no whole line left */
	EVLIST_CTL_UNSUPPORTED,		/* a line that is no command: no ack, as perf */
	EVLIST_CTL_ENABLE,		/* arg: an event's name, or NULL for all */
	EVLIST_CTL_DISABLE,
	EVLIST_CTL_SNAPSHOT,
	EVLIST_CTL_EVLIST,
	EVLIST_CTL_STOP,
	EVLIST_CTL_PING,
};

struct evlist_ctl {
	int fd, ack_fd;			/* -1: none */
	bool own_fds;			/* opened here (FIFOs): closed by evlist_ctl__close() */
	char buf[256];			/* bytes read, not yet taken */
	size_t len, pos;
};

/* No control: both descriptors -1. */
void evlist_ctl__init(struct evlist_ctl *c);

/**
 * evlist_ctl__open - set up --control's "fd:CTL[,ACK]" (descriptors as they
 * are) or "fifo:CTL[,ACK]" (FIFOs opened read-write, so that the open waits
 * for no writer, as perf opens them)
 * Return: 0, -EINVAL for a string of neither form, or -errno of a FIFO that
 * does not open; the message in @msg.
 */
int evlist_ctl__open(struct evlist_ctl *c, const char *spec, char *msg, size_t size);

/* Close the FIFOs evlist_ctl__open() opened; both descriptors become -1. */
void evlist_ctl__close(struct evlist_ctl *c);

/**
 * evlist_ctl__read - read what c->fd holds (one read)
 * Return: 0, or -errno / -EPIPE at its end: c->fd is then -1 (nothing more
 * to listen to; perf ignores a closed or bad control descriptor too).
 */
int evlist_ctl__read(struct evlist_ctl *c);

/* Add @n bytes as if read, as many as there is room for (the rest is dropped). */
void evlist_ctl__feed(struct evlist_ctl *c, const void *data, size_t n);

/**
 * evlist_ctl__next - the next whole line of what was read, as a command
 * @arg: the event name of "enable NAME" / "disable NAME", else NULL; valid
 *       until the next read or feed
 * Return: the command, EVLIST_CTL_NONE when no whole line is left.  A line
 * longer than the buffer is dropped.
 */
enum evlist_ctl_cmd evlist_ctl__next(struct evlist_ctl *c, const char **arg);

/**
 * evlist_ctl__apply - enable or disable (@cmd) every event of @evlist, or
 * those named @name
 * Return: the number of events changed (0: no event has that name).
 */
int evlist_ctl__apply(struct evlist *evlist, enum evlist_ctl_cmd cmd, const char *name);

/* Whether perf acknowledges @cmd: every command but an unsupported line. */
bool evlist_ctl__acked(enum evlist_ctl_cmd cmd);

/* Write "ack\n" to the ack descriptor, if any.  Return: 0 or -errno. */
int evlist_ctl__ack(struct evlist_ctl *c);

#endif
