// SPDX-License-Identifier: GPL-2.0
/* dw_kallsyms_*: lookups in a synthetic kallsyms file, and in /proc/kallsyms. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "symbols/kallsyms.h"

static char path[] = "/tmp/dw_kallsyms_test.XXXXXX";

static int write_file(const char *text)
{
	int fd = mkstemp(path);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

FIXTURE(file) {
	struct dw_kallsyms *k;
	const char *name, *mod;
	uint64_t off;
};

FIXTURE_SETUP(file)
{
	strcpy(path, "/tmp/dw_kallsyms_test.XXXXXX");
	ASSERT_EQ(0, write_file("ffffffff81000000 T _stext\n"
				"ffffffff81001000 t helper\n"
				"ffffffff81002000 D some_data\n"
				"ffffffff81000800 T middle\n"
				"ffffffffc0001000 t dunwind_handler\t[dunwind]\n"));
	self->k = dw_kallsyms_load(path);
	unlink(path);
	ASSERT_NE(NULL, self->k);
	self->mod = NULL;
}

FIXTURE_TEARDOWN(file)
{
	dw_kallsyms_free(self->k);
}

TEST_F(file, loads)
{
	EXPECT_NE(NULL, self->k);
}

TEST_F(file, a_core_kernel_symbol_with_offset)
{
	self->name = dw_kallsyms_lookup(self->k, 0xffffffff81000010ULL, &self->off, &self->mod);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("_stext", self->name);
	EXPECT_EQ(0x10ull, self->off);
	EXPECT_STREQ("kernel.kallsyms", self->mod);
}

TEST_F(file, unsorted_input_is_sorted)
{
	self->name = dw_kallsyms_lookup(self->k, 0xffffffff81000900ULL, &self->off, &self->mod);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("middle", self->name);
	EXPECT_EQ(0x100ull, self->off);
}

TEST_F(file, data_symbols_are_not_functions)
{
	self->name = dw_kallsyms_lookup(self->k, 0xffffffff81002010ULL, &self->off, &self->mod);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("helper", self->name);
	EXPECT_EQ(0x1010ull, self->off);
}

TEST_F(file, a_module_symbol_names_its_module)
{
	self->name = dw_kallsyms_lookup(self->k, 0xffffffffc0001004ULL, &self->off, &self->mod);
	ASSERT_NE(NULL, self->name);
	EXPECT_STREQ("dunwind_handler", self->name);
	EXPECT_EQ(4ull, self->off);
	EXPECT_STREQ("dunwind", self->mod);
}

TEST_F(file, nothing_far_past_the_last_symbol)
{
	EXPECT_EQ(NULL, dw_kallsyms_lookup(self->k, 0xffffffffc0101004ULL, &self->off,
					   &self->mod));
}

TEST_F(file, nothing_below_the_first_symbol)
{
	EXPECT_EQ(NULL, dw_kallsyms_lookup(self->k, 0x1000, &self->off, &self->mod));
}

/* kptr_restrict hides the addresses. */
TEST(all_zero_addresses_are_eperm)
{
	strcpy(path, "/tmp/dw_kallsyms_test.XXXXXX");
	ASSERT_EQ(0, write_file("0000000000000000 T _stext\n0000000000000000 t helper\n"));
	errno = 0;
	EXPECT_EQ(NULL, dw_kallsyms_load(path));
	EXPECT_EQ(EPERM, errno);
	unlink(path);
}

TEST(proc_kallsyms_finds_schedule_plus_1)
{
	struct dw_kallsyms *k = dw_kallsyms_load(NULL);
	char line[512], sym[256];
	const char *name, *mod;
	unsigned long long a, addr = 0;
	uint64_t off = 0;
	FILE *f;
	char t;

	if (!k)
		SKIP(return, "/proc/kallsyms is not readable here: %s", strerror(errno));
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 && t == 'T' &&
		    !strcmp(sym, "schedule")) {
			addr = a;
			break;
		}
	if (f)
		fclose(f);
	name = addr ? dw_kallsyms_lookup(k, addr + 1, &off, &mod) : NULL;
	EXPECT_NE(0ull, addr);
	EXPECT_NE(NULL, name);
	EXPECT_EQ(1ull, off);
	dw_kallsyms_free(k);
}

TEST_HARNESS_MAIN
