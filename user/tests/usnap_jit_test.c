// SPDX-License-Identifier: GPL-2.0
/*
 * JIT names for the snapshot (capture/usnap_jit.c): perf maps read at a
 * process's exit and exec name the samples before then, even once the
 * file is gone or rewritten; a jitdump found through its MMAP record names
 * code by time; a map contradicting the mapping records, or older than
 * the process, is refused and counted.  Maps live in a fresh directory.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "capture/usnap_jit.h"
#include "mkrec.h"
#include "symbols/dso.h"
#include "symbols/procs.h"

#define PID	4194301U	/* above pid_max's default: no such process */

FIXTURE(jit) {
	char dir[64];
	struct dw_dso_cache *dsos;
	struct dw_procs *procs;
	struct dw_usnap_jit *j;
	union rec_buf b;
};

FIXTURE_SETUP(jit)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/dw-usnap-jit-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	self->dsos = dw_dso_cache_new();
	ASSERT_NE(NULL, self->dsos);
	self->procs = dw_procs_new(self->dsos);
	ASSERT_NE(NULL, self->procs);
	self->j = dw_usnap_jit_new(self->dir);
	ASSERT_NE(NULL, self->j);
}

FIXTURE_TEARDOWN(jit)
{
	char cmd[128];

	dw_usnap_jit_free(self->j);
	dw_procs_free(self->procs);
	dw_dso_cache_free(self->dsos);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

static void write_map(const char *dir, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/perf-%u.map", dir, PID);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void remove_map(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/perf-%u.map", dir, PID);
	unlink(path);
}

static const char *name_at(struct dw_usnap_jit *j, const struct dw_procs *procs, __u64 time,
			   uint64_t addr)
{
	uint64_t start, size;

	return dw_usnap_jit_lookup(j, procs, PID, time, addr, &start, &size);
}

static __u64 mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
}

TEST_F(jit, a_map_read_at_exit_names_its_samples_once_the_file_is_gone)
{
	uint64_t start = 0, size = 0;

	write_map(self->dir, "7f0000001000 40 JS:*jit_leaf /a.js:3\n");
	ASSERT_EQ(0, dw_usnap_jit_read(self->j, PID, 100, 0));
	remove_map(self->dir);
	EXPECT_STREQ("JS:*jit_leaf /a.js:3",
		     dw_usnap_jit_lookup(self->j, self->procs, PID, 50, 0x7f0000001010, &start,
					 &size));
	EXPECT_EQ(0x7f0000001000, start);
	EXPECT_EQ(0x40, size);
}

TEST_F(jit, each_image_is_named_from_its_own_map_across_an_exec)
{
	write_map(self->dir, "7f0000001000 40 old_image_f\n");
	ASSERT_EQ(0, dw_usnap_jit_read(self->j, PID, 100, 1));
	write_map(self->dir, "7f0000001000 40 new_image_f\n");
	EXPECT_STREQ("old_image_f", name_at(self->j, self->procs, 50, 0x7f0000001000));
	EXPECT_STREQ("new_image_f", name_at(self->j, self->procs, 150, 0x7f0000001000));
}

TEST_F(jit, without_an_exit_the_map_is_read_at_the_end)
{
	struct dw_usnap_jit_stats st;

	write_map(self->dir, "7f0000001000 40 f\n");
	EXPECT_STREQ("f", name_at(self->j, self->procs, 50, 0x7f0000001000));
	EXPECT_EQ(NULL, name_at(self->j, self->procs, 50, 0x7f0000002000));
	dw_usnap_jit_stats(self->j, &st);
	EXPECT_EQ(1, st.maps);
}

TEST_F(jit, a_map_over_a_mapped_file_is_stale_and_not_used)
{
	struct dw_usnap_jit_stats st;

	ASSERT_EQ(0, dw_procs_add_mmap(self->procs, (void *)mk_mmap(&self->b, PID, 10, 0x400000,
					 0x500000, 0, "/bin/true", 0), NULL));
	write_map(self->dir, "7f0000001000 40 f\n480000 100 moved_away\n");
	EXPECT_EQ(NULL, name_at(self->j, self->procs, 50, 0x480010));
	/* Once stale, nothing of the process's map is trusted. */
	EXPECT_EQ(NULL, name_at(self->j, self->procs, 50, 0x7f0000001000));
	dw_usnap_jit_stats(self->j, &st);
	EXPECT_EQ(1, st.stale);
}

TEST_F(jit, a_map_older_than_the_process_is_stale_and_not_read)
{
	struct dunwind_rec_task t = { .hdr = { .type = DUNWIND_REC_FORK, .size = sizeof(t) },
				      .pid = PID, .tid = PID, .ppid = 1, .ptid = 1 };
	struct dw_usnap_jit_stats st;
	struct timespec old[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	char path[128];

	t.time = mono_now();
	ASSERT_EQ(0, dw_usnap_jit_fork(self->j, &t));
	write_map(self->dir, "7f0000001000 40 earlier_process_f\n");
	snprintf(path, sizeof(path), "%s/perf-%u.map", self->dir, PID);
	ASSERT_EQ(0, utimensat(AT_FDCWD, path, old, 0));
	EXPECT_EQ(NULL, name_at(self->j, self->procs, t.time + 10, 0x7f0000001000));
	dw_usnap_jit_stats(self->j, &st);
	EXPECT_EQ(1, st.stale);
	EXPECT_EQ(0, st.maps);
}

TEST_F(jit, a_jitdump_mapped_by_the_process_names_code_by_time)
{
	static const unsigned char hdr[40] = { 0x44, 0x54, 0x69, 0x4a, 1, 0, 0, 0, 40 };
	unsigned char rec[16 + 40 + 2];
	const char *names = "ab";
	char path[128];
	__u64 v;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/jit-%u.dump", self->dir, PID);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fwrite(hdr, 1, sizeof(hdr), f);
	/* "a" loaded at 0x7f0000001000 at time 10, "b" over it at time 20. */
	for (i = 0; i < 2; i++) {
		memset(rec, 0, sizeof(rec));
		rec[4] = sizeof(rec);
		v = 10 + 10 * i;
		memcpy(rec + 8, &v, 8);
		v = 0x7f0000001000;
		memcpy(rec + 16 + 16, &v, 8);
		v = 0x40;
		memcpy(rec + 16 + 24, &v, 8);
		rec[16 + 40] = (unsigned char)names[i];
		fwrite(rec, 1, sizeof(rec), f);
	}
	fclose(f);
	ASSERT_EQ(0, dw_usnap_jit_mmap(self->j, (void *)mk_mmap(&self->b, PID, 5, 0x7f1000000000,
					  0x7f1000001000, 0, path, 0)));
	EXPECT_STREQ("a", name_at(self->j, self->procs, 15, 0x7f0000001000));
	EXPECT_STREQ("b", name_at(self->j, self->procs, 25, 0x7f0000001000));
}

TEST_HARNESS_MAIN
