// SPDX-License-Identifier: GPL-2.0
/*
 * stack_scribble: threads whose stack frames change while they are walked.
 *
 *   stack_scribble [THREADS]    (default 4)
 *
 * Each thread calls down 8 frames (frame pointers) and, at the bottom,
 * never returns: it rewrites, over and over, the saved frame pointers and
 * return addresses of its own frames and of the next thread's (whose walk
 * may be running at that moment), and the words between them, with random
 * words, pointers into an unmapped page, pointers back into the same stack
 * (loops, forward and backward), kernel addresses, and now and then the
 * true values.  Nothing it writes is ever used: no thread returns.
 *
 * Prints "ready" once every thread is scribbling; runs until killed or 300 s.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define DEPTH		8
#define MAX_THREADS	16

struct victim {
	uintptr_t *frame[DEPTH];	/* each frame's [0] saved %rbp, [1] return address */
	uintptr_t good[DEPTH][2];	/* their true values */
	volatile int ready;
};

static struct victim victims[MAX_THREADS];
static uintptr_t unmapped;
static int nthreads;

static uintptr_t xorshift(uintptr_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* One value for a stack slot of @v, of a kind chosen by @r. */
static uintptr_t hostile_word(const struct victim *v, uintptr_t r)
{
	switch (r % 6) {
	case 0:
		return r;						/* random */
	case 1:
		return unmapped + (r >> 8) % 4096;			/* unmapped */
	case 2:
		return (uintptr_t)v->frame[(r >> 8) % DEPTH];		/* a loop */
	case 3:
		return (uintptr_t)v->frame[(r >> 8) % DEPTH] - 64;	/* backwards */
	case 4:
		return 0xffffffff81000000UL + (r >> 8) % (1 << 20);	/* kernel */
	default:
		return 0;
	}
}

/* Rewrite @v's frames: @r picks the frame, the slot and the value. */
static void scribble(struct victim *v, uintptr_t r)
{
	unsigned int d = (r >> 3) % DEPTH, slot = (r >> 6) & 1;
	uintptr_t *f = v->frame[d];

	if ((r >> 12) % 8 == 0)
		f[slot] = v->good[d][slot];
	else
		f[slot] = hostile_word(v, r >> 16);
	/* A word of this frame's locals: below it, above the next one's record. */
	if (d + 1 < DEPTH && f - v->frame[d + 1] > 2) {
		uintptr_t *lo = v->frame[d + 1] + 2;

		lo[(r >> 20) % (uintptr_t)(f - lo)] = hostile_word(v, r >> 24);
	}
}

static __attribute__((noinline, noipa)) void bottom(struct victim *self, struct victim *next)
{
	uintptr_t seed = (uintptr_t)self | 1;

	self->ready = 1;
	for (;;) {
		scribble(self, xorshift(&seed));
		if (next->ready)
			scribble(next, xorshift(&seed));
	}
}

static __attribute__((noinline, noipa)) void descend(struct victim *self, struct victim *next,
						     int d)
{
	uintptr_t *fp = __builtin_frame_address(0);

	self->frame[DEPTH - 1 - d] = fp;
	self->good[DEPTH - 1 - d][0] = fp[0];
	self->good[DEPTH - 1 - d][1] = fp[1];
	if (d)
		descend(self, next, d - 1);
	else
		bottom(self, next);
	__asm__ volatile("" ::: "memory");	/* not a sibling call */
}

static void *thread_main(void *arg)
{
	long i = (long)arg;

	descend(&victims[i], &victims[(i + 1) % nthreads], DEPTH - 1);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	long i;
	void *p;

	nthreads = argc > 1 ? atoi(argv[1]) : 4;
	if (nthreads < 1 || nthreads > MAX_THREADS) {
		fprintf(stderr, "usage: stack_scribble [THREADS: 1..%d]\n", MAX_THREADS);
		return 2;
	}
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p, 4096))
		return 1;
	unmapped = (uintptr_t)p;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t, NULL, thread_main, (void *)i))
			return 1;
	for (i = 0; i < nthreads; i++)
		while (!victims[i].ready)
			usleep(1000);
	printf("ready\n");
	fflush(stdout);
	sleep(300);
	return 0;
}
