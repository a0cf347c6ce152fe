// SPDX-License-Identifier: GPL-2.0
/*
 * dw_maps_*: symbolise addresses of this very process: a function of this
 * (PIE) test program from .symtab, and a libc function from .dynsym; a
 * mapped copy of it whose file is gone; a mapping reported again.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dso_cache.h"
#include "symbols/dso.h"
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
	self->m = dw_maps_load(NULL, 0);
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

/*
 * A copy of this program mapped executable, then deleted (as a package
 * upgrade replaces a library): dw_maps_load(NULL, ) reads it through
 * /proc/self/map_files and names the marker function in the copy.
 */
TEST(a_mapped_file_that_is_gone_is_named_through_map_files)
{
	char dir[] = "/tmp/dw_symtab_test.XXXXXX", copy[64], cmd[160];
	uint64_t vaddr, foff, off = 0;
	const char *name, *dso = NULL;
	struct dw_maps *m;
	struct dw_dso *d;
	struct stat st;
	Dl_info info;
	void *map;
	int fd;

	if (geteuid())
		SKIP(return, "/proc/PID/map_files needs root (CAP_SYS_ADMIN)");
	ASSERT_NE(0, dladdr((void *)dw_test_marker_function, &info));
	vaddr = (uintptr_t)dw_test_marker_function - (uintptr_t)info.dli_fbase;
	d = dw_dso_get(test_dsos(), "/proc/self/exe", NULL, 0);
	/* Text is mapped at its own file offset in GNU ld's layouts. */
	if (!d || dw_dso_file_to_vaddr(d, vaddr, &foff) || foff != vaddr)
		SKIP(return, "this program's text is not at its file offset");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(copy, sizeof(copy), "%s/copy", dir);
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s", getpid(), copy);
	ASSERT_EQ(0, system(cmd));
	fd = open(copy, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &st));
	map = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	unlink(copy);
	rmdir(dir);
	ASSERT_NE(MAP_FAILED, map);
	m = dw_maps_load(NULL, 0);
	ASSERT_NE(NULL, m);
	name = dw_maps_lookup(m, (uintptr_t)map + vaddr, &off, &dso);
	EXPECT_STREQ("dw_test_marker_function", name ? name : "(none)");
	EXPECT_EQ(0, off);
	EXPECT_TRUE(ends_with(dso, "/copy"));
	dw_maps_free(m);
	munmap(map, st.st_size);
}

/*
 * A mapping reported again (the module may) once its process is gone:
 * the new record can only name the path, where another file or none is
 * now.  The file read for the first record, whose build-id the mapping
 * has, still names the function.
 */
TEST(a_mapping_reported_again_keeps_the_file_read_first)
{
	const char *path = "/nonexistent/dw_symtab_test/prog", *name, *dso = NULL;
	const unsigned char *id;
	uint64_t vaddr, foff, off = 0;
	struct dw_maps *m;
	struct dw_dso *d;
	struct stat st;
	Dl_info info;
	int n;

	ASSERT_NE(0, dladdr((void *)dw_test_marker_function, &info));
	vaddr = (uintptr_t)dw_test_marker_function - (uintptr_t)info.dli_fbase;
	d = dw_dso_get(test_dsos(), "/proc/self/exe", NULL, 0);
	ASSERT_NE(NULL, d);
	if (dw_dso_file_to_vaddr(d, vaddr, &foff) || foff != vaddr)
		SKIP(return, "this program's text is not at its file offset");
	n = dw_dso_build_id(d, &id);
	if (n <= 0)
		SKIP(return, "this program has no build-id");
	ASSERT_EQ(0, stat("/proc/self/exe", &st));
	m = dw_maps_new(test_dsos());
	ASSERT_NE(NULL, m);
	/* First while the process maps it (its /proc/PID/root view), then late. */
	ASSERT_EQ(0, dw_maps_add_file(m, (uintptr_t)info.dli_fbase,
				      (uintptr_t)info.dli_fbase + st.st_size, 0, path,
				      "/proc/self/exe", id, n));
	ASSERT_EQ(0, dw_maps_add_file(m, (uintptr_t)info.dli_fbase,
				      (uintptr_t)info.dli_fbase + st.st_size, 0, path, NULL, id,
				      n));
	name = dw_maps_lookup(m, (uintptr_t)dw_test_marker_function, &off, &dso);
	EXPECT_STREQ("dw_test_marker_function", name ? name : "(none)");
	EXPECT_EQ(0, off);
	EXPECT_STREQ(path, dso ? dso : "(none)");
	dw_maps_free(m);
}

TEST(the_maps_of_this_process_load)
{
	struct dw_maps *m = dw_maps_load(NULL, 0);

	EXPECT_NE(NULL, m);
	dw_maps_free(m);
}

TEST(no_such_process_is_null_enoent)
{
	errno = 0;
	EXPECT_EQ(NULL, dw_maps_load(NULL, 999999999));
	EXPECT_EQ(ENOENT, errno);
	dw_test_marker_function(1);
}

TEST_HARNESS_MAIN
