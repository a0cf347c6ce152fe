// SPDX-License-Identifier: GPL-2.0
/*
 * fp_test: frame-pointer user stacks are exact on a clean chain, lose only
 * the caller of a frameless leaf, and stop cleanly on a corrupt chain.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "symbols/symtab.h"
#include "workload.h"

#define FREQ		1000	/* Hz */
#define PROFILE_MS	3000
#define MAX_MS		20000	/* profile longer until enough samples came */
#define MIN_SAMPLES	300	/* in the steady-state window, at least */
#define SHOW_BAD	5	/* mismatching stacks to print */

/* Per-sample verdicts of a chain check, in arrival order. */
struct chain_check {
	struct __test_metadata *meta;
	const struct dw_maps *maps;
	const char *const *want;	/* innermost first; NULL: any function */
	int nr_want;
	int pid;
	unsigned char *in_leaf, *match;
	size_t n, cap, shown;
};

/* Function containing user frame @i of @u (return addresses looked up at -1). */
static const char *frame_name(const struct dw_maps *maps, const struct dunwind_rec_user_stack *u,
			      int i)
{
	uint64_t off;
	const char *dso;
	const char *name = dw_maps_lookup(maps, u->ips[i] - (i ? 1 : 0), &off, &dso);

	return name ? name : "?";
}

static void show_stack(struct __test_metadata *_metadata, const struct dw_maps *maps,
		       const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u)
{
	char line[512];
	int i, len = 0;

	if (!u) {
		TH_LOG("sample tid %u ip %#llx cookie %llu flags %#x: no user stack", s->tid,
		       (unsigned long long)s->user_ip, (unsigned long long)s->cookie, s->flags);
		return;
	}
	for (i = 0; i < u->nr && i < 8 && len < (int)sizeof(line) - 64; i++)
		len += snprintf(line + len, sizeof(line) - len, " %s", frame_name(maps, u, i));
	line[len] = '\0';
	TH_LOG("sample ip %#llx: %u frames, stop %u:%s", (unsigned long long)s->user_ip, u->nr,
	       u->stop, line);
}

static void check_chain(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
			void *arg)
{
	struct chain_check *c = arg;
	struct __test_metadata *_metadata = c->meta;
	uint64_t off;
	const char *dso, *name;
	int i, ok;

	if (s->pid != (__u32)c->pid)
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		c->in_leaf = realloc(c->in_leaf, c->cap);
		c->match = realloc(c->match, c->cap);
		ASSERT_NE(NULL, c->in_leaf);
		ASSERT_NE(NULL, c->match);
	}
	name = s->user_ip ? dw_maps_lookup(c->maps, s->user_ip, &off, &dso) : NULL;
	ok = u && u->nr >= c->nr_want;
	for (i = 0; ok && i < c->nr_want; i++)
		ok = !c->want[i] || !strcmp(frame_name(c->maps, u, i), c->want[i]);
	c->in_leaf[c->n] = name && !strcmp(name, "leaf");
	c->match[c->n] = ok;
	c->n++;
	if (!ok && c->shown < SHOW_BAD) {
		c->shown++;
		show_stack(_metadata, c->maps, s, u);
	}
}

/*
 * Profile workloads/@prog and require that >= 99 % of the samples between
 * the first and the last one taken in leaf() start with exactly @want.
 */
/*
 * Profile workloads/@prog: at least 99 % of the samples from the first to
 * the last one in leaf() (with @leaf_only, only those in leaf()) carry
 * @want, innermost first.
 */
static void expect_chain_in(struct __test_metadata *_metadata, const char *prog,
			    const char *const *want, int nr_want, int leaf_only)
{
	/* A starved guest delivers fewer samples: profile on until enough came. */
	struct dw_records_opts o = { .ms = PROFILE_MS, .max_ms = MAX_MS,
				     .min_samples = 2 * MIN_SAMPLES };
	struct chain_check c = { .meta = _metadata, .want = want, .nr_want = nr_want };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_maps *maps;
	size_t i, first = 0, last = 0, total = 0, good = 0;
	int ret, found = 0;

	ret = dw_workload_start(&w, prog, NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start workload %s: %s", prog, strerror(-ret));
	maps = dw_maps_load(NULL, w.pid);
	if (!maps)
		dw_workload_stop(&w);
	ASSERT_NE(NULL, maps) TH_LOG("cannot read the symbols of %s", prog);
	dw_records_config(&cfg, w.pid, 0, FREQ);
	ret = dw_records_profile_opts(&r, &cfg, &o, NULL);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	EXPECT_EQ(0, r.lost) TH_LOG("%llu records lost", (unsigned long long)r.lost);

	c.maps = maps;
	c.pid = w.pid;
	ASSERT_EQ(0, dw_records_stitch(&r, check_chain, &c, NULL));
	for (i = 0; i < c.n; i++) {
		if (!c.in_leaf[i])
			continue;
		if (!found)
			first = i;
		last = i;
		found = 1;
	}
	for (i = first; found && i <= last; i++) {
		if (leaf_only && !c.in_leaf[i])
			continue;
		total++;
		good += c.match[i];
	}
	TH_LOG("%s: %zu samples, window %zu, exact %zu", prog, c.n, total, good);
	EXPECT_GE(total, MIN_SAMPLES) TH_LOG("too few samples in leaf()");
	EXPECT_GE(good * 100, total * 99)
		TH_LOG("only %zu of %zu steady-state stacks are exactly as expected", good, total);
	free(c.in_leaf);
	free(c.match);
	dw_maps_free(maps);
	dw_records_free(&r);
}

static void expect_chain(struct __test_metadata *_metadata, const char *prog,
			 const char *const *want, int nr_want)
{
	expect_chain_in(_metadata, prog, want, nr_want, 0);
}

FIXTURE(fp) {
	int unused;
};

FIXTURE_SETUP(fp)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(fp)
{
}

/* Every function has a frame: the walk sees the whole chain. */
TEST_F_TIMEOUT(fp, fp_chain, 120)
{
	static const char *const want[] = { "leaf", "c", "b", "a", "main" };

	expect_chain(_metadata, "fp_chain", want, 5);
}

/* A leaf without a frame hides its caller c, and only c. */
TEST_F_TIMEOUT(fp, fp_frameless_leaf, 120)
{
	static const char *const want[] = { "leaf", "b", "a", "main" };

	expect_chain(_metadata, "fp_frameless", want, 4);
}

/*
 * A signal handler's stack goes on through the signal frame: the
 * return address into the restorer (no name: the C library's symbol table
 * is stripped), then the interrupted function at its exact IP, to main.
 * Only the samples in leaf() are judged: the others are in the code the
 * signals interrupt, or in the handler.
 */
TEST_F_TIMEOUT(fp, fp_through_signal_frame, 120)
{
	static const char *const want[] = { "leaf", "handler", NULL, "spin", "a", "main" };

	expect_chain_in(_metadata, "fp_signal", want, 6, 1);
}

/* Corrupt frame chains: which value the saved %rbp gets. */
FIXTURE(garbage) {
	int unused;
};

FIXTURE_VARIANT(garbage) {
	const char *mode;
};

FIXTURE_VARIANT_ADD(garbage, junk) { .mode = "junk" };
FIXTURE_VARIANT_ADD(garbage, cycle) { .mode = "cycle" };
FIXTURE_VARIANT_ADD(garbage, kernel) { .mode = "kernel" };
FIXTURE_VARIANT_ADD(garbage, high) { .mode = "high" };

FIXTURE_SETUP(garbage)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(garbage)
{
}

/*
 * Every user stack of a thread whose saved frame pointer is garbage stops
 * with BAD_FRAME or FAULT after at most 3 frames, all in the program's text.
 */
TEST_F_TIMEOUT(garbage, fp_garbage_stops_cleanly, 120)
{
	const char *argv[] = { variant->mode, NULL };
	/* 50 user stacks at least, however starved the guest is. */
	struct dw_records_opts few = { .ms = 1500, .max_ms = 15000, .min_samples = 100 };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_maps *maps;
	char path[PATH_MAX];
	size_t i, stacks = 0, bad = 0;
	int ret;

	ASSERT_EQ(0, dw_workload_path("fp_garbage", path, sizeof(path)));
	ret = dw_workload_start(&w, "fp_garbage", argv, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start fp_garbage: %s", strerror(-ret));
	maps = dw_maps_load(NULL, w.pid);
	if (!maps)
		dw_workload_stop(&w);
	ASSERT_NE(NULL, maps);
	/* The chain is corrupted right after "ready": give it a moment. */
	usleep(100000);
	dw_records_config(&cfg, w.pid, 0, FREQ);
	ret = dw_records_profile_opts(&r, &cfg, &few, NULL);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));

	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_user_stack *u = (const void *)r.v[i];
		int ok = 1, j;

		if (r.v[i]->type != DUNWIND_REC_USER_STACK || u->pid != (__u32)w.pid)
			continue;
		stacks++;
		if (u->stop != DUNWIND_STOP_BAD_FRAME && u->stop != DUNWIND_STOP_FAULT)
			ok = 0;
		if (u->nr > 3 || u->nr < 1)
			ok = 0;
		for (j = 0; ok && j < u->nr; j++) {
			uint64_t off;
			const char *dso = NULL;

			if (!dw_maps_lookup(maps, u->ips[j], &off, &dso) || !dso ||
			    strcmp(dso, path))
				ok = 0;
		}
		if (!ok && bad++ < SHOW_BAD) {
			char line[256];
			int len = 0;

			for (j = 0; j < u->nr && j < 6; j++)
				len += snprintf(line + len, sizeof(line) - len, " %#llx",
						(unsigned long long)u->ips[j]);
			line[len] = '\0';
			TH_LOG("bad stack: %u frames, stop %u:%s", u->nr, u->stop, line);
		}
	}
	TH_LOG("%s: %zu user stacks, %zu bad", variant->mode, stacks, bad);
	EXPECT_GE(stacks, 50) TH_LOG("too few user stacks to judge");
	EXPECT_EQ(0, bad);
	dw_maps_free(maps);
	dw_records_free(&r);
}

/*
 * Code with neither frame pointers nor unwind tables, spinning with rbp 0:
 * every user stack of it ends with NO_INFO after its one frame, never as
 * complete (END): rbp 0 is a root only at _start or a new thread's start.
 */
FIXTURE(none) {
};

FIXTURE_SETUP(none)
{
}

FIXTURE_TEARDOWN(none)
{
}

TEST_F_TIMEOUT(none, fp_none_is_no_unwind_info, 120)
{
	const char *argv[] = { NULL };
	/* 50 user stacks at least, however starved the guest is. */
	struct dw_records_opts few = { .ms = 1500, .max_ms = 15000, .min_samples = 100 };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	size_t i, stacks = 0, no_info = 0, complete = 0;
	int ret;

	ret = dw_workload_start(&w, "fp_none", argv, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start fp_none: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, FREQ);
	ret = dw_records_profile_opts(&r, &cfg, &few, NULL);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));

	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_user_stack *u = (const void *)r.v[i];

		if (r.v[i]->type != DUNWIND_REC_USER_STACK || u->pid != (__u32)w.pid || !u->nr)
			continue;
		stacks++;
		if (u->stop == DUNWIND_STOP_NO_INFO && u->nr == 1)
			no_info++;
		if (u->stop == DUNWIND_STOP_END)
			complete++;
	}
	TH_LOG("%zu user stacks: %zu no-unwind-info with one frame, %zu complete", stacks,
	       no_info, complete);
	EXPECT_GE(stacks, 50) TH_LOG("too few user stacks to judge");
	EXPECT_EQ(0, complete);
	/* A few may come from the loader or libc before the spin starts. */
	EXPECT_GE(no_info * 100, stacks * 95);
	dw_records_free(&r);
}

TEST_HARNESS_MAIN
