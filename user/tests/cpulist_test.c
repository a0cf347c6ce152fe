// SPDX-License-Identifier: GPL-2.0
/* dw_cpulist_parse() (util/cpulist.c): the lists it takes and refuses. */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "util/cpulist.h"

static unsigned char bits[4];
static size_t used;

TEST(one_cpu_sets_one_bit)
{
	ASSERT_EQ(0, dw_cpulist_parse("3", bits, sizeof(bits), &used));
	EXPECT_EQ(0x08, bits[0]);
	EXPECT_EQ(1, used);
}

TEST(ranges_and_lists_set_every_cpu_named)
{
	ASSERT_EQ(0, dw_cpulist_parse("0-2,9,14-15", bits, sizeof(bits), &used));
	EXPECT_EQ(0x07, bits[0]);
	EXPECT_EQ(0xc2, bits[1]);
	EXPECT_EQ(0, bits[2]);
	EXPECT_EQ(2, used);
}

TEST(a_cpu_beyond_the_bitmap_is_erange)
{
	EXPECT_EQ(-ERANGE, dw_cpulist_parse("32", bits, sizeof(bits), &used));
}

TEST(malformed_lists_are_einval)
{
	static const char *const bad[] = { "", "a", "1-", "-1", "3-1", "1,", "1,,2", "1 2", "+1" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(-EINVAL, dw_cpulist_parse(bad[i], bits, sizeof(bits), &used))
			TH_LOG("list %zu", i);
}

TEST_HARNESS_MAIN
