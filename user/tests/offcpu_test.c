// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU samples (DUNWIND_SAMPLE_OFF_CPU) in the outputs, end to end: a
 * synthetic capture with on-CPU and off-CPU samples, run through the
 * dunwind binary ($DUNWIND, default ./dunwind): script names them
 * offcpu-time with their time off CPU as period, report shows the two
 * apart and --event keeps one kind, the flame graph draws off-CPU-only
 * frames in blue, and a sample still blocked at the end without its user
 * stack is marked so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "files.h"
#include "mkrec.h"
#include "capture/capture.h"

static char dir[32];
static char cap[128], ksyms[128], out[128], err[128];

/* pid_max is at most 4194304: this process can never be alive. */
#define GHOST	4194305U
#define K_ON	0xffffffff81000010ULL	/* in on_cpu_work */
#define K_OFF	0xffffffff81001010ULL	/* in schedule_block */

static int run(const char *fmt, const char *extra)
{
	const char *bin = getenv("DUNWIND") ? getenv("DUNWIND") : "../out/dunwind";
	char cmd[2048], args[512];
	int st;

	snprintf(args, sizeof(args), fmt, extra);
	snprintf(cmd, sizeof(cmd), "%s %s -i %s -k %s >%s 2>%s", bin, args, cap, ksyms, out, err);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Sample @cookie at @time: kernel IP @kip, @flags, @period. */
static int put_sample(struct dw_capture_writer *w, union rec_buf *b, __u64 cookie, __u64 time,
		      __u64 kip, __u32 flags, __u64 period)
{
	mk_sample(b, cookie, time, GHOST, GHOST + 1, 1, kip);
	b->sample.flags = flags;
	b->sample.period = period;
	return dw_capture_write(w, &b->hdr);
}

/* The fill of the flame graph frame named @name: its blue minus its red. */
static int blueness(const char *svg, const char *name)
{
	char key[128];
	const char *p;
	unsigned int r, g, bl;

	snprintf(key, sizeof(key), "data-name=\"%s\"", name);
	p = strstr(svg, key);
	if (!p || !(p = strstr(p, "data-fill=\"rgb(")) ||
	    sscanf(p, "data-fill=\"rgb(%u,%u,%u)", &r, &g, &bl) != 3)
		return -1000;
	return (int)bl - (int)r;
}

/* The capture: two on-CPU samples, one off-CPU (joined), one open without its stack. */
FIXTURE(offcpu) {
	int unused;
};

FIXTURE_SETUP(offcpu)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)GHOST, .sample_freq = 999 };
	struct dw_capture_writer w;
	union rec_buf b;
	int n = 0;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(strcpy(dir, "/tmp/dw_offcpu_test.XXXXXX")));
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	f = fopen(ksyms, "w");
	ASSERT_NE(NULL, f);
	fputs("ffffffff81000000 T on_cpu_work\nffffffff81001000 T schedule_block\n"
	      "ffffffff81100000 T _etext\n", f);
	fclose(f);
	ASSERT_EQ(0, dw_capture_create(&w, cap, &cfg));
	n += !put_sample(&w, &b, 1, 1000000000ULL, K_ON, 0, 1001001);
	n += !dw_capture_write(&w, mk_stack(&b, 1, GHOST, GHOST + 1, 2, 0x555500001000ULL,
					    DUNWIND_STOP_END));
	n += !put_sample(&w, &b, 2, 2000000000ULL, K_ON, 0, 1001001);
	n += !put_sample(&w, &b, 3, 3000000000ULL, K_OFF, DUNWIND_SAMPLE_OFF_CPU, 250000000);
	n += !dw_capture_write(&w, mk_stack(&b, 3, GHOST, GHOST + 1, 2, 0x555500002000ULL,
					    DUNWIND_STOP_END));
	n += !put_sample(&w, &b, 4, 4000000000ULL, K_OFF,
			 DUNWIND_SAMPLE_OFF_CPU | DUNWIND_SAMPLE_OFF_CPU_OPEN, 50000000);
	ASSERT_EQ(6, n);
	ASSERT_EQ(0, dw_capture_close(&w));
}

FIXTURE_TEARDOWN(offcpu)
{
	unlink(cap);
	unlink(ksyms);
	unlink(out);
	unlink(err);
	rmdir(dir);
}

/* script: an off-CPU sample is offcpu-time, its period the ns off CPU. */
TEST_F(offcpu, script_names_offcpu_time_with_ns_blocked)
{
	ASSERT_EQ(0, run("script", ""));
	EXPECT_NE(NULL, strstr(read_text(out), "3.000000:  250000000 offcpu-time: \n"));
}

/* script: on-CPU samples keep the capture's event. */
TEST_F(offcpu, script_keeps_the_event_of_on_cpu_samples)
{
	ASSERT_EQ(0, run("script", ""));
	EXPECT_NE(NULL, strstr(read_text(out), "1.000000:    1001001 cpu-clock: \n"));
}

/* Still blocked at the end, without a user stack: marked so. */
TEST_F(offcpu, open_sample_without_stack_is_marked)
{
	ASSERT_EQ(0, run("script", ""));
	EXPECT_NE(NULL, strstr(read_text(out), "4.000000:   50000000 offcpu-time: \n"
		"\tffffffff81001010 schedule_block+0x10 ([kernel.kallsyms])\n"
		"\t               0 [truncated: blocked at the end] ([truncated])\n"));
}

/* report: on-CPU and off-CPU in two parts, each with its own functions. */
TEST_F(offcpu, report_shows_on_and_off_cpu_apart)
{
	const char *o, *off;

	ASSERT_EQ(0, run("report --no-tree%s", ""));
	o = read_text(out);
	off = strstr(o, "# Off-CPU: time blocked, offcpu-time samples");
	ASSERT_NE(NULL, off);
	EXPECT_NE(NULL, strstr(o, "# On-CPU: cpu-clock samples"));
	EXPECT_NE(NULL, strstr(off, "schedule_block"));
	EXPECT_EQ(NULL, strstr(off, "on_cpu_work"));
	EXPECT_TRUE(strstr(o, "on_cpu_work") && strstr(o, "on_cpu_work") < off);
}

/* report: the off-CPU part sums the time blocked and counts the open sample. */
TEST_F(offcpu, report_sums_the_time_blocked)
{
	ASSERT_EQ(0, run("report --no-tree%s", ""));
	EXPECT_NE(NULL, strstr(read_text(out), "# off-CPU: 2 of them (offcpu-time), 300.000 ms "
				"blocked; 1 still blocked at the end"));
}

/* --event offcpu-time keeps only off-CPU samples, --event cpu-clock the others. */
TEST_F(offcpu, event_selects_one_kind)
{
	const char *o;

	ASSERT_EQ(0, run("report --folded --event %s", "offcpu-time"));
	o = read_text(out);
	EXPECT_NE(NULL, strstr(o, "schedule_block"));
	EXPECT_EQ(NULL, strstr(o, "on_cpu_work"));
	ASSERT_EQ(0, run("report --folded --event %s", "cpu-clock"));
	o = read_text(out);
	EXPECT_EQ(NULL, strstr(o, "schedule_block"));
	EXPECT_NE(NULL, strstr(o, "on_cpu_work"));
}

/* An unknown --event is a usage error that lists the names. */
TEST_F(offcpu, unknown_event_is_a_usage_error)
{
	EXPECT_EQ(2, run("report --event %s", "bogus"));
	EXPECT_NE(NULL, strstr(read_text(err), "offcpu-time"));
}

/* The flame graph draws off-CPU-only frames in blue, on-CPU ones not. */
TEST_F(offcpu, flamegraph_draws_off_cpu_in_blue)
{
	const char *o;

	ASSERT_EQ(0, run("flamegraph -o -%s", ""));
	o = read_text(out);
	EXPECT_GT(blueness(o, "schedule_block"), 0);
	EXPECT_LT(blueness(o, "on_cpu_work"), 0);
}

/*
 * report --format perf: two attributes, the second named offcpu-time
 * (HEADER_EVENT_DESC), so that perf shows off-CPU samples apart; its id
 * starts the off-CPU samples (PERF_SAMPLE_IDENTIFIER).
 */
TEST_F(offcpu, perf_data_has_an_offcpu_time_event)
{
	char pd[176], arg[200];
	unsigned char buf[1 << 16];
	unsigned long long attr_size, attrs_size;
	size_t n, i, found = 0;
	FILE *f;

	snprintf(pd, sizeof(pd), "%s/perf.data", dir);
	snprintf(arg, sizeof(arg), "report --format perf -o %s", pd);
	ASSERT_EQ(0, run("%s", arg));
	f = fopen(pd, "rb");
	ASSERT_NE(NULL, f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	unlink(pd);
	strcat(pd, ".kallsyms");	/* written beside it */
	unlink(pd);
	ASSERT_LT(104, n);
	memcpy(&attr_size, buf + 16, 8);
	memcpy(&attrs_size, buf + 32, 8);
	EXPECT_EQ(2 * attr_size, attrs_size);
	for (i = 0; i + 12 <= n; i++)
		found += !memcmp(buf + i, "offcpu-time", 12);
	EXPECT_EQ(1, found);
}

TEST_HARNESS_MAIN
