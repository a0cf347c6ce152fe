// SPDX-License-Identifier: GPL-2.0
/*
 * The table of report's output formats: every entry is found by its
 * name and has a writer, the list the help and the completion show names
 * each entry in table order, an unknown name is not found, and the
 * formats that are not text are the binary ones.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "output/format.h"

TEST(each_entry_found_by_its_name)
{
	const struct dw_output_format *o;
	int n = 0;

	for (o = dw_output_formats; o->name; o++, n++) {
		EXPECT_EQ(o, dw_output_find(o->name));
		EXPECT_NE(NULL, o->write);
	}
	EXPECT_EQ(5, n);
}

TEST(names_list_the_table_in_order)
{
	const struct dw_output_format *o;
	char want[256] = "";

	for (o = dw_output_formats; o->name; o++) {
		if (want[0])
			strcat(want, ", ");
		strcat(want, o->name);
	}
	EXPECT_STREQ(want, dw_output_names());
	EXPECT_STREQ("text, folded, speedscope, pprof, perf", dw_output_names());
}

TEST(unknown_name_not_found)
{
	EXPECT_EQ(NULL, dw_output_find("svg"));
	EXPECT_EQ(NULL, dw_output_find(""));
	EXPECT_EQ(NULL, dw_output_find("Text"));
}

TEST(text_first_binary_ones_marked)
{
	EXPECT_STREQ("text", dw_output_formats[0].name);
	EXPECT_TRUE(dw_output_formats[0].text);
	EXPECT_FALSE(dw_output_find("folded")->binary);
	EXPECT_TRUE(dw_output_find("pprof")->binary);
	EXPECT_TRUE(dw_output_find("perf")->binary);
	EXPECT_TRUE(dw_output_find("perf")->file);
}

TEST_HARNESS_MAIN
