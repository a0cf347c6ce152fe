// SPDX-License-Identifier: GPL-2.0
/*
 * A live process's mapped file: through /proc/PID/root while the path is
 * the mapped file; through /proc/PID/map_files once the path names another
 * file (a package upgrade) or is gone; the path as is when neither is
 * readable.  The process is this test, mapping a copy of its own binary.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "dso_cache.h"
#include "symbols/dso.h"
#include "symbols/procfile.h"

FIXTURE(mapped) {
	char dir[64], lib[160], other[160], buf[4200];
	unsigned char id[20];
	uint64_t start;
	void *map;
};

/* A copy of this binary mapped from @self->lib, and /bin/sh beside it. */
FIXTURE_SETUP(mapped)
{
	const unsigned char *idp;
	char cmd[512];
	struct dw_dso *d;
	int fd, n;

	self->map = MAP_FAILED;
	strcpy(self->dir, "/tmp/dw_procfile_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->lib, sizeof(self->lib), "%s/libx.so", self->dir);
	snprintf(self->other, sizeof(self->other), "%s/other", self->dir);
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s && cp /bin/sh %s", getpid(), self->lib,
		 self->other);
	ASSERT_EQ(0, system(cmd));
	d = dw_dso_get(test_dsos(), self->lib, NULL, 0);
	n = d ? dw_dso_build_id(d, &idp) : 0;
	if (n != 20)
		SKIP(return, "this test binary has no GNU build-id");
	memcpy(self->id, idp, sizeof(self->id));
	test_dsos_drop();
	dw_dso_set_quiet(test_dsos(), 1);
	fd = open(self->lib, O_RDONLY);
	ASSERT_LE(0, fd);
	self->map = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	ASSERT_NE(MAP_FAILED, self->map);
	self->start = (uint64_t)(uintptr_t)self->map;
}

FIXTURE_TEARDOWN(mapped)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, 4096);
	test_dsos_drop();
	unlink(self->lib);
	unlink(self->other);
	rmdir(self->dir);
}

static enum dw_proc_file_how look(FIXTURE_DATA(mapped) *self, const unsigned char *id,
				  size_t id_size)
{
	return dw_proc_file(test_dsos(), getpid(), self->lib, self->start, self->start + 4096, id, id_size,
			    self->buf, sizeof(self->buf));
}

TEST_F(mapped, the_mapped_path_is_read_through_the_process_root)
{
	char want[512];

	snprintf(want, sizeof(want), "/proc/%d/root%s", getpid(), self->lib);
	EXPECT_EQ(DW_PROC_FILE_ROOT, look(self, self->id, sizeof(self->id)));
	EXPECT_STREQ(want, self->buf);
}

/* An upgrade: another file renamed over the path. */
TEST_F(mapped, a_replaced_path_is_read_through_map_files)
{
	if (geteuid())
		SKIP(return, "/proc/PID/map_files needs root (CAP_SYS_ADMIN)");
	ASSERT_EQ(0, rename(self->other, self->lib));
	EXPECT_EQ(DW_PROC_FILE_MAPPED, look(self, self->id, sizeof(self->id)));
	EXPECT_NE(NULL, strstr(self->buf, "/map_files/"));
	EXPECT_TRUE(dw_dso_usable(dw_dso_get(test_dsos(), self->buf, self->id, sizeof(self->id))));
}

TEST_F(mapped, without_a_recorded_build_id_the_path_is_taken_as_it_is)
{
	ASSERT_EQ(0, rename(self->other, self->lib));
	EXPECT_EQ(DW_PROC_FILE_ROOT, look(self, NULL, 0));
}

/* Not mapped any more and replaced: the path, for the build-id check to refuse. */
TEST_F(mapped, unmapped_and_replaced_the_path_is_returned)
{
	ASSERT_EQ(0, rename(self->other, self->lib));
	munmap(self->map, 4096);
	self->map = MAP_FAILED;
	EXPECT_EQ(DW_PROC_FILE_NONE, look(self, self->id, sizeof(self->id)));
	EXPECT_STREQ(self->lib, self->buf);
}

TEST_HARNESS_MAIN
