// SPDX-License-Identifier: GPL-2.0
/* dw_event_*: sampling events by name, both ways, and the hardware ones. */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "capture/event.h"

static const char *const names[] = { "cpu-clock", "task-clock", "cycles", "instructions",
				     "cache-misses", "branch-misses" };

TEST(every_event_name_parses_back_to_it)
{
	unsigned int i;

	ASSERT_EQ(DUNWIND_EVENT_MAX, (int)(sizeof(names) / sizeof(names[0])));
	for (i = 0; i < DUNWIND_EVENT_MAX; i++) {
		EXPECT_EQ((int)i, dw_event_parse(names[i]));
		EXPECT_STREQ(names[i], dw_event_name(i));
	}
}

/* What older captures and configs hold. */
TEST(cpu_clock_is_event_0)
{
	EXPECT_EQ(0, DUNWIND_EVENT_CPU_CLOCK);
	EXPECT_EQ(DUNWIND_EVENT_CPU_CLOCK, dw_event_parse("cpu-clock"));
}

TEST(unknown_or_misspelt_names_are_einval)
{
	EXPECT_EQ(-EINVAL, dw_event_parse("cycle"));
	EXPECT_EQ(-EINVAL, dw_event_parse(""));
	EXPECT_EQ(-EINVAL, dw_event_parse("CPU-CLOCK"));
}

TEST(an_event_past_the_known_ones_is_unknown_event)
{
	EXPECT_STREQ("unknown-event", dw_event_name(DUNWIND_EVENT_MAX));
}

TEST(the_clocks_are_software_the_rest_hardware)
{
	EXPECT_FALSE(dw_event_is_hw(DUNWIND_EVENT_CPU_CLOCK));
	EXPECT_FALSE(dw_event_is_hw(DUNWIND_EVENT_TASK_CLOCK));
	EXPECT_TRUE(dw_event_is_hw(DUNWIND_EVENT_CYCLES));
	EXPECT_TRUE(dw_event_is_hw(DUNWIND_EVENT_BRANCH_MISSES));
	EXPECT_FALSE(dw_event_is_hw(DUNWIND_EVENT_MAX));
}

TEST(the_help_list_names_every_event)
{
	unsigned int i;

	for (i = 0; i < DUNWIND_EVENT_MAX; i++)
		EXPECT_NE(NULL, strstr(dw_event_names(), dw_event_name(i)))
			TH_LOG("%s is not in '%s'", dw_event_name(i), dw_event_names());
}

TEST_HARNESS_MAIN
