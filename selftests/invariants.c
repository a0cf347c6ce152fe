// SPDX-License-Identifier: GPL-2.0
/* The invariants every session must keep (see invariants.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "invariants.h"

struct stack_key {
	__u64 cookie;
	__u64 time;
};

static int key_cmp(const void *a, const void *b)
{
	const struct stack_key *x = a, *y = b;

	return x->cookie < y->cookie ? -1 : x->cookie > y->cookie;
}

/*
 * The cookies and times of the USER_STACKs and SAMPLE_STACKs (a cookie's
 * answer is one or the other), sorted by cookie; NULL on no memory.
 */
static struct stack_key *stack_keys(const struct dunwind_rec_header *const *v, size_t n,
				    struct dw_invariants *inv)
{
	struct stack_key *k = malloc((n ? n : 1) * sizeof(*k));
	size_t i;

	if (!k)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct dunwind_rec_user_stack *u = (const void *)v[i];
		const struct dunwind_rec_sample_stack *ss = (const void *)v[i];

		if (v[i]->type == DUNWIND_REC_SAMPLE_STACK) {
			inv->sample_stacks++;
			k[inv->stacks].cookie = ss->cookie;
			k[inv->stacks++].time = ss->time;
			if (ss->stop < DUNWIND_STOP_MAX)
				inv->stops[ss->stop]++;
			continue;
		}
		if (v[i]->type != DUNWIND_REC_USER_STACK)
			continue;
		k[inv->stacks].cookie = u->cookie;
		k[inv->stacks++].time = u->time;
		if (u->stop < DUNWIND_STOP_MAX)
			inv->stops[u->stop]++;
	}
	qsort(k, inv->stacks, sizeof(*k), key_cmp);
	for (i = 1; i < inv->stacks; i++)
		if (k[i].cookie == k[i - 1].cookie &&
		    (i < 2 || k[i - 2].cookie != k[i].cookie))
			inv->dup_cookies++;
	return k;
}

/**
 * dw_invariants_scan() - count what @v's records say about the invariants
 * Context: user space.
 * Return: 0 or -ENOMEM.
 */
int dw_invariants_scan(const struct dunwind_rec_header *const *v, size_t n,
		       struct dw_invariants *inv)
{
	struct stack_key *k;
	size_t i, j;

	memset(inv, 0, sizeof(*inv));
	k = stack_keys(v, n, inv);
	if (!k)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct dunwind_rec_sample *s = (const void *)v[i];
		struct stack_key want, *hit;

		if (v[i]->type == DUNWIND_REC_LOST) {
			for (j = 0; j < 8; j++)
				inv->lost[j] += ((const struct dunwind_rec_lost *)v[i])->lost[j];
			continue;
		}
		/* A SAMPLE_STACK's sample: its cookie's answer is itself. */
		if (v[i]->type == DUNWIND_REC_SAMPLE_STACK) {
			inv->samples++;
			inv->samples_cookie++;
			continue;
		}
		if (v[i]->type != DUNWIND_REC_SAMPLE)
			continue;
		inv->samples++;
		if (!s->cookie)
			continue;
		inv->samples_cookie++;
		want.cookie = s->cookie;
		hit = bsearch(&want, k, inv->stacks, sizeof(*k), key_cmp);
		if (!hit) {
			inv->no_stack++;
			continue;
		}
		if ((s->flags & DUNWIND_SAMPLE_USER_MODE) && hit->time >= s->time &&
		    hit->time - s->time > inv->worst_user_walk_ns)
			inv->worst_user_walk_ns = hit->time - s->time;
	}
	free(k);
	return 0;
}

/**
 * dw_invariants_scan_records() - dw_invariants_scan() of a selftest's records
 * Context: user space.
 * Return: 0 or -ENOMEM.
 */
int dw_invariants_scan_records(const struct dw_records *r, struct dw_invariants *inv)
{
	return dw_invariants_scan((const struct dunwind_rec_header *const *)r->v, r->n, inv);
}

/**
 * dw_vmalloc_bytes() - vmalloc bytes held by the dunwind module now
 * Context: user space, root (others see no callers in /proc/vmallocinfo).
 * Return: the bytes (lines naming "[dunwind]"), or -errno.
 */
long long dw_vmalloc_bytes(void)
{
	FILE *f = fopen("/proc/vmallocinfo", "r");
	char line[512];
	long long sum = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long size;

		if (strstr(line, "[dunwind]") && sscanf(line, "%*s %llu", &size) == 1)
			sum += size;
	}
	fclose(f);
	return sum;
}

/**
 * dw_vmalloc_settle() - wait for the module's vmalloc bytes to fall to @baseline
 * Context: user space; sleeps up to @ms.
 * Return: the last value read, or -errno.
 */
long long dw_vmalloc_settle(long long baseline, int ms)
{
	long long now;

	for (;;) {
		now = dw_vmalloc_bytes();
		if (now < 0 || now <= baseline || ms <= 0)
			return now;
		usleep(20000);
		ms -= 20;
	}
}
