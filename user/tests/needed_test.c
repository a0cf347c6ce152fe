// SPDX-License-Identifier: GPL-2.0
/*
 * dw_needed_closure(): the files the loader mapped for this very program
 * (its libraries and interpreter, read from /proc/self/maps) are all in
 * the closure computed from its file; a non-ELF file is refused.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "sframe/needed.h"

static int in_closure(const struct dw_needed *n, const char *path)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->paths[i], path))
			return 1;
	return 0;
}

FIXTURE(self) {
	struct dw_needed n;
	int err;
};

FIXTURE_SETUP(self)
{
	memset(&self->n, 0, sizeof(self->n));
	self->err = dw_needed_closure("/proc/self/exe", &self->n);
}

FIXTURE_TEARDOWN(self)
{
	dw_needed_free(&self->n);
}

TEST_F(self, the_closure_of_this_program_is_found)
{
	EXPECT_EQ(0, self->err);
}

TEST_F(self, the_program_comes_first_then_interpreter_and_libraries)
{
	char exe[PATH_MAX];

	ASSERT_NE(NULL, realpath("/proc/self/exe", exe));
	ASSERT_EQ(0, self->err);
	EXPECT_LE(3, self->n.n);
	EXPECT_STREQ(exe, self->n.paths[0]);
}

TEST_F(self, every_executable_file_mapping_is_in_the_closure)
{
	char line[PATH_MAX + 256], real[PATH_MAX];
	size_t mapped = 0, missing = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, self->err);
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *path = strchr(line, '/');

		if (!path || sscanf(line, "%*s %7s", perms) != 1 || perms[2] != 'x')
			continue;
		path[strcspn(path, "\n")] = '\0';
		if (!realpath(path, real))
			continue;
		mapped++;
		if (!in_closure(&self->n, real)) {
			missing++;
			TH_LOG("mapped but not in the closure: %s", real);
		}
	}
	fclose(f);
	EXPECT_LE(3, mapped);
	EXPECT_EQ(0, missing);
}

TEST(a_file_that_is_not_elf_is_enoexec)
{
	struct dw_needed bad = { 0 };

	EXPECT_EQ(-ENOEXEC, dw_needed_closure("/proc/self/maps", &bad));
	EXPECT_EQ(0, bad.n);
	dw_needed_free(&bad);
}

TEST(no_such_file_is_enoent)
{
	struct dw_needed bad = { 0 };

	EXPECT_EQ(-ENOENT, dw_needed_closure("/nonexistent/program", &bad));
	EXPECT_EQ(0, bad.n);
	dw_needed_free(&bad);
}

TEST_HARNESS_MAIN
