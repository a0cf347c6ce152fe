// SPDX-License-Identifier: GPL-2.0
/*
 * interp/linetable.c, CPython's location table decoder: tables written
 * here entry by entry, hostile ones (cut, unterminated varints, huge
 * deltas), and every code object of a few standard modules as Debian's
 * python3.11 compiles them, checked instruction by instruction against
 * Python's own code.co_positions().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "interp/linetable.h"

#define PYTHON	"/usr/bin/python3.11"

TEST(entries_of_every_form)
{
	/*
	 * firstlineno 10: 2 units short form (line 10), 1 unit one-line +1
	 * (11), 3 units no-column -3 (8), 1 unit long +5 (13), 2 units no
	 * location, 1 unit one-line +2 (15: the delta applies past code 15).
	 */
	static const __u8 t[] = {
		0x80 | 0 << 3 | 1, 0x05,
		0x80 | 11 << 3 | 0, 4, 9,
		0x80 | 13 << 3 | 2, 7,
		0x80 | 14 << 3 | 0, 10, 0, 5, 9,
		0x80 | 15 << 3 | 1,
		0x80 | 12 << 3 | 0, 1, 2,
	};
	static const int lines[] = { 10, 10, 11, 8, 8, 8, 13, -1, -1, 15 };
	unsigned int i;
	int line;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		ASSERT_EQ(0, dw_py_line(t, sizeof(t), 10, (__s32)(2 * i), &line));
		EXPECT_EQ(lines[i], line) TH_LOG("unit %u", i);
	}
	EXPECT_EQ(-ENOENT, dw_py_line(t, sizeof(t), 10, 2 * 10, &line));
	ASSERT_EQ(0, dw_py_line(t, sizeof(t), 10, -2, &line));
	EXPECT_EQ(10, line);
}

TEST(multibyte_varints)
{
	/* No-column entry: delta +100 (zigzag 200 = 8 | 3 << 6: two bytes). */
	static const __u8 t[] = { 0x80 | 13 << 3, 0x40 | 8, 3 };
	int line;

	ASSERT_EQ(0, dw_py_line(t, sizeof(t), 1, 0, &line));
	EXPECT_EQ(101, line);
}

TEST(hostile_tables)
{
	static const __u8 cut_short[] = { 0x80 | 0 << 3 };
	static const __u8 cut_long[] = { 0x80 | 14 << 3, 2, 0 };
	static const __u8 no_start[] = { 0x05, 0x80 };
	static const __u8 varint_runs[] = { 0x80 | 13 << 3, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x01 };
	static const __u8 varint_into_next[] = { 0x80 | 13 << 3, 0x41, 0x80 | 15 << 3 };
	static const __u8 column_into_next[] = { 0x80 | 10 << 3, 0x80, 0x80 };
	__u8 huge[64];
	unsigned int i;
	int line;

	EXPECT_EQ(-EINVAL, dw_py_line(cut_short, sizeof(cut_short), 1, 0, &line));
	EXPECT_EQ(-EINVAL, dw_py_line(cut_long, sizeof(cut_long), 1, 0, &line));
	EXPECT_EQ(-EINVAL, dw_py_line(no_start, sizeof(no_start), 1, 0, &line));
	EXPECT_EQ(-EINVAL, dw_py_line(varint_runs, sizeof(varint_runs), 1, 0, &line));
	EXPECT_EQ(-EINVAL, dw_py_line(varint_into_next, sizeof(varint_into_next), 1, 0, &line));
	EXPECT_EQ(-EINVAL, dw_py_line(column_into_next, sizeof(column_into_next), 1, 0, &line));
	EXPECT_EQ(-ENOENT, dw_py_line(NULL, 0, 1, 0, &line));
	/* Deltas of ~2^29 each: the line leaves its range, not int's. */
	for (i = 0; i + 6 <= sizeof(huge); i += 6) {
		huge[i] = 0x80 | 13 << 3;
		huge[i + 1] = 0x40;
		huge[i + 2] = 0x40;
		huge[i + 3] = 0x40;
		huge[i + 4] = 0x40;
		huge[i + 5] = 0x3e;
	}
	EXPECT_EQ(-EINVAL, dw_py_line(huge, sizeof(huge) / 6 * 6, 1, 1000, &line));
}

/* Python prints, per code object: firstlineno, co_linetable in hex, each unit's line. */
static const char dump[] =
	"import threading, json.decoder, argparse, types\n"
	"def walk(co):\n"
	"    yield co\n"
	"    for k in co.co_consts:\n"
	"        if isinstance(k, types.CodeType):\n"
	"            yield from walk(k)\n"
	"for m in (threading, json.decoder, argparse):\n"
	"    src = open(m.__file__).read()\n"
	"    for co in walk(compile(src, m.__file__, 'exec')):\n"
	"        ls = [-1 if p[0] is None else p[0] for p in co.co_positions()]\n"
	"        print(co.co_firstlineno, co.co_linetable.hex() or '-', *ls)\n";

static int unhex(const char *s, __u8 *out, size_t cap, size_t *n)
{
	unsigned int b;

	*n = 0;
	if (!strcmp(s, "-"))
		return 0;
	for (; s[0] && s[1]; s += 2) {
		if (*n >= cap || sscanf(s, "%2x", &b) != 1)
			return -1;
		out[(*n)++] = (__u8)b;
	}
	return 0;
}

TEST(agrees_with_pythons_co_positions)
{
	static char line[1 << 20];
	static __u8 table[1 << 18];
	unsigned long codes = 0, units = 0, bad = 0;
	char cmd[4096], *tok, *save;
	size_t n;
	int first, want, got, unit;
	FILE *f;

	if (access(PYTHON, X_OK))
		SKIP(return, "no %s: apt-get install python3.11", PYTHON);
	snprintf(cmd, sizeof(cmd), "%s -S -c \"$DUMP\"", PYTHON);
	setenv("DUMP", dump, 1);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		tok = strtok_r(line, " \n", &save);
		ASSERT_NE(NULL, tok);
		first = atoi(tok);
		tok = strtok_r(NULL, " \n", &save);
		ASSERT_NE(NULL, tok);
		ASSERT_EQ(0, unhex(tok, table, sizeof(table), &n));
		codes++;
		for (unit = 0; (tok = strtok_r(NULL, " \n", &save)); unit++) {
			want = atoi(tok);
			units++;
			if (dw_py_line(table, n, first, 2 * unit, &got) || got != want)
				bad++;
		}
	}
	ASSERT_EQ(0, pclose(f));
	TH_LOG("%lu code objects, %lu instructions, %lu lines wrong", codes, units, bad);
	EXPECT_GT(codes, 300);
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
