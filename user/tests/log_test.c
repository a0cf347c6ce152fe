// SPDX-License-Identifier: GPL-2.0
/* dw_set_print() and dw_warn()/dw_info()/dw_debug() (util/log.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "util/log.h"

static char got[256];
static int got_level = -1;
static int calls;

static int catch(enum dw_print_level level, const char *fmt, va_list args)
{
	calls++;
	got_level = level;
	return vsnprintf(got, sizeof(got), fmt, args);
}

FIXTURE(hook) {
	dw_print_fn_t old;
};

FIXTURE_SETUP(hook)
{
	calls = 0;
	got_level = -1;
	got[0] = 0;
	self->old = dw_set_print(catch);
}

FIXTURE_TEARDOWN(hook)
{
	dw_set_print(self->old);
}

TEST_F(hook, a_warning_reaches_the_callback_with_its_level_and_prefix)
{
	dw_warn("%s: %d files\n", "/tmp/x", 3);
	EXPECT_EQ(1, calls);
	EXPECT_EQ(DW_WARN, got_level);
	EXPECT_STREQ("dunwind: /tmp/x: 3 files\n", got);
}

TEST_F(hook, info_and_debug_reach_it_with_theirs)
{
	dw_info("summary\n");
	EXPECT_EQ(DW_INFO, got_level);
	EXPECT_STREQ("dunwind: summary\n", got);
	dw_debug("detail %u\n", 7u);
	EXPECT_EQ(DW_DEBUG, got_level);
	EXPECT_STREQ("dunwind: detail 7\n", got);
	EXPECT_EQ(2, calls);
}

TEST_F(hook, a_command_warning_names_the_command)
{
	dw_cmd_warn("record", "-C names a CPU that is offline\n");
	EXPECT_EQ(DW_WARN, got_level);
	EXPECT_STREQ("dunwind record: -C names a CPU that is offline\n", got);
}

TEST_F(hook, set_print_returns_the_callback_before)
{
	dw_print_fn_t mine = catch;

	EXPECT_TRUE(dw_set_print(NULL) == mine);
	EXPECT_TRUE(dw_set_print(mine) == NULL);
}

TEST_F(hook, a_null_callback_silences_and_keeps_errno)
{
	dw_set_print(NULL);
	errno = ENOENT;
	dw_warn("nobody hears this\n");
	EXPECT_EQ(0, calls);
	EXPECT_EQ(ENOENT, errno);
}

/* What the default callback (installed outside the fixture) wrote to stderr while @fn ran. */
static ssize_t default_output(void (*fn)(void), char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	ssize_t n;

	if (!tmp || saved < 0)
		return -1;
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	fn();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fileno(tmp), buf, len - 1, 0);
	fclose(tmp);
	if (n >= 0)
		buf[n] = 0;
	return n;
}

static void warn_and_debug(void)
{
	dw_warn("%s exists: give -f\n", "out.data");
	dw_info("wrote %d records\n", 2);
	dw_debug("not on stderr\n");
}

TEST(the_default_prints_warnings_and_info_to_stderr_not_debug)
{
	char buf[256];

	ASSERT_LT(0, default_output(warn_and_debug, buf, sizeof(buf)));
	EXPECT_STREQ("dunwind: out.data exists: give -f\ndunwind: wrote 2 records\n", buf);
}

TEST_HARNESS_MAIN
