// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Records from a producer to a consumer thread, a block at a time (see
 * batch-pipe.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/lib/batch-pipe.h"

#define BLOCK_SIZE	(256u << 10)
#define MAX_IN_FLIGHT	8	/* blocks queued or being consumed */

struct block {
	struct block *next;
	size_t size, used;	/* bytes of data[] */
	_Alignas(8) unsigned char data[];
};

struct batch_pipe {
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a block was queued, or done */
	pthread_cond_t room;		/* a block was consumed */
	struct block *head, *tail;	/* queued, oldest first */
	struct block *spare;		/* consumed standard blocks, for reuse */
	int in_flight;
	bool done;
	int err;			/* the consumer's, under lock */
	batch_consume_fn consume;
	void *arg;
	/* the producer's own */
	struct block *cur;
	size_t reserved;
	int producer_err;
};

/* Each record: its whole size (header included, a multiple of 8), then its bytes. */
static size_t record_size(size_t size)
{
	return (sizeof(uint64_t) + size + 7) & ~(size_t)7;
}

/**
 * batch_pipe__usable_cpus - see batch-pipe.h
 */
int batch_pipe__usable_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? n : 1;
}

static void consume_block(struct batch_pipe *p, struct block *b, int *err)
{
	for (size_t off = 0; off < b->used && !*err;) {
		uint64_t size;

		__builtin_memcpy(&size, b->data + off, sizeof(size));
		*err = p->consume(p->arg, b->data + off + sizeof(size));
		off += size;
	}
}

static void *consumer(void *arg)
{
	struct batch_pipe *p = arg;
	int err = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct block *b;

		while (!p->head && !p->done)
			pthread_cond_wait(&p->work, &p->lock);
		b = p->head;
		if (!b)
			break;
		p->head = b->next;
		if (!p->head)
			p->tail = NULL;
		pthread_mutex_unlock(&p->lock);
		if (!err)	/* after a failure the rest is drained unread */
			consume_block(p, b, &err);
		pthread_mutex_lock(&p->lock);
		if (err && !p->err)
			p->err = err;
		if (b->size == BLOCK_SIZE) {
			b->next = p->spare;
			p->spare = b;
		} else {
			free(b);
		}
		p->in_flight--;
		pthread_cond_signal(&p->room);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/**
 * batch_pipe__start - see batch-pipe.h
 */
struct batch_pipe *batch_pipe__start(batch_consume_fn consume, void *arg)
{
	struct batch_pipe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->consume = consume;
	p->arg = arg;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->room, NULL);
	if (pthread_create(&p->th, NULL, consumer, p)) {
		pthread_cond_destroy(&p->room);
		pthread_cond_destroy(&p->work);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	return p;
}

/* Queue the producer's block for the consumer, waiting while too many are. */
static void hand_over(struct batch_pipe *p)
{
	struct block *b = p->cur;

	p->cur = NULL;
	if (!b)
		return;
	if (!b->used) {
		free(b);
		return;
	}
	b->next = NULL;
	pthread_mutex_lock(&p->lock);
	while (p->in_flight >= MAX_IN_FLIGHT)
		pthread_cond_wait(&p->room, &p->lock);
	if (p->tail)
		p->tail->next = b;
	else
		p->head = b;
	p->tail = b;
	p->in_flight++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

/* A block with room for @need bytes: a spare one, or a new one. */
static struct block *new_block(struct batch_pipe *p, size_t need, int *consumer_err)
{
	struct block *b = NULL;
	size_t size = need > BLOCK_SIZE ? need : BLOCK_SIZE;

	pthread_mutex_lock(&p->lock);
	*consumer_err = p->err;
	if (size == BLOCK_SIZE && p->spare) {
		b = p->spare;
		p->spare = b->next;
	}
	pthread_mutex_unlock(&p->lock);
	if (!b) {
		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
	}
	b->used = 0;
	return b;
}

/**
 * batch_pipe__reserve - see batch-pipe.h
 */
void *batch_pipe__reserve(struct batch_pipe *p, size_t size)
{
	size_t need = record_size(size);
	uint64_t whole = need;
	int err = 0;

	if (p->producer_err)
		return NULL;
	if (p->cur && p->cur->used + need > p->cur->size)
		hand_over(p);
	if (!p->cur) {
		p->cur = new_block(p, need, &err);
		if (!p->cur || err) {
			p->producer_err = p->cur ? err : -ENOMEM;
			return NULL;
		}
	}
	__builtin_memcpy(p->cur->data + p->cur->used, &whole, sizeof(whole));
	p->reserved = need;
	return p->cur->data + p->cur->used + sizeof(whole);
}

/**
 * batch_pipe__commit - see batch-pipe.h
 */
void batch_pipe__commit(struct batch_pipe *p)
{
	p->cur->used += p->reserved;
	p->reserved = 0;
}

/**
 * batch_pipe__finish - see batch-pipe.h
 */
int batch_pipe__finish(struct batch_pipe *p)
{
	int err;

	hand_over(p);
	pthread_mutex_lock(&p->lock);
	p->done = true;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->th, NULL);
	err = p->err ? p->err : p->producer_err;
	while (p->spare) {
		struct block *b = p->spare;

		p->spare = b->next;
		free(b);
	}
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	free(p);
	return err;
}
