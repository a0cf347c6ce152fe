// SPDX-License-Identifier: GPL-2.0
/*
 * dw_maps_*: symbolise addresses of this very process: a function of this
 * (PIE) test program from .symtab, and a libc function from .dynsym.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "symbols/symtab.h"

__attribute__((noinline, used)) int dw_test_marker_function(int x)
{
	return x * 3 + 1;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = s ? strlen(s) : 0, m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

FIXTURE(self) {
	struct dw_maps *m;
	const char *name, *dso;
	uint64_t off;
};

FIXTURE_SETUP(self)
{
	self->m = dw_maps_load(0);
	ASSERT_NE(NULL, self->m) TH_LOG("cannot load the maps of this process");
	self->dso = NULL;
	self->off = 99;
}

FIXTURE_TEARDOWN(self)
{
	dw_maps_free(self->m);
}

TEST_F(self, a_function_of_the_pie_executable_by_symtab)
{
	self->name = dw_maps_lookup(self->m, (uintptr_t)dw_test_marker_function, &self->off,
				    &self->dso);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("dw_test_marker_function", self->name);
	EXPECT_EQ(0ull, self->off);
}

TEST_F(self, its_file_is_this_program)
{
	dw_maps_lookup(self->m, (uintptr_t)dw_test_marker_function, &self->off, &self->dso);
	EXPECT_TRUE(ends_with(self->dso, "/symtab_test")) TH_LOG("%s", self->dso ?: "NULL");
}

TEST_F(self, an_address_inside_it_gives_the_offset)
{
	self->name = dw_maps_lookup(self->m, (uintptr_t)dw_test_marker_function + 3, &self->off,
				    &self->dso);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("dw_test_marker_function", self->name);
	EXPECT_EQ(3ull, self->off);
}

TEST_F(self, a_libc_function_by_dynsym)
{
	self->name = dw_maps_lookup(self->m, (uintptr_t)getpid, &self->off, &self->dso);
	ASSERT_NE(NULL, self->name);
	EXPECT_NE(NULL, strstr(self->name, "getpid")) TH_LOG("%s", self->name);
	EXPECT_EQ(0ull, self->off);
}

TEST_F(self, its_file_is_libc)
{
	dw_maps_lookup(self->m, (uintptr_t)getpid, &self->off, &self->dso);
	ASSERT_NE(NULL, self->dso);
	EXPECT_NE(NULL, strstr(self->dso, "libc")) TH_LOG("%s", self->dso);
}

TEST_F(self, an_unmapped_address_has_no_name_and_no_file)
{
	self->name = dw_maps_lookup(self->m, 16, &self->off, &self->dso);
	EXPECT_EQ(NULL, self->name);
	EXPECT_EQ(NULL, self->dso);
}

TEST_F(self, a_heap_address_has_no_name)
{
	int *heap = malloc(16);

	ASSERT_NE(NULL, heap);
	self->name = dw_maps_lookup(self->m, (uintptr_t)heap, &self->off, &self->dso);
	EXPECT_EQ(NULL, self->name);
	free(heap);
}

TEST(the_maps_of_this_process_load)
{
	struct dw_maps *m = dw_maps_load(0);

	EXPECT_NE(NULL, m);
	dw_maps_free(m);
}

TEST(no_such_process_is_null_enoent)
{
	errno = 0;
	EXPECT_EQ(NULL, dw_maps_load(999999999));
	EXPECT_EQ(ENOENT, errno);
	dw_test_marker_function(1);
}

TEST_HARNESS_MAIN
