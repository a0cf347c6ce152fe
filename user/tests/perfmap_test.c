// SPDX-License-Identifier: GPL-2.0
/*
 * Perf maps are other users' files that a root recorder reads: only a
 * regular file owned by the process's user (or root) is read, never a
 * symbolic link, a FIFO (which would block the recorder) or a device; a
 * map over its bounds is read up to them.  Files live in a fresh
 * directory, named perf-PID.map after this test or a pid nobody has.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "symbols/perfmap.h"

#define NOBODY_PID	4194303U	/* above pid_max's default: no such process */

FIXTURE(files) {
	char dir[64], path[128], other[128];
};

FIXTURE_SETUP(files)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/dw-perfmap-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf-%d.map", self->dir, getpid());
	snprintf(self->other, sizeof(self->other), "%s/real.map", self->dir);
}

FIXTURE_TEARDOWN(files)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
	dw_perfmap_set_bounds(0, 0);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

TEST_F(files, a_map_of_this_process_owned_by_its_user_is_read)
{
	struct dw_perfmap *m;

	ASSERT_EQ(0, write_file(self->path, "1000 10 jit_f\n"));
	m = dw_perfmap_load(self->path);
	ASSERT_NE(NULL, m);
	EXPECT_STREQ("jit_f", dw_perfmap_lookup(m, 0x1004, NULL, NULL));
	dw_perfmap_free(m);
}

TEST_F(files, a_symbolic_link_is_not_followed)
{
	ASSERT_EQ(0, write_file(self->other, "1000 10 jit_f\n"));
	ASSERT_EQ(0, symlink(self->other, self->path));
	errno = 0;
	EXPECT_EQ(NULL, dw_perfmap_load(self->path));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(files, a_fifo_is_refused_without_blocking)
{
	ASSERT_EQ(0, mkfifo(self->path, 0600));
	alarm(10);	/* opening it for reading would wait for a writer */
	errno = 0;
	EXPECT_EQ(NULL, dw_perfmap_load(self->path));
	EXPECT_EQ(EPERM, errno);
	alarm(0);
}

TEST_F(files, a_device_is_refused)
{
	errno = 0;
	EXPECT_EQ(NULL, dw_perfmap_load("/dev/null"));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(files, a_map_owned_by_another_user_than_the_process_s_is_refused)
{
	if (geteuid())
		SKIP(return, "chown to another user needs root");
	ASSERT_EQ(0, write_file(self->path, "1000 10 jit_f\n"));
	/* This process runs as root: a map owned by uid 12345 is not its user's. */
	ASSERT_EQ(0, chown(self->path, 12345, 12345));
	errno = 0;
	EXPECT_EQ(NULL, dw_perfmap_load(self->path));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(files, a_gone_process_s_map_must_be_ours_or_root_s)
{
	struct dw_perfmap *m;
	char path[160];

	if (geteuid())
		SKIP(return, "chown to another user needs root");
	snprintf(path, sizeof(path), "%s/perf-%u.map", self->dir, NOBODY_PID);
	ASSERT_EQ(0, write_file(path, "1000 10 jit_f\n"));
	ASSERT_EQ(0, chown(path, 12345, 12345));
	EXPECT_EQ(NULL, dw_perfmap_load(path));
	ASSERT_EQ(0, chown(path, 0, 0));
	m = dw_perfmap_load(path);
	ASSERT_NE(NULL, m);
	dw_perfmap_free(m);
}

TEST_F(files, a_map_over_the_byte_bound_is_not_read)
{
	ASSERT_EQ(0, write_file(self->path, "1000 10 jit_f\n2000 10 jit_g\n"));
	dw_perfmap_set_bounds(16, 0);
	errno = 0;
	EXPECT_EQ(NULL, dw_perfmap_load(self->path));
	EXPECT_EQ(EPERM, errno);
}

TEST(entries_past_the_bound_are_left_and_the_rest_kept)
{
	static const char text[] = "1000 10 a\n2000 10 b\n3000 10 c\n4000 10 d\n";
	struct dw_perfmap *m;

	dw_perfmap_set_bounds(0, 2);
	m = dw_perfmap_parse(text, sizeof(text) - 1);
	dw_perfmap_set_bounds(0, 0);
	ASSERT_NE(NULL, m);
	EXPECT_STREQ("a", dw_perfmap_lookup(m, 0x1000, NULL, NULL));
	EXPECT_STREQ("b", dw_perfmap_lookup(m, 0x2000, NULL, NULL));
	EXPECT_EQ(NULL, dw_perfmap_lookup(m, 0x3000, NULL, NULL));
	dw_perfmap_free(m);
}

TEST(a_long_name_is_cut_at_the_bound)
{
	size_t len = DW_PERFMAP_MAX_NAME + 100;
	char *text = malloc(len + 16);
	struct dw_perfmap *m;
	const char *name;

	ASSERT_NE(NULL, text);
	strcpy(text, "1000 10 ");
	memset(text + 8, 'x', len);
	strcpy(text + 8 + len, "\n");
	m = dw_perfmap_parse(text, strlen(text));
	free(text);
	ASSERT_NE(NULL, m);
	name = dw_perfmap_lookup(m, 0x1000, NULL, NULL);
	ASSERT_NE(NULL, name);
	EXPECT_EQ(DW_PERFMAP_MAX_NAME, strlen(name));
	dw_perfmap_free(m);
}

TEST_HARNESS_MAIN
