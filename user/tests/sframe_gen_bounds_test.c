// SPDX-License-Identifier: GPL-2.0
/*
 * The SFrame generator reads files their owners control for a recorder
 * that may be root: a file whose executable segment claims more bytes than
 * DW_SFRAME_GEN_MAX_EXEC gets no table at once (every byte is visited: a
 * 2^63-byte segment was an endless loop, found by fuzz/sframe_gen_fuzz),
 * and a table that takes longer than its time bound is given up.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sframe/sframe_gen.h"
#include "util/clock.h"

#define LIBC	"/usr/lib/x86_64-linux-gnu/libc.so.6"

/* An x86-64 ET_DYN ELF header and one PT_LOAD R+X whose memory size is 2^63. */
static size_t huge_exec_elf(unsigned char *b)
{
	static const unsigned char ehdr[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	uint64_t phoff = 64, memsz = 1ULL << 63, filesz = 120, align = 0x1000;
	uint16_t type = 3, machine = 62, ehsize = 64, phentsize = 56, phnum = 1;
	uint32_t version = 1, pt_load = 1, flags = 5;

	memset(b, 0, 120);
	memcpy(b, ehdr, sizeof(ehdr));
	memcpy(b + 16, &type, 2);
	memcpy(b + 18, &machine, 2);
	memcpy(b + 20, &version, 4);
	memcpy(b + 32, &phoff, 8);
	memcpy(b + 52, &ehsize, 2);
	memcpy(b + 54, &phentsize, 2);
	memcpy(b + 56, &phnum, 2);
	memcpy(b + 64, &pt_load, 4);
	memcpy(b + 68, &flags, 4);
	memcpy(b + 64 + 32, &filesz, 8);
	memcpy(b + 64 + 40, &memsz, 8);
	memcpy(b + 64 + 48, &align, 8);
	return 120;
}

TEST(a_segment_claiming_more_than_the_bound_gets_no_table)
{
	char path[] = "/tmp/dw-gen-bounds-XXXXXX";
	struct dw_sframe_gen_result r;
	unsigned char elf[120];
	__u64 t0;
	int fd, err;

	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	ASSERT_EQ(120, write(fd, elf, huge_exec_elf(elf)));
	t0 = dw_now_ns();
	err = dw_sframe_gen_fd(fd, NULL, &r);
	close(fd);
	unlink(path);
	EXPECT_EQ(-EFBIG, err);
	EXPECT_EQ(NULL, r.table);
	EXPECT_GT(1000000000ULL, dw_now_ns() - t0);
}

TEST(a_generation_past_its_time_bound_is_given_up)
{
	struct dw_sframe_gen_opts o = { .version = 0, .max_ms = 1 };
	struct dw_sframe_gen_result r;

	if (access(LIBC, R_OK))
		SKIP(return, "no %s", LIBC);
	ASSERT_EQ(0, dw_sframe_gen(LIBC, NULL, &r));
	/* libc took that long without a bound: 1 ms is far less. */
	ASSERT_LT(5000000ULL, r.stats.gen_ns);
	dw_sframe_gen_free(&r);
	EXPECT_EQ(-ETIME, dw_sframe_gen(LIBC, &o, &r));
	EXPECT_EQ(NULL, r.table);
}

TEST_HARNESS_MAIN
