// SPDX-License-Identifier: GPL-2.0
/*
 * dw_procs_*: thread names and mappings rebuilt from COMM and MMAP
 * records.  The mappings describe this test program at made-up addresses,
 * so symbolising them exercises an arbitrary load bias.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "dso_cache.h"
#include "mkrec.h"
#include "capture/dispatch.h"
#include "symbols/procs.h"
#include "selfmap.h"

__attribute__((noinline, used)) int dw_procs_test_fn(int x)
{
	return x * 7;
}

static union rec_buf b;

static int add_comm(const struct dunwind_rec_comm *c, void *p)
{
	return dw_procs_add_comm(p, c);
}

static int add_mmap(const struct dunwind_rec_mmap *m, void *p)
{
	return dw_procs_add_mmap(p, m, NULL);
}

/* The model's readers (the profile, the recorder) give it records so. */
static const struct dw_rec_ops procs_ops = { .comm = add_comm, .mmap = add_mmap };

static int procs_add(struct dw_procs *p, const struct dunwind_rec_header *rec)
{
	return dw_rec_dispatch(&procs_ops, rec, rec->size, p);
}
static const uint64_t base1 = 0x100000000000ULL, base2 = 0x200000000000ULL;

/* Thread names of pid 5 (renamed at 20) and 6; this program's image. */
FIXTURE(procs) {
	struct dw_procs *p;
	uintptr_t fn;
	uint64_t start, end, pgoff, off;
	const char *name, *dso;
	char path[4096];
	int have_self;
};

FIXTURE_SETUP(procs)
{
	self->p = dw_procs_new(test_dsos());
	ASSERT_NE(NULL, self->p);
	self->fn = (uintptr_t)dw_procs_test_fn;
	self->dso = NULL;
	self->off = 0;
	procs_add(self->p, mk_comm(&b, 5, 5, 10, "first", 0));
	procs_add(self->p, mk_comm(&b, 5, 6, 12, "worker", 0));
	procs_add(self->p, mk_comm(&b, 5, 5, 20, "second", 0));
	self->have_self = find_self(self->fn, &self->start, &self->end, &self->pgoff, self->path);
}

FIXTURE_TEARDOWN(procs)
{
	dw_procs_free(self->p);
}

/* This program mapped for pid @pid at @base from time @t (SKIP if it cannot be found). */
#define MAP_SELF(pid, t, base, bad_build_id) do { \
	if (!self->have_self) \
		SKIP(return, "cannot find this program in /proc/self/maps"); \
	procs_add(self->p, mk_mmap(&b, pid, t, base, (base) + (self->end - self->start), \
				      self->pgoff, self->path, bad_build_id)); \
} while (0)

#define FN_AT(base) ((base) + (self->fn - self->start))

TEST_F(procs, the_name_at_a_time_between_two_names)
{
	EXPECT_STREQ("first", dw_procs_comm(self->p, 5, 15) ?: "");
}

TEST_F(procs, the_name_after_a_rename)
{
	EXPECT_STREQ("second", dw_procs_comm(self->p, 5, 25) ?: "");
}

TEST_F(procs, the_name_before_the_first_is_the_first)
{
	EXPECT_STREQ("first", dw_procs_comm(self->p, 5, 1) ?: "");
}

TEST_F(procs, another_threads_own_name)
{
	EXPECT_STREQ("worker", dw_procs_comm(self->p, 6, 1000) ?: "");
}

TEST_F(procs, a_thread_never_named_is_null)
{
	EXPECT_EQ(NULL, dw_procs_comm(self->p, 7, 15));
}

TEST_F(procs, no_mmap_record_yet_no_mappings)
{
	EXPECT_FALSE(dw_procs_has_maps(self->p, 5));
}

TEST_F(procs, mmap_records_describe_their_pid_only)
{
	MAP_SELF(5, 30, base1, 0);
	EXPECT_TRUE(dw_procs_has_maps(self->p, 5));
	EXPECT_FALSE(dw_procs_has_maps(self->p, 9));
}

TEST_F(procs, a_function_at_a_made_up_load_address)
{
	MAP_SELF(5, 30, base1, 0);
	self->name = dw_procs_lookup(self->p, 5, 40, FN_AT(base1) + 4, &self->off, &self->dso);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("dw_procs_test_fn", self->name);
	EXPECT_EQ(4ull, self->off);
	ASSERT_NE(NULL, self->dso);
	EXPECT_STREQ(self->path, self->dso);
}

TEST_F(procs, another_process_has_nothing_there)
{
	MAP_SELF(5, 30, base1, 0);
	EXPECT_EQ(NULL, dw_procs_lookup(self->p, 9, 40, FN_AT(base1), &self->off, &self->dso));
	EXPECT_EQ(NULL, self->dso);
}

/* Anonymous memory over page @k of the image, next to the function's page. */
static uint64_t hole_page(const FIXTURE_DATA(procs) *self)
{
	uint64_t fpage = (self->fn - self->start) / 4096, npages = (self->end - self->start) / 4096;
	uint64_t k = fpage >= 2 ? fpage - 1 : fpage + 1;

	return k >= 1 && k + 2 <= npages ? k : 0;
}

#define MAP_HOLE(k) do { \
	MAP_SELF(5, 30, base1, 0); \
	k = hole_page(self); \
	if (!k) \
		SKIP(return, "this program's text is too small to split"); \
	procs_add(self->p, mk_mmap(&b, 5, 31, base1 + k * 4096, base1 + (k + 1) * 4096, 0, \
				      "//anon", 0)); \
} while (0)

TEST_F(procs, anonymous_memory_splitting_a_mapping_has_no_symbols)
{
	uint64_t k;

	MAP_HOLE(k);
	self->name = dw_procs_lookup(self->p, 5, 40, base1 + k * 4096 + 8, &self->off, &self->dso);
	EXPECT_EQ(NULL, self->name);
	ASSERT_NE(NULL, self->dso);
	EXPECT_STREQ("//anon", self->dso);
}

TEST_F(procs, the_function_side_of_a_split_mapping_keeps_its_names)
{
	uint64_t k;

	MAP_HOLE(k);
	self->name = dw_procs_lookup(self->p, 5, 40, FN_AT(base1), &self->off, &self->dso);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("dw_procs_test_fn", self->name);
	EXPECT_EQ(0ull, self->off);
}

/* pid 8: the same file unsplit; both must agree right of the hole. */
TEST_F(procs, right_of_the_hole_names_are_as_unsplit)
{
	uint64_t k, x, same = 0, named = 0, n = 0;

	MAP_HOLE(k);
	MAP_SELF(8, 30, base1, 0);
	for (x = (k + 1) * 4096; x < self->end - self->start; x += 16, n++) {
		uint64_t o5 = 1, o8 = 2;
		const char *n5 = dw_procs_lookup(self->p, 5, 40, base1 + x, &o5, NULL);
		const char *n8 = dw_procs_lookup(self->p, 8, 40, base1 + x, &o8, NULL);

		named += n8 != NULL;
		same += n5 == n8 || (n5 && n8 && !strcmp(n5, n8) && o5 == o8);
	}
	EXPECT_EQ(n, same);
	EXPECT_GT(named, 0ull);
}

/* An exec at 100: a new image at another address; the old one stays for old stacks. */
#define EXEC_SELF() do { \
	MAP_SELF(5, 30, base1, 0); \
	procs_add(self->p, mk_comm(&b, 5, 5, 100, "exec'd", 1)); \
	MAP_SELF(5, 101, base2, 0); \
} while (0)

TEST_F(procs, after_an_exec_the_new_image)
{
	EXEC_SELF();
	self->name = dw_procs_lookup(self->p, 5, 150, FN_AT(base2), &self->off, &self->dso);
	EXPECT_STREQ("dw_procs_test_fn", self->name ?: "");
}

TEST_F(procs, after_an_exec_the_old_image_is_gone)
{
	EXEC_SELF();
	self->name = dw_procs_lookup(self->p, 5, 150, FN_AT(base1), &self->off, &self->dso);
	EXPECT_EQ(NULL, self->name);
	EXPECT_EQ(NULL, self->dso);
}

TEST_F(procs, a_stack_from_before_the_exec_sees_the_old_image)
{
	EXEC_SELF();
	self->name = dw_procs_lookup(self->p, 5, 50, FN_AT(base1), &self->off, &self->dso);
	EXPECT_STREQ("dw_procs_test_fn", self->name ?: "");
}

TEST_F(procs, the_exec_renamed_the_thread)
{
	EXEC_SELF();
	EXPECT_STREQ("exec'd", dw_procs_comm(self->p, 5, 150) ?: "");
}

/*
 * Thousands of processes (a shell loop's), each this program at a base of
 * its own, every third exec'd at 100 to another base: each pid finds its
 * own image at each time, and no other's.
 */
#define MANY_PIDS	3000
#define PID_BASE(pid, gen) (base1 + ((uint64_t)(pid) * 2 + (gen)) * 0x10000000ULL)

TEST_F(procs, among_thousands_of_processes_each_finds_its_own_image)
{
	unsigned int pid, found = 0, wrong = 0;

	if (!self->have_self)
		SKIP(return, "cannot find this program in /proc/self/maps");
	for (pid = 100; pid < 100 + MANY_PIDS; pid++) {
		MAP_SELF(pid, 30, PID_BASE(pid, 0), 0);
		if (pid % 3)
			continue;
		procs_add(self->p, mk_comm(&b, pid, pid, 100, "exec'd", 1));
		MAP_SELF(pid, 101, PID_BASE(pid, 1), 0);
	}
	for (pid = 100; pid < 100 + MANY_PIDS; pid++) {
		uint64_t now = PID_BASE(pid, !(pid % 3)), before = PID_BASE(pid, 0);

		found += dw_procs_lookup(self->p, pid, 150, FN_AT(now), NULL, NULL) != NULL;
		found += dw_procs_lookup(self->p, pid, 50, FN_AT(before), NULL, NULL) != NULL;
		/* The next process's base, and after an exec the old one, are not this one's. */
		wrong += dw_procs_lookup(self->p, pid, 150, FN_AT(PID_BASE(pid + 1, 0)), NULL,
					 NULL) != NULL;
		if (!(pid % 3))
			wrong += dw_procs_lookup(self->p, pid, 150, FN_AT(before), NULL, NULL) != NULL;
	}
	EXPECT_EQ(2u * MANY_PIDS, found);
	EXPECT_EQ(0u, wrong);
	EXPECT_TRUE(dw_procs_has_maps(self->p, 100 + MANY_PIDS - 1));
	EXPECT_FALSE(dw_procs_has_maps(self->p, 100 + MANY_PIDS));
}

/* A build-id that the file on disk does not have: no names from it. */
TEST_F(procs, a_rebuilt_file_gives_the_file_and_no_names)
{
	EXEC_SELF();
	MAP_SELF(5, 102, base2, 1);
	self->name = dw_procs_lookup(self->p, 5, 150, FN_AT(base2), &self->off, &self->dso);
	EXPECT_EQ(NULL, self->name);
	ASSERT_NE(NULL, self->dso);
	EXPECT_STREQ(self->path, self->dso);
}

TEST_F(procs, a_malformed_record_is_refused)
{
	mk_mmap(&b, 5, 1, base2, base2 + 4096, 0, "/x", 0);
	b.hdr.size = 8;
	EXPECT_NE(0, procs_add(self->p, &b.hdr));
	EXPECT_EQ(0, dw_procs_has_maps(self->p, 5));
}

TEST_HARNESS_MAIN
