// SPDX-License-Identifier: GPL-2.0
/*
 * interp/pycode.c on code objects built here byte by byte with 3.11's
 * layout in a synthetic address space: names of every str kind as UTF-8,
 * long names cut, and hostile objects refused: wrong types, strings that
 * are not compact or claim to be ASCII and are not, impossible lengths,
 * line tables too large, pointers into nowhere.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interp/pycode.h"

#define BASE		0x10000000ULL
#define SIZE		(1U << 16)
#define T_CODE		0x1000ULL		/* type objects: only their addresses matter */
#define T_STR		0x2000ULL
#define T_BYTES		0x3000ULL
#define CODE		(BASE + 0x100)
#define NAME		(BASE + 0x1000)
#define FILE_		(BASE + 0x2000)
#define TABLE		(BASE + 0x3000)

struct mem {
	__u8 *p;
};

static int mem_read(void *ctx, __u64 addr, void *dst, size_t len)
{
	struct mem *m = ctx;

	if (addr < BASE || addr - BASE > SIZE || len > SIZE - (addr - BASE))
		return -EFAULT;
	memcpy(dst, m->p + (addr - BASE), len);
	return 0;
}

static void put(struct mem *m, __u64 addr, const void *v, size_t n)
{
	memcpy(m->p + (addr - BASE), v, n);
}

static void put64(struct mem *m, __u64 addr, __u64 v)
{
	put(m, addr, &v, 8);
}

static void put32(struct mem *m, __u64 addr, __u32 v)
{
	put(m, addr, &v, 4);
}

/* A compact str of @kind (1, 2, 4) at @at; ASCII when @ascii. */
static void str(struct mem *m, const struct dw_cpython_layout *l, __u64 at, const void *chars,
		__u64 len, unsigned int kind, int ascii)
{
	put64(m, at + l->ob_type, T_STR);
	put64(m, at + l->str_length, len);
	put32(m, at + l->str_state, kind << 2 | 1U << 5 | (ascii ? 1U << 6 : 0) | 1U << 7);
	put(m, at + (ascii ? l->str_ascii_size : l->str_compact_size), chars, len * kind);
}

FIXTURE(code) {
	struct mem m;
	const struct dw_cpython_layout *l;
	struct dw_pymem mem;
	struct dw_pytypes types;
	struct dw_pycode_info info;
};

/* def fib() at line 12 of app.py; its one entry says line 14 for 4 units. */
FIXTURE_SETUP(code)
{
	static const __u8 table[] = { 0x80 | 12 << 3 | 3, 1, 2 };
	__u64 size = sizeof(table);

	self->m.p = calloc(1, SIZE);
	ASSERT_NE(NULL, self->m.p);
	self->l = dw_cpython_layout_known(DW_PY_VERSION(3, 11));
	ASSERT_NE(NULL, self->l);
	self->mem = (struct dw_pymem){ mem_read, &self->m };
	self->types = (struct dw_pytypes){ T_CODE, T_STR, T_BYTES };
	put64(&self->m, CODE + self->l->ob_type, T_CODE);
	put64(&self->m, CODE + self->l->co_qualname, NAME);
	put64(&self->m, CODE + self->l->co_filename, FILE_);
	put64(&self->m, CODE + self->l->co_linetable, TABLE);
	put32(&self->m, CODE + self->l->co_firstlineno, 12);
	str(&self->m, self->l, NAME, "fib", 3, 1, 1);
	str(&self->m, self->l, FILE_, "app.py", 6, 1, 1);
	put64(&self->m, TABLE + self->l->ob_type, T_BYTES);
	put64(&self->m, TABLE + self->l->bytes_size, size);
	put(&self->m, TABLE + self->l->bytes_sval, table, sizeof(table));
}

FIXTURE_TEARDOWN(code)
{
	free(self->m.p);
}

static int rd(struct _test_data_code *self, __u64 code, __s32 insn)
{
	return dw_pycode_read(self->l, &self->types, &self->mem, code, insn, &self->info);
}

TEST_F(code, names_file_and_line)
{
	ASSERT_EQ(0, rd(self, CODE, 6));
	EXPECT_STREQ("fib", self->info.name);
	EXPECT_STREQ("app.py", self->info.file);
	EXPECT_EQ(14, self->info.line);
	EXPECT_EQ(12, self->info.firstlineno);
	ASSERT_EQ(0, rd(self, CODE, -2));
	EXPECT_EQ(12, self->info.line);
	/* Past the table: the code object is not what its frame says. */
	EXPECT_EQ(-EINVAL, rd(self, CODE, 8));
}

TEST_F(code, every_str_kind_becomes_utf8)
{
	static const __u8 latin1[] = { 'c', 0xe9 };			/* cé */
	static const __u16 ucs2[] = { 0x3b1, '.', 0x20ac };		/* α.€ */
	static const __u32 ucs4[] = { 0x1f40d, 0xd800, 0x110000 };	/* snake, two invalid */

	str(&self->m, self->l, NAME, latin1, 2, 1, 0);
	ASSERT_EQ(0, rd(self, CODE, 0));
	EXPECT_STREQ("c\xc3\xa9", self->info.name);
	str(&self->m, self->l, NAME, ucs2, 3, 2, 0);
	ASSERT_EQ(0, rd(self, CODE, 0));
	EXPECT_STREQ("\xce\xb1.\xe2\x82\xac", self->info.name);
	str(&self->m, self->l, NAME, ucs4, 3, 4, 0);
	ASSERT_EQ(0, rd(self, CODE, 0));
	EXPECT_STREQ("\xf0\x9f\x90\x8d??", self->info.name);
}

TEST_F(code, long_names_are_cut)
{
	char big[2000];

	memset(big, 'x', sizeof(big));
	str(&self->m, self->l, FILE_, big, sizeof(big), 1, 1);
	ASSERT_EQ(0, rd(self, CODE, 0));
	EXPECT_EQ(DW_PYCODE_FILE_MAX - 1, strlen(self->info.file));
	put64(&self->m, FILE_ + self->l->str_length, 1ULL << 50);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
}

TEST_F(code, wrong_types_are_refused)
{
	put64(&self->m, CODE + self->l->ob_type, T_STR);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
	put64(&self->m, CODE + self->l->ob_type, T_CODE);
	put64(&self->m, NAME + self->l->ob_type, T_BYTES);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
	put64(&self->m, NAME + self->l->ob_type, T_STR);
	put64(&self->m, TABLE + self->l->ob_type, T_STR);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
}

TEST_F(code, strings_that_lie_are_refused)
{
	__u8 bad = 0xff;

	/* Not compact (a legacy str), a kind of 3, ASCII with a byte >= 0x80. */
	put32(&self->m, NAME + self->l->str_state, 1U << 2 | 1U << 6);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
	put32(&self->m, NAME + self->l->str_state, 3U << 2 | 1U << 5);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
	str(&self->m, self->l, NAME, &bad, 1, 1, 1);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
}

TEST_F(code, tables_too_large_or_pointers_nowhere)
{
	put64(&self->m, TABLE + self->l->bytes_size, DW_PYCODE_TABLE_MAX + 1);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
	put64(&self->m, TABLE + self->l->bytes_size, SIZE);	/* runs off the memory */
	EXPECT_EQ(-EFAULT, rd(self, CODE, 0));
	put64(&self->m, CODE + self->l->co_qualname, 0x10);
	EXPECT_EQ(-EFAULT, rd(self, CODE, 0));
	put64(&self->m, CODE + self->l->co_qualname, 0);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
	put64(&self->m, CODE + self->l->co_qualname, NAME + 4);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
	EXPECT_EQ(-EFAULT, rd(self, ~7ULL, 0));
	put32(&self->m, CODE + self->l->co_firstlineno, (__u32)-5);
	EXPECT_EQ(-EINVAL, rd(self, CODE, 0));
}

TEST_HARNESS_MAIN
