// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's Python code objects (DW_REC_PYCODE): encoded, read back,
 * found by (pid, code, time), their tables' lines; records whose
 * lengths lie are left out, never read past.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "capture/pysnap.h"
#include "interp/linetable.h"

/* The line the reports give: as analyze/locations.c asks the table. */
static int line_of(const struct dw_pysnap_code *c, __s32 insn)
{
	int line = 0;

	if (insn < 0)
		return c->firstlineno;
	if (!c->table_len || dw_py_line(c->table, c->table_len, c->firstlineno, insn, &line))
		return 0;
	return line;
}

/* lines 12, 12, 12, 14 from firstlineno 11 (codes 13, 10, 13). */
static const __u8 table[] = { 0x80 | 13 << 3, 2, 0x80 | 10 << 3 | 1, 0, 4, 0x80 | 13 << 3, 4 };

static __u64 rec[8192];

TEST(a_record_round_trips_with_its_lines)
{
	struct dw_pysnap s = { 0 };
	const struct dw_pysnap_code *c;
	int len = dw_pysnap_encode(rec, sizeof(rec), 7, 0x1000, 50, "Worker.run", "/srv/app.py", 11,
				   table, sizeof(table));

	ASSERT_LT(0, len);
	ASSERT_EQ(0, len % 8);
	ASSERT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	c = dw_pysnap_find(&s, 7, 0x1000, 60);
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("Worker.run", c->name);
	EXPECT_STREQ("/srv/app.py", c->file);
	EXPECT_EQ(12, line_of(c, 0));
	EXPECT_EQ(12, line_of(c, 2));
	EXPECT_EQ(14, line_of(c, 6));
	EXPECT_EQ(11, line_of(c, -2));
	EXPECT_EQ(0, line_of(c, 400));
	EXPECT_EQ(NULL, dw_pysnap_find(&s, 8, 0x1000, 60));
	EXPECT_EQ(NULL, dw_pysnap_find(&s, 7, 0x1008, 60));
	dw_pysnap_free(&s);
}

TEST(a_newer_object_at_the_address_names_the_later_stacks)
{
	struct dw_pysnap s = { 0 };

	dw_pysnap_encode(rec, sizeof(rec), 7, 0x1000, 50, "old", "a.py", 1, NULL, 0);
	ASSERT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	dw_pysnap_encode(rec, sizeof(rec), 7, 0x1000, 90, "new", "b.py", 3, NULL, 0);
	ASSERT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	EXPECT_STREQ("old", dw_pysnap_find(&s, 7, 0x1000, 10)->name);
	EXPECT_STREQ("old", dw_pysnap_find(&s, 7, 0x1000, 89)->name);
	EXPECT_STREQ("new", dw_pysnap_find(&s, 7, 0x1000, 90)->name);
	EXPECT_EQ(0, line_of(dw_pysnap_find(&s, 7, 0x1000, 95), 0));
	dw_pysnap_free(&s);
}

TEST(lengths_past_the_record_are_refused)
{
	struct dw_rec_pycode *r = (void *)rec;
	struct dw_pysnap s = { 0 };
	int len;

	len = dw_pysnap_encode(rec, sizeof(rec), 7, 0x1000, 50, "f", "a.py", 1, table,
			       sizeof(table));
	r->table_len = 0xffff;
	EXPECT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	r->table_len = sizeof(table);
	r->name_len = (__u16)(len);
	EXPECT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	r->name_len = 1;
	r->hdr.size = 36;
	EXPECT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	r->hdr.size = (__u16)(len - 1);
	EXPECT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	r->hdr.size = (__u16)len;
	r->code = 0;
	EXPECT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	EXPECT_EQ(0, s.nr);
	dw_pysnap_free(&s);
}

TEST(long_names_are_cut_and_a_huge_table_left_out)
{
	static char name[600], file[2000];
	static __u8 big[DW_PYSNAP_TABLE_MAX + 1];
	struct dw_pysnap s = { 0 };
	const struct dw_pysnap_code *c;

	memset(name, 'n', sizeof(name) - 1);
	memset(file, 'f', sizeof(file) - 1);
	ASSERT_LT(0, dw_pysnap_encode(rec, sizeof(rec), 7, 0x1000, 50, name, file, 1, big,
				      sizeof(big)));
	ASSERT_EQ(0, dw_pysnap_add(&s, (void *)rec));
	c = dw_pysnap_find(&s, 7, 0x1000, 50);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(DW_PYSNAP_NAME_MAX, strlen(c->name));
	EXPECT_EQ(DW_PYSNAP_FILE_MAX, strlen(c->file));
	EXPECT_EQ(0, c->table_len);
	EXPECT_EQ(-ENOSPC, dw_pysnap_encode(rec, 40, 7, 0x1000, 50, "f", "a.py", 1, NULL, 0));
	dw_pysnap_free(&s);
}

TEST_HARNESS_MAIN
