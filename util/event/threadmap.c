// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Thread sets: the threads of processes (from procfs' task folders), given
 * thread ids, one forked workload, or "any thread" for per-CPU counting.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/lib/fs.h"
#include "util/event/threadmap.h"

static struct thread_map *thread_map__alloc(int nr)
{
	struct thread_map *m = malloc(sizeof(*m) + (size_t)nr * sizeof(pid_t));

	if (!m)
		return NULL;
	m->refcnt = 1;
	m->nr = nr;
	return m;
}

/* Append @tid to *@m (grown as needed); 0 or -ENOMEM. */
static int thread_map__append(struct thread_map **m, int *cap, pid_t tid)
{
	struct thread_map *n;

	for (int i = 0; i < (*m)->nr; i++)
		if ((*m)->map[i] == tid)
			return 0;
	if ((*m)->nr == *cap) {
		*cap *= 2;
		n = realloc(*m, sizeof(*n) + (size_t)*cap * sizeof(pid_t));
		if (!n)
			return -ENOMEM;
		*m = n;
	}
	(*m)->map[(*m)->nr++] = tid;
	return 0;
}

/* The next number of a "1,2,3" list into *@id; -EINVAL on anything else. */
static int next_id(const char **s, pid_t *id)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	errno = 0;
	v = strtol(*s, &end, 10);
	if (errno || v <= 0 || v > INT_MAX)
		return -EINVAL;
	*s = end;
	if (**s == ',') {
		(*s)++;
		if (!**s)
			return -EINVAL;
	} else if (**s) {
		return -EINVAL;
	}
	*id = (pid_t)v;
	return 0;
}

/* Add every thread in <procfs>/@pid/task; -ESRCH when the process is gone. */
static int add_tasks(struct thread_map **m, int *cap, pid_t pid)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int err = 0, n = 0;

	snprintf(path, sizeof(path), "%s/%d/task", procfs__mountpoint(), (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!err && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		err = thread_map__append(m, cap, (pid_t)atoi(d->d_name));
		n++;
	}
	closedir(dir);
	return err ? err : n ? 0 : -ESRCH;
}

static struct thread_map *thread_map__from_list(const char *list, bool tasks)
{
	int cap = 16, err = 0;
	struct thread_map *m;

	if (!list || !*list) {
		errno = EINVAL;
		return NULL;
	}
	m = thread_map__alloc(cap);
	if (!m)
		return NULL;
	m->nr = 0;
	while (*list && !err) {
		pid_t id;

		err = next_id(&list, &id);
		if (err)
			break;
		if (tasks)
			err = add_tasks(&m, &cap, id);
		else
			err = thread_map__append(&m, &cap, id);
	}
	if (err) {
		free(m);
		errno = -err;
		return NULL;
	}
	return m;
}

/**
 * thread_map__new_by_pid_str - every thread of the processes in a list
 * @pid_list: "PID[,PID...]"
 *
 * Return: the map, or NULL with errno EINVAL (bad list), ESRCH (no such
 * process) or ENOMEM.
 */
struct thread_map *thread_map__new_by_pid_str(const char *pid_list)
{
	return thread_map__from_list(pid_list, true);
}

/**
 * thread_map__new_by_tid_str - the threads of a list of thread ids
 * @tid_list: "TID[,TID...]"; each must exist under procfs
 *
 * Return: the map, or NULL with errno EINVAL, ESRCH or ENOMEM.
 */
struct thread_map *thread_map__new_by_tid_str(const char *tid_list)
{
	struct thread_map *m = thread_map__from_list(tid_list, false);
	char path[PATH_MAX];

	for (int i = 0; m && i < m->nr; i++) {
		snprintf(path, sizeof(path), "%s/%d", procfs__mountpoint(), (int)m->map[i]);
		if (access(path, F_OK)) {
			free(m);
			errno = ESRCH;
			return NULL;
		}
	}
	return m;
}

/**
 * thread_map__new_by_tid - a map of one thread
 * @tid: the thread (or -1 for "any thread")
 *
 * Return: the map or NULL (ENOMEM).
 */
struct thread_map *thread_map__new_by_tid(pid_t tid)
{
	struct thread_map *m = thread_map__alloc(1);

	if (m)
		m->map[0] = tid;
	return m;
}

/**
 * thread_map__new_any - the map {-1}: count every thread (per-CPU events)
 *
 * Return: the map or NULL (ENOMEM).
 */
struct thread_map *thread_map__new_any(void)
{
	return thread_map__new_by_tid(-1);
}

/**
 * thread_map__get - take a reference
 * @map: the map, or NULL
 *
 * Return: @map.
 */
struct thread_map *thread_map__get(struct thread_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

/**
 * thread_map__put - drop a reference, freeing the map with the last one
 * @map: the map, or NULL
 */
void thread_map__put(struct thread_map *map)
{
	if (map && --map->refcnt == 0)
		free(map);
}
