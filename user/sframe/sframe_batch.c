// SPDX-License-Identifier: GPL-2.0
/*
 * Many files' SFrame tables at once (sframe_batch.h): the caller and up to
 * DW_SFRAME_BATCH_HELPERS_MAX helper threads take the files in order, each
 * generates (or loads from the cache) and registers its file's table
 * (sframe_reg.c, which keeps no state between calls), and the caller
 * alone hands each result to @done.  The helpers share nothing but the
 * items and the counters below; a file's result is published by its
 * state's store-release.
 */
#include <errno.h>
#include <libelf.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>

#include "sframe/sframe_batch.h"

/* dw_sframe_batch_item.state */
enum {
	BATCH_FREE = 0,		/* not started */
	BATCH_TAKEN,		/* being made, by the caller or a helper */
	BATCH_DONE,		/* made: @err and @res are final */
	BATCH_REPORTED,		/* handed to @done */
};

/* How often the caller ticks while only helpers are busy. */
#define BATCH_WAIT_NS	2000000L

struct batch_run {
	const struct dw_sframe_batch *b;
	atomic_size_t next;		/* the next item to take */
	atomic_uint running;		/* helpers not yet out of their loop */
	atomic_int quit;		/* set by the caller: take no more */
};

/* The index of the next item to make, or b->n when there is none. */
static size_t batch_take(struct batch_run *r)
{
	size_t i;

	if (atomic_load(&r->quit))
		return r->b->n;
	i = atomic_fetch_add(&r->next, 1);
	if (i >= r->b->n)
		return r->b->n;
	atomic_store(&r->b->items[i].state, BATCH_TAKEN);
	return i;
}

static void batch_make(struct batch_run *r, size_t i)
{
	const struct dw_sframe_batch *b = r->b;
	struct dw_sframe_batch_item *it = &b->items[i];
	struct dw_sframe_reg_opts o = { 0 };

	if (b->opts)
		o = *b->opts;
	o.flags |= it->flags;
	it->err = dw_sframe_register_file(b->dev_fd, it->path, &o, &it->res);
	/* Pairs with the load-acquire in batch_report(). */
	atomic_store_explicit(&it->state, BATCH_DONE, memory_order_release);
}

static void *batch_helper(void *arg)
{
	struct batch_run *r = arg;
	size_t i;

	while ((i = batch_take(r)) < r->b->n)
		batch_make(r, i);
	/* After its last item's state: the caller reports it after this. */
	atomic_fetch_sub(&r->running, 1);
	return NULL;
}

/* Hand every item made since to @done; *@lo: the first not reported. */
static size_t batch_report(struct batch_run *r, size_t *lo)
{
	const struct dw_sframe_batch *b = r->b;
	size_t i, end = atomic_load(&r->next), n = 0;

	if (end > b->n)
		end = b->n;
	for (i = *lo; i < end; i++) {
		struct dw_sframe_batch_item *it = &b->items[i];

		if (atomic_load_explicit(&it->state, memory_order_acquire) != BATCH_DONE)
			continue;
		atomic_store(&it->state, BATCH_REPORTED);
		if (b->done)
			b->done(b->arg, it);
		n++;
	}
	while (*lo < end && atomic_load(&b->items[*lo].state) == BATCH_REPORTED)
		(*lo)++;
	return n;
}

/* Tick; if the caller says stop, no item is taken any more. */
static void batch_tick(struct batch_run *r)
{
	if (r->b->tick)
		r->b->tick(r->b->arg);
	if (r->b->stop && *r->b->stop)
		atomic_store(&r->quit, 1);
}

/**
 * dw_sframe_batch_helpers() - helper threads worth starting here
 *
 * One less than the CPUs this process may run on, at most
 * DW_SFRAME_BATCH_HELPERS_MAX.
 *
 * Context: user space.
 * Return: 0 to DW_SFRAME_BATCH_HELPERS_MAX.
 */
unsigned int dw_sframe_batch_helpers(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	n = CPU_COUNT(&set) - 1;
	if (n <= 0)
		return 0;
	return n > DW_SFRAME_BATCH_HELPERS_MAX ? DW_SFRAME_BATCH_HELPERS_MAX : (unsigned int)n;
}

/**
 * dw_sframe_batch_run() - make and register the tables of a batch of files
 * @b:	the batch; its items' @state must be 0
 *
 * Starts up to @b->helpers threads (fewer if they cannot be made: the
 * caller then makes more itself), with every signal blocked, and takes
 * files itself too; returns once every file started has been handed to
 * @b->done and the helpers are gone.
 *
 * Context: user space.
 * Return: the files made (all of them unless @b->stop was set).
 */
size_t dw_sframe_batch_run(const struct dw_sframe_batch *b)
{
	struct batch_run r = { .b = b };
	pthread_t tid[DW_SFRAME_BATCH_HELPERS_MAX];
	unsigned int nr = 0, want = b->helpers;
	sigset_t all, old;
	size_t i, lo = 0, made = 0;

	if (!b->n)
		return 0;
	/* Once, before the threads: libelf keeps the version in a global. */
	elf_version(EV_CURRENT);
	if (want > DW_SFRAME_BATCH_HELPERS_MAX)
		want = DW_SFRAME_BATCH_HELPERS_MAX;
	if (want > b->n - 1)
		want = (unsigned int)(b->n - 1);
	sigfillset(&all);
	if (want && !pthread_sigmask(SIG_SETMASK, &all, &old)) {
		for (; nr < want; nr++) {
			atomic_fetch_add(&r.running, 1);
			if (pthread_create(&tid[nr], NULL, batch_helper, &r)) {
				atomic_fetch_sub(&r.running, 1);
				break;
			}
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	for (;;) {
		made += batch_report(&r, &lo);
		i = batch_take(&r);
		if (i < b->n) {
			batch_make(&r, i);
			batch_tick(&r);
			continue;
		}
		if (!atomic_load(&r.running))
			break;
		batch_tick(&r);
		nanosleep(&(struct timespec){ .tv_nsec = BATCH_WAIT_NS }, NULL);
	}
	for (i = 0; i < nr; i++)
		pthread_join(tid[i], NULL);
	made += batch_report(&r, &lo);
	return made;
}
