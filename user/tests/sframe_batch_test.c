// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of batches of tables made on helper threads (sframe_batch.c),
 * without a module (dev_fd < 0: generate, and cache where asked), on small
 * programs every Debian system has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sframe/sframe_batch.h"

static const char *const progs[] = {
	"/bin/true", "/bin/false", "/bin/ls", "/bin/cat", "/usr/bin/env", "/bin/echo",
	"/bin/sleep", "/bin/uname",
};
#define NR_PROGS	(sizeof(progs) / sizeof(progs[0]))

static const struct dw_sframe_reg_opts no_cache = { .flags = DW_SFRAME_REG_NO_CACHE };

struct seen {
	unsigned int done[NR_PROGS * 2];
	struct dw_sframe_batch_item *items;
	unsigned int ticks, stop_at;
	int stop;
};

static void on_done(void *arg, struct dw_sframe_batch_item *it)
{
	struct seen *s = arg;

	s->done[it - s->items]++;
}

static void on_tick(void *arg)
{
	struct seen *s = arg;

	if (++s->ticks == s->stop_at)
		s->stop = 1;
}

/* A batch of @n items, the programs in turn, for @helpers. */
static struct dw_sframe_batch batch(struct seen *s, struct dw_sframe_batch_item *items, size_t n,
				    unsigned int helpers)
{
	size_t i;

	memset(items, 0, n * sizeof(*items));
	for (i = 0; i < n; i++)
		items[i].path = progs[i % NR_PROGS];
	memset(s, 0, sizeof(*s));
	s->items = items;
	return (struct dw_sframe_batch){
		.dev_fd = -1, .opts = &no_cache, .items = items, .n = n, .helpers = helpers,
		.done = on_done, .tick = on_tick, .stop = &s->stop, .arg = s,
	};
}

TEST(every_file_is_made_and_reported_once)
{
	struct dw_sframe_batch_item items[NR_PROGS];
	struct seen s;
	struct dw_sframe_batch b = batch(&s, items, NR_PROGS, 3);
	size_t i;

	EXPECT_EQ(NR_PROGS, dw_sframe_batch_run(&b));
	for (i = 0; i < NR_PROGS; i++) {
		EXPECT_EQ(1, s.done[i]) TH_LOG("%s", progs[i]);
		EXPECT_EQ(0, items[i].err) TH_LOG("%s: %s", progs[i], strerror(-items[i].err));
		EXPECT_EQ(DW_SFRAME_SRC_GENERATED, items[i].res.source);
		EXPECT_LT(0, items[i].res.table_size);
	}
}

TEST(helpers_make_the_tables_the_caller_alone_makes)
{
	struct dw_sframe_batch_item one[NR_PROGS], many[NR_PROGS];
	struct seen s1, s2;
	struct dw_sframe_batch b1 = batch(&s1, one, NR_PROGS, 0);
	struct dw_sframe_batch b2 = batch(&s2, many, NR_PROGS, DW_SFRAME_BATCH_HELPERS_MAX);
	size_t i;

	ASSERT_EQ(NR_PROGS, dw_sframe_batch_run(&b1));
	ASSERT_EQ(NR_PROGS, dw_sframe_batch_run(&b2));
	for (i = 0; i < NR_PROGS; i++) {
		EXPECT_EQ(one[i].err, many[i].err);
		EXPECT_EQ(one[i].res.table_size, many[i].res.table_size) TH_LOG("%s", progs[i]);
		EXPECT_EQ(one[i].res.covered_bytes, many[i].res.covered_bytes);
		EXPECT_EQ(0, memcmp(one[i].res.build_id, many[i].res.build_id, 20));
	}
}

TEST(a_file_that_cannot_be_read_is_reported_with_its_error)
{
	struct dw_sframe_batch_item items[3];
	struct seen s;
	struct dw_sframe_batch b = batch(&s, items, 3, 2);

	items[1].path = "/nonexistent/dunwind-batch-test";
	EXPECT_EQ(3, dw_sframe_batch_run(&b));
	EXPECT_EQ(1, s.done[1]);
	EXPECT_EQ(-ENOENT, items[1].err);
	EXPECT_EQ(0, items[0].err);
	EXPECT_EQ(0, items[2].err);
}

/* The caller alone: it makes one file, ticks, sees stop, starts no other. */
TEST(a_stop_starts_no_more_files)
{
	struct dw_sframe_batch_item items[NR_PROGS];
	struct seen s;
	struct dw_sframe_batch b = batch(&s, items, NR_PROGS, 0);
	size_t i;

	s.stop_at = 1;
	EXPECT_EQ(1, dw_sframe_batch_run(&b));
	EXPECT_EQ(1, s.done[0]);
	for (i = 1; i < NR_PROGS; i++)
		EXPECT_EQ(0, s.done[i]);
}

/* With helpers: what was started is reported once, and nothing else. */
TEST(a_stop_with_helpers_reports_what_was_made)
{
	struct dw_sframe_batch_item items[NR_PROGS * 2];
	struct seen s;
	struct dw_sframe_batch b = batch(&s, items, NR_PROGS * 2, 2);
	size_t i, made, reported = 0;

	s.stop_at = 1;
	made = dw_sframe_batch_run(&b);
	EXPECT_LE(1, made);
	for (i = 0; i < NR_PROGS * 2; i++) {
		EXPECT_GE(1, s.done[i]);
		reported += s.done[i];
		if (s.done[i]) {
			EXPECT_EQ(0, items[i].err);
		} else {
			EXPECT_EQ(0, items[i].res.table_size);
		}
	}
	EXPECT_EQ(made, reported);
}

/*
 * One file many times into one cache, on several threads at once: every
 * store succeeds (each thread writes its own temporary file) and the entry
 * then loads.
 */
TEST(one_build_id_stored_by_several_threads_at_once)
{
	char dir[] = "/tmp/sframe_batch_test.XXXXXX";
	struct dw_sframe_reg_opts o = { .cache_dir = NULL };
	struct dw_sframe_reg_opts co = { .flags = DW_SFRAME_REG_CACHE_ONLY };
	struct dw_sframe_batch_item items[NR_PROGS * 2];
	struct dw_sframe_reg_file r;
	struct seen s;
	struct dw_sframe_batch b = batch(&s, items, NR_PROGS * 2, 3);
	char cmd[100];
	size_t i;

	ASSERT_NE(NULL, mkdtemp(dir));
	o.cache_dir = dir;
	co.cache_dir = dir;
	b.opts = &o;
	for (i = 0; i < NR_PROGS * 2; i++)
		items[i].path = "/bin/ls";
	EXPECT_EQ(NR_PROGS * 2, dw_sframe_batch_run(&b));
	for (i = 0; i < NR_PROGS * 2; i++) {
		EXPECT_EQ(0, items[i].err);
		EXPECT_EQ(0, items[i].res.cache_err) TH_LOG("item %zu: %s", i,
							     strerror(-items[i].res.cache_err));
	}
	EXPECT_EQ(0, dw_sframe_register_file(-1, "/bin/ls", &co, &r));
	EXPECT_EQ(DW_SFRAME_SRC_CACHE, r.source);
	EXPECT_EQ(items[0].res.table_size, r.table_size);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST(helpers_are_fewer_than_the_cpus)
{
	unsigned int h = dw_sframe_batch_helpers();
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	EXPECT_GE(DW_SFRAME_BATCH_HELPERS_MAX, h);
	EXPECT_GT(cpus, (long)h);
}

TEST_HARNESS_MAIN
