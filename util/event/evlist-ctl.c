// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --control: the commands of perf's control descriptor, for stat and
 * record (see evlist-ctl.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/event/evlist.h"
#include "util/event/evlist-ctl.h"
#include "util/event/evsel.h"

#define CTL_USAGE "--control takes fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]"

/**
 * evlist_ctl__init - see util/event/evlist-ctl.h
 */
void evlist_ctl__init(struct evlist_ctl *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = c->ack_fd = -1;
}

static int parse_fd(const char *s, const char **end, int *fd)
{
	char *e;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &e, 10);
	if (errno || v > INT_MAX)
		return -EINVAL;
	*fd = (int)v;
	*end = e;
	return 0;
}

static int open_fifo(const char *path, int *fd, char *msg, size_t size)
{
	int err;

	*fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (*fd >= 0)
		return 0;
	err = -errno;
	snprintf(msg, size, "cannot open the --control FIFO '%s': %s", path, strerror(errno));
	return err;
}

/**
 * evlist_ctl__open - see util/event/evlist-ctl.h
 */
int evlist_ctl__open(struct evlist_ctl *c, const char *spec, char *msg, size_t size)
{
	char path[PATH_MAX], *comma;
	const char *end;
	int err;

	evlist_ctl__init(c);
	if (!strncmp(spec, "fd:", 3)) {
		if (parse_fd(spec + 3, &end, &c->fd) ||
		    (*end == ',' && parse_fd(end + 1, &end, &c->ack_fd)) || *end) {
			evlist_ctl__init(c);
			snprintf(msg, size, CTL_USAGE);
			return -EINVAL;
		}
		return 0;
	}
	if (strncmp(spec, "fifo:", 5) || !spec[5] || spec[5] == ',' ||
	    strlen(spec + 5) >= sizeof(path)) {
		snprintf(msg, size, CTL_USAGE);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s", spec + 5);
	comma = strchr(path, ',');
	if (comma)
		*comma++ = '\0';
	c->own_fds = true;
	err = open_fifo(path, &c->fd, msg, size);
	if (!err && comma && *comma)
		err = open_fifo(comma, &c->ack_fd, msg, size);
	if (err)
		evlist_ctl__close(c);
	return err;
}

/**
 * evlist_ctl__close - see util/event/evlist-ctl.h
 */
void evlist_ctl__close(struct evlist_ctl *c)
{
	if (c->own_fds) {
		if (c->fd >= 0)
			close(c->fd);
		if (c->ack_fd >= 0)
			close(c->ack_fd);
	}
	evlist_ctl__init(c);
}

/* Keep the bytes not taken yet at the start of the buffer. */
static void compact(struct evlist_ctl *c)
{
	memmove(c->buf, c->buf + c->pos, c->len - c->pos);
	c->len -= c->pos;
	c->pos = 0;
	if (c->len == sizeof(c->buf) && !memchr(c->buf, '\n', c->len))
		c->len = 0;	/* a line longer than any command: dropped */
}

/**
 * evlist_ctl__feed - see util/event/evlist-ctl.h
 */
void evlist_ctl__feed(struct evlist_ctl *c, const void *data, size_t n)
{
	compact(c);
	if (n > sizeof(c->buf) - c->len)
		n = sizeof(c->buf) - c->len;
	memcpy(c->buf + c->len, data, n);
	c->len += n;
}

/**
 * evlist_ctl__read - see util/event/evlist-ctl.h
 */
int evlist_ctl__read(struct evlist_ctl *c)
{
	char tmp[sizeof(c->buf)];
	ssize_t n;

	compact(c);
	if (c->len == sizeof(c->buf))
		return 0;	/* full of lines not taken yet */
	n = read(c->fd, tmp, sizeof(c->buf) - c->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		int err = n ? -errno : -EPIPE;

		c->fd = -1;
		return err;
	}
	evlist_ctl__feed(c, tmp, (size_t)n);
	return 0;
}

static const struct {
	const char *word;
	enum evlist_ctl_cmd cmd;
} words[] = {
	{ "enable", EVLIST_CTL_ENABLE }, { "disable", EVLIST_CTL_DISABLE },
	{ "snapshot", EVLIST_CTL_SNAPSHOT }, { "evlist", EVLIST_CTL_EVLIST },
	{ "stop", EVLIST_CTL_STOP }, { "ping", EVLIST_CTL_PING },
};

/**
 * evlist_ctl__next - see util/event/evlist-ctl.h
 */
enum evlist_ctl_cmd evlist_ctl__next(struct evlist_ctl *c, const char **arg)
{
	char *line = c->buf + c->pos, *nl = memchr(line, '\n', c->len - c->pos);

	*arg = NULL;
	if (!nl)
		return EVLIST_CTL_NONE;
	*nl = '\0';
	c->pos = (size_t)(nl + 1 - c->buf);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i].word);

		if (strncmp(line, words[i].word, n))
			continue;
		if (!line[n])
			return words[i].cmd;
		if (line[n] == ' ' && line[n + 1] &&
		    (words[i].cmd == EVLIST_CTL_ENABLE || words[i].cmd == EVLIST_CTL_DISABLE)) {
			*arg = line + n + 1;
			return words[i].cmd;
		}
	}
	return EVLIST_CTL_UNSUPPORTED;
}

/**
 * evlist_ctl__apply - see util/event/evlist-ctl.h
 */
int evlist_ctl__apply(struct evlist *evlist, enum evlist_ctl_cmd cmd, const char *name)
{
	bool on = cmd == EVLIST_CTL_ENABLE;
	struct evsel *e;
	int n = 0;

	if (!name) {
		if (on)
			evlist__enable(evlist);
		else
			evlist__disable(evlist);
		return evlist->nr_entries;
	}
	evlist__for_each_entry(evlist, e) {
		if (strcmp(evsel__name(e), name))
			continue;
		if (on)
			evsel__enable(e);
		else
			evsel__disable(e);
		n++;
	}
	return n;
}

/**
 * evlist_ctl__acked - see util/event/evlist-ctl.h
 */
bool evlist_ctl__acked(enum evlist_ctl_cmd cmd)
{
	return cmd != EVLIST_CTL_NONE && cmd != EVLIST_CTL_UNSUPPORTED;
}

/**
 * evlist_ctl__ack - see util/event/evlist-ctl.h
 */
int evlist_ctl__ack(struct evlist_ctl *c)
{
	if (c->ack_fd < 0)
		return 0;
	return write(c->ack_fd, "ack\n", 4) == 4 ? 0 : -errno;
}
