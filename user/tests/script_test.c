// SPDX-License-Identifier: GPL-2.0
/*
 * 'dunwind script' end to end: write a synthetic capture and kallsyms
 * file, run the dunwind binary ($DUNWIND, default ../out/dunwind) on them and
 * compare its output with the stacks written by hand below.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "files.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "selfmap.h"

static char dir[] = "/tmp/dw_script_test.XXXXXX";
static char cap[128], ksyms[128], out[128], err[128];

/* pid_max is at most 4194304: this process can never be alive. */
#define GHOST	4194305U

static const char expected[] =
	":4194305 4194305/4194306 [001] 12345.678901:    1001001 cpu-clock: \n"
	"\tffffffff81000010 _stext+0x10 ([kernel.kallsyms])\n"
	"\tffffffff81000011 _stext+0x11 ([kernel.kallsyms])\n"
	"\t    555500001000 [unknown] ([unknown])\n"
	"\t    555500001001 [unknown] ([unknown])\n"
	"\t    555500001002 [unknown] ([unknown])\n"
	"\n"
	":4194305 4194305/4194307 [001] 12345.700000:    1001001 cpu-clock: \n"
	"\tffffffffc0001004 dunwind_handler+0x4 ([dunwind])\n"
	"\n"
	":4194305 4194305/4194306 [001] 12346.000001:    1001001 cpu-clock: \n"
	"\t    7fff00002000 [unknown] ([unknown])\n"
	"\t    7fff00002001 [unknown] ([unknown])\n"
	"\t               0 [truncated: fault] ([truncated])\n"
	"\n"
	":4194305 4194305/4194306 [001] 12347.000000:    1001001 cpu-clock: \n"
	"\t            1000 [unknown] ([kernel.kallsyms])\n"
	"\t               0 [truncated: lost] ([truncated])\n"
	"\n";

/* Run dunwind with @args; its exit status, or -1. */
static int run(const char *args)
{
	const char *bin = getenv("DUNWIND") ? getenv("DUNWIND") : "../out/dunwind";
	char cmd[1024];
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s >%s 2>%s", bin, args, out, err);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

__attribute__((noinline, used)) int dw_script_test_leaf(int x)
{
	return x + 1;
}

static struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)GHOST,
				     .sample_freq = 999 };

/* The synthetic capture of a gone process, and a kallsyms file. */
FIXTURE(script) {
	char args[512];
	int written;
};

FIXTURE_SETUP(script)
{
	struct dw_capture_writer w;
	union rec_buf b;
	int n = 0;

	strcpy(dir, "/tmp/dw_script_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	write_text(ksyms, "ffffffff81000000 T _stext\n"
			  "ffffffff81100000 T _etext\n"
			  "ffffffffc0001000 t dunwind_handler\t[dunwind]\n");
	cfg.pid = (int)GHOST;
	ASSERT_EQ(0, dw_capture_create(&w, cap, &cfg));
	n += !dw_capture_write(&w, mk_sample(&b, 5, 12345678901234ULL, GHOST, GHOST + 1, 2,
					     0xffffffff81000010ULL));
	n += !dw_capture_write(&w, mk_stack(&b, 6, GHOST, GHOST + 1, 2, 0x7fff00002000ULL,
					    DUNWIND_STOP_FAULT));
	n += !dw_capture_write(&w, mk_stack(&b, 5, GHOST, GHOST + 1, 3, 0x555500001000ULL,
					    DUNWIND_STOP_END));
	n += !dw_capture_write(&w, mk_sample(&b, 0, 12345700000000ULL, GHOST, GHOST + 2, 1,
					     0xffffffffc0001004ULL));
	n += !dw_capture_write(&w, mk_sample(&b, 6, 12346000001000ULL, GHOST, GHOST + 1, 0, 0));
	n += !dw_capture_write(&w, mk_sample(&b, 7, 12347000000000ULL, GHOST, GHOST + 1, 1,
					     0x1000));
	n += !dw_capture_write(&w, mk_lost(&b, 2, 1));
	n += !dw_capture_write(&w, mk_unknown(&b, 50, 24));
	self->written = n == 8 && dw_capture_close(&w) == 0;
	snprintf(self->args, sizeof(self->args), "script -i %s -k %s", cap, ksyms);
}

FIXTURE_TEARDOWN(script)
{
	unlink(cap);
	unlink(ksyms);
	unlink(out);
	unlink(err);
	rmdir(dir);
}

TEST_F(script, a_synthetic_capture_is_written)
{
	EXPECT_TRUE(self->written);
}

TEST_F(script, dunwind_script_exits_0)
{
	EXPECT_EQ(0, run(self->args));
}

TEST_F(script, the_stitched_stacks_are_exactly_as_expected)
{
	run(self->args);
	EXPECT_STREQ(expected, read_text(out));
}

TEST_F(script, the_summary_counts_joined_no_user_and_missing_samples)
{
	run(self->args);
	EXPECT_NE(NULL, strstr(read_text(err), "4 samples: 2 with their user stack, 1 without a "
				"user part, 1 user stack missing"));
}

TEST_F(script, the_summary_counts_lost_and_unknown_records)
{
	const char *o;

	run(self->args);
	o = read_text(err);
	EXPECT_NE(NULL, strstr(o, "2 user stacks (0 orphan, 0 duplicate); lost 3 records "
			       "(2 samples, 1 user stacks)"));
	EXPECT_NE(NULL, strstr(o, "skipped 1 records of unknown type"));
}

/* A capture of this live process: a sample and its one-frame user stack. */
static void capture_of_self(void)
{
	struct dw_capture_writer w;
	union rec_buf b;

	cfg.pid = getpid();
	dw_capture_create(&w, cap, &cfg);
	mk_stack(&b, 9, (__u32)getpid(), (__u32)getpid(), 1, 0, DUNWIND_STOP_END);
	b.stack.ips[0] = (uintptr_t)dw_script_test_leaf + 2;
	dw_capture_write(&w, &b.hdr);
	dw_capture_write(&w, mk_sample(&b, 9, 1000, (__u32)getpid(), (__u32)getpid(), 0, 0));
	dw_capture_close(&w);
}

TEST_F(script, user_frames_of_a_live_process_are_symbolised)
{
	const char *o;

	capture_of_self();
	EXPECT_EQ(0, run(self->args));
	o = read_text(out);
	EXPECT_NE(NULL, strstr(o, " dw_script_test_leaf+0x2 (")) TH_LOG("got:\n%s", o);
	EXPECT_NE(NULL, strstr(o, "/script_test)\n"));
}

/* The same capture from another boot: flip a bit of its boot id. */
static void from_another_boot(void)
{
	FILE *f;
	int c;

	capture_of_self();
	f = fopen(cap, "r+");
	if (f && !fseek(f, 104, SEEK_SET) && (c = fgetc(f)) != EOF && !fseek(f, 104, SEEK_SET))
		fputc(c ^ 1, f);
	if (f)
		fclose(f);
}

TEST_F(script, another_boot_live_processes_do_not_name_frames)
{
	const char *o;

	from_another_boot();
	EXPECT_EQ(0, run(self->args));
	o = read_text(out);
	EXPECT_EQ(NULL, strstr(o, "dw_script_test_leaf"));
	EXPECT_NE(NULL, strstr(o, "[unknown] ([unknown])"));
}

TEST_F(script, another_boot_says_so)
{
	from_another_boot();
	run(self->args);
	EXPECT_NE(NULL, strstr(read_text(err), "another boot"));
}

/* Names and mappings from COMM and MMAP records, for a process long gone. */
static int capture_of_ghost(char *image, size_t len)
{
	const __u64 base = 0x3000000000ULL;
	uint64_t start, end, pgoff;
	struct dw_capture_writer w;
	static char self_path[4096];
	union rec_buf b;

	if (!find_self((uintptr_t)dw_script_test_leaf, &start, &end, &pgoff, self_path))
		return -1;
	snprintf(image, len, "%s", self_path);
	cfg.pid = (int)GHOST;
	dw_capture_create(&w, cap, &cfg);
	dw_capture_write(&w, mk_comm(&b, GHOST, GHOST + 1, 5, "ghostly", 0));
	dw_capture_write(&w, mk_mmap(&b, GHOST, 6, base, base + (end - start), pgoff, self_path,
				     0));
	mk_stack(&b, 11, GHOST, GHOST + 1, 1, 0, DUNWIND_STOP_END);
	b.stack.ips[0] = base + ((uintptr_t)dw_script_test_leaf - start) + 2;
	b.stack.time = 8;
	dw_capture_write(&w, &b.hdr);
	dw_capture_write(&w, mk_sample(&b, 11, 7, GHOST, GHOST + 1, 0, 0));
	return dw_capture_close(&w);
}

TEST_F(script, the_threads_name_comes_from_its_comm_record)
{
	char image[4096];

	if (capture_of_ghost(image, sizeof(image)))
		SKIP(return, "this program is not in /proc/self/maps");
	EXPECT_EQ(0, run(self->args));
	EXPECT_EQ(0, strncmp(read_text(out), "ghostly 4194305/4194306 ", 24));
}

TEST_F(script, user_frames_are_symbolised_from_mmap_records)
{
	char image[4096], want[4200];
	const char *o;

	if (capture_of_ghost(image, sizeof(image)))
		SKIP(return, "this program is not in /proc/self/maps");
	run(self->args);
	o = read_text(out);
	snprintf(want, sizeof(want), " dw_script_test_leaf+0x2 (%s)\n", image);
	EXPECT_NE(NULL, strstr(o, want)) TH_LOG("got:\n%s", o);
}

/* Broken inputs: exit 1 with a reason. */
/* One user-mode sample of GHOST as a SAMPLE and a USER_STACK, or as a SAMPLE_STACK. */
static int capture_of_one_sample(int combined)
{
	static const __u64 ips[] = { 0x555500001000ULL, 0x555500001234ULL, 0x7fff00002000ULL };
	struct dw_capture_writer w;
	struct dunwind_rec_sample *s;
	union rec_buf b;
	int bad = 0;

	cfg.flags = combined ? DUNWIND_CFG_SAMPLE_STACK : 0;
	if (dw_capture_create(&w, cap, &cfg))
		return -1;
	if (combined) {
		bad |= dw_capture_write(&w, mk_sample_stack(&b, 9, 12345678901234ULL, GHOST,
							    GHOST + 1, ips, 3));
	} else {
		s = (void *)mk_sample(&b, 9, 12345678901234ULL, GHOST, GHOST + 1, 0, 0);
		s->flags = DUNWIND_SAMPLE_USER_MODE;
		s->user_ip = ips[0];
		bad |= dw_capture_write(&w, &s->hdr);
		mk_stack(&b, 9, GHOST, GHOST + 1, 3, 0, DUNWIND_STOP_END);
		memcpy(b.stack.ips, ips, sizeof(ips));
		bad |= dw_capture_write(&w, &b.hdr);
	}
	cfg.flags = 0;
	return dw_capture_close(&w) || bad ? -1 : 0;
}

TEST_F(script, a_sample_stack_prints_as_its_sample_and_user_stack_would)
{
	char two[4096];

	ASSERT_EQ(0, capture_of_one_sample(0));
	ASSERT_EQ(0, run(self->args));
	snprintf(two, sizeof(two), "%s", read_text(out));
	ASSERT_EQ(0, capture_of_one_sample(1));
	ASSERT_EQ(0, run(self->args));
	EXPECT_STREQ(two, read_text(out));
	EXPECT_NE(NULL, strstr(two, "555500001234")) TH_LOG("%s", two);
}

TEST_F(script, a_truncated_capture_exits_1_and_says_so)
{
	ASSERT_EQ(0, truncate(cap, 100));
	EXPECT_EQ(1, run(self->args));
	EXPECT_NE(NULL, strstr(read_text(err), "truncated"));
}

TEST_F(script, a_missing_capture_exits_1_and_says_so)
{
	char args[512];

	snprintf(args, sizeof(args), "script -i %s/none", dir);
	EXPECT_EQ(1, run(args));
	EXPECT_NE(NULL, strstr(read_text(err), "no such file"));
}

TEST_F(script, an_unknown_option_exits_2)
{
	EXPECT_EQ(2, run("script --bogus"));
}

TEST_HARNESS_MAIN
