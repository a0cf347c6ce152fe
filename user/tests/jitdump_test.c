// SPDX-License-Identifier: GPL-2.0
/*
 * jitdump files built byte by byte: code named after its occupant at the
 * time asked about (reused and moved code), records that are skipped
 * (debug and unwinding information), CODE_CLOSE, cut and malformed
 * records, the bounds, and the file checks a root recorder makes (as for
 * perf maps).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "symbols/jitdump.h"

/* A jitdump being built. */
struct jd {
	unsigned char buf[65536];
	size_t len;
};

static void put(struct jd *d, const void *p, size_t n)
{
	if (d->len + n > sizeof(d->buf))
		abort();
	memcpy(d->buf + d->len, p, n);
	d->len += n;
}

static void put32(struct jd *d, uint32_t v) { put(d, &v, sizeof(v)); }
static void put64(struct jd *d, uint64_t v) { put(d, &v, sizeof(v)); }

static void header(struct jd *d, uint32_t magic)
{
	d->len = 0;
	put32(d, magic);
	put32(d, 1);		/* version */
	put32(d, 40);		/* header size */
	put32(d, 62);		/* EM_X86_64 */
	put32(d, 0);
	put32(d, 1234);		/* pid */
	put64(d, 1);
	put64(d, 0);
}

static void rec(struct jd *d, uint32_t id, uint32_t size, uint64_t time)
{
	put32(d, id);
	put32(d, size);
	put64(d, time);
}

/* CODE_LOAD of @name at @addr, @size bytes of code (zeros) after it. */
static void load(struct jd *d, uint64_t time, uint64_t addr, uint64_t size, uint64_t index,
		 const char *name)
{
	static const unsigned char code[64];
	size_t n = strlen(name) + 1;

	rec(d, 0, (uint32_t)(16 + 40 + n + size), time);
	put32(d, 1234);
	put32(d, 1234);
	put64(d, addr);
	put64(d, addr);
	put64(d, size);
	put64(d, index);
	put(d, name, n);
	put(d, code, size < sizeof(code) ? size : sizeof(code));
}

static void move(struct jd *d, uint64_t time, uint64_t from, uint64_t to, uint64_t size,
		 uint64_t index)
{
	rec(d, 1, 16 + 48, time);
	put32(d, 1234);
	put32(d, 1234);
	put64(d, to);
	put64(d, from);
	put64(d, to);
	put64(d, size);
	put64(d, index);
}

static const char *at(const struct dw_jitdump *j, uint64_t addr, uint64_t time)
{
	return dw_jitdump_lookup(j, addr, time, NULL, NULL);
}

TEST(loaded_code_is_named_with_its_range)
{
	struct dw_jitdump *j;
	uint64_t start = 0, size = 0;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x40, 1, "JS:*f /a.js:1");
	load(&d, 11, 0x2000, 0x20, 2, "g");
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_EQ(2, dw_jitdump_count(j));
	EXPECT_STREQ("JS:*f /a.js:1", dw_jitdump_lookup(j, 0x103f, DW_JITDUMP_LATEST, &start, &size));
	EXPECT_EQ(0x1000, start);
	EXPECT_EQ(0x40, size);
	EXPECT_EQ(NULL, at(j, 0x1040, DW_JITDUMP_LATEST));
	EXPECT_STREQ("g", at(j, 0x2000, 12));
	/* Before it was loaded, nothing was there. */
	EXPECT_EQ(NULL, at(j, 0x2000, 10));
	dw_jitdump_free(j);
}

TEST(reused_memory_is_named_after_its_occupant_at_the_time)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x40, 1, "old");
	load(&d, 20, 0x1000, 0x30, 2, "new");
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("old", at(j, 0x1010, 15));
	EXPECT_STREQ("new", at(j, 0x1010, 25));
	EXPECT_STREQ("new", at(j, 0x1010, DW_JITDUMP_LATEST));
	/* Before the new code came, the old one's whole range. */
	EXPECT_STREQ("old", at(j, 0x1038, 15));
	dw_jitdump_free(j);
}

TEST(moved_code_is_named_at_its_new_place_and_gone_from_the_old)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x40, 7, "f");
	move(&d, 20, 0x1000, 0x5000, 0x40, 7);
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("f", at(j, 0x1010, 15));
	EXPECT_EQ(NULL, at(j, 0x1010, 25));
	EXPECT_EQ(NULL, at(j, 0x1010, DW_JITDUMP_LATEST));
	EXPECT_EQ(NULL, at(j, 0x5010, 15));
	EXPECT_STREQ("f", at(j, 0x5010, 25));
	dw_jitdump_free(j);
}

TEST(a_move_of_unknown_code_changes_nothing)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x40, 7, "f");
	move(&d, 20, 0x1000, 0x5000, 0x40, 8);
	move(&d, 21, 0x3000, 0x6000, 0x40, 7);
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("f", at(j, 0x1010, 25));
	EXPECT_EQ(NULL, at(j, 0x5010, 25));
	EXPECT_EQ(NULL, at(j, 0x6010, 25));
	dw_jitdump_free(j);
}

TEST(debug_and_unwinding_records_are_skipped_and_close_ends)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	rec(&d, 2, 16 + 24, 5);		/* CODE_DEBUG_INFO, no entries */
	put64(&d, 0x1000);
	put64(&d, 0);
	put64(&d, 0);
	rec(&d, 4, 16 + 32, 6);		/* CODE_UNWINDING_INFO, 8 bytes of data */
	put64(&d, 8);
	put64(&d, 0);
	put64(&d, 8);
	put64(&d, 0);
	rec(&d, 99, 16 + 4, 7);		/* a kind this reader does not know */
	put32(&d, 0);
	load(&d, 10, 0x1000, 0x40, 1, "f");
	rec(&d, 3, 16, 11);		/* CODE_CLOSE */
	load(&d, 12, 0x2000, 0x40, 2, "after_close");
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("f", at(j, 0x1000, DW_JITDUMP_LATEST));
	EXPECT_EQ(NULL, at(j, 0x2000, DW_JITDUMP_LATEST));
	dw_jitdump_free(j);
}

TEST(a_cut_record_keeps_what_came_before)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x40, 1, "f");
	load(&d, 11, 0x2000, 0x40, 2, "g");
	j = dw_jitdump_parse(d.buf, d.len - 20);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("f", at(j, 0x1000, DW_JITDUMP_LATEST));
	EXPECT_EQ(NULL, at(j, 0x2000, DW_JITDUMP_LATEST));
	dw_jitdump_free(j);
}

TEST(a_record_size_smaller_than_its_body_stops_the_reading)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x40, 1, "f");
	rec(&d, 0, 16 + 8, 11);		/* a CODE_LOAD of 8 bytes */
	put64(&d, 0x2000);
	load(&d, 12, 0x3000, 0x40, 3, "h");
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_EQ(1, dw_jitdump_count(j));
	EXPECT_STREQ("f", at(j, 0x1000, DW_JITDUMP_LATEST));
	dw_jitdump_free(j);
}

TEST(code_whose_range_wraps_is_skipped)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, ~0ULL - 0x10, 0x40, 1, "wraps");
	load(&d, 11, 0x1000, 0x40, 2, "f");
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_EQ(1, dw_jitdump_count(j));
	EXPECT_EQ(NULL, at(j, ~0ULL - 8, DW_JITDUMP_LATEST));
	dw_jitdump_free(j);
}

TEST(no_magic_or_the_other_byte_order_is_refused)
{
	struct jd d;

	header(&d, 0x12345678);
	errno = 0;
	EXPECT_EQ(NULL, dw_jitdump_parse(d.buf, d.len));
	EXPECT_EQ(EINVAL, errno);
	header(&d, 0x4454694A);
	EXPECT_EQ(NULL, dw_jitdump_parse(d.buf, d.len));
	EXPECT_EQ(NULL, dw_jitdump_parse(d.buf, 20));
}

TEST(records_past_the_bound_are_left)
{
	struct dw_jitdump *j;
	struct jd d;

	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x10, 1, "a");
	load(&d, 11, 0x2000, 0x10, 2, "b");
	load(&d, 12, 0x3000, 0x10, 3, "c");
	dw_jitdump_set_bounds(0, 2);
	j = dw_jitdump_parse(d.buf, d.len);
	dw_jitdump_set_bounds(0, 0);
	ASSERT_NE(NULL, j);
	EXPECT_EQ(2, dw_jitdump_count(j));
	EXPECT_EQ(NULL, at(j, 0x3000, DW_JITDUMP_LATEST));
	dw_jitdump_free(j);
}

TEST(a_long_name_is_cut_at_the_bound)
{
	char name[DW_JITDUMP_MAX_NAME + 100];
	struct dw_jitdump *j;
	struct jd d;

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x10, 1, name);
	j = dw_jitdump_parse(d.buf, d.len);
	ASSERT_NE(NULL, j);
	EXPECT_EQ(DW_JITDUMP_MAX_NAME, strlen(at(j, 0x1000, DW_JITDUMP_LATEST)));
	dw_jitdump_free(j);
}

/* Files: as perf maps, checked before anything is read. */
FIXTURE(files) {
	char dir[64], path[128], other[128];
};

FIXTURE_SETUP(files)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/dw-jitdump-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/jit-%d.dump", self->dir, getpid());
	snprintf(self->other, sizeof(self->other), "%s/real.dump", self->dir);
}

FIXTURE_TEARDOWN(files)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

static int write_dump(const char *path)
{
	FILE *f = fopen(path, "w");
	struct jd d;

	if (!f)
		return -1;
	header(&d, 0x4A695444);
	load(&d, 10, 0x1000, 0x40, 1, "f");
	fwrite(d.buf, 1, d.len, f);
	return fclose(f);
}

TEST_F(files, a_jitdump_of_this_process_is_read)
{
	struct dw_jitdump *j;

	ASSERT_EQ(0, write_dump(self->path));
	j = dw_jitdump_load(self->path);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("f", at(j, 0x1000, DW_JITDUMP_LATEST));
	dw_jitdump_free(j);
}

TEST_F(files, a_symbolic_link_is_not_followed)
{
	ASSERT_EQ(0, write_dump(self->other));
	ASSERT_EQ(0, symlink(self->other, self->path));
	errno = 0;
	EXPECT_EQ(NULL, dw_jitdump_load(self->path));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(files, a_fifo_is_refused_without_blocking)
{
	ASSERT_EQ(0, mkfifo(self->path, 0600));
	alarm(10);
	errno = 0;
	EXPECT_EQ(NULL, dw_jitdump_load(self->path));
	EXPECT_EQ(EPERM, errno);
	alarm(0);
}

TEST_F(files, a_jitdump_owned_by_another_user_is_refused)
{
	if (geteuid())
		SKIP(return, "chown to another user needs root");
	ASSERT_EQ(0, write_dump(self->path));
	ASSERT_EQ(0, chown(self->path, 12345, 12345));
	errno = 0;
	EXPECT_EQ(NULL, dw_jitdump_load(self->path));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(files, a_file_over_the_byte_bound_is_not_read)
{
	ASSERT_EQ(0, write_dump(self->path));
	dw_jitdump_set_bounds(64, 0);
	errno = 0;
	EXPECT_EQ(NULL, dw_jitdump_load(self->path));
	EXPECT_EQ(EPERM, errno);
	dw_jitdump_set_bounds(0, 0);
}

TEST_HARNESS_MAIN
