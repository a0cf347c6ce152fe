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

#include "tap.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "selfmap.h"

static char dir[] = "/tmp/dw_script_test.XXXXXX";
static char cap[128], ksyms[128], out[128], err[128];

/* pid_max is at most 4194304: this process can never be alive. */
#define GHOST	4194305U

static const char expected[] =
	":4194305 4194305/4194306 [001] 12345.678901: 1001001 cpu-clock:\n"
	"\tffffffff81000010 _stext+0x10 ([kernel.kallsyms])\n"
	"\tffffffff81000011 _stext+0x11 ([kernel.kallsyms])\n"
	"\t    555500001000 [unknown] ([unknown])\n"
	"\t    555500001001 [unknown] ([unknown])\n"
	"\t    555500001002 [unknown] ([unknown])\n"
	"\n"
	":4194305 4194305/4194307 [001] 12345.700000: 1001001 cpu-clock:\n"
	"\tffffffffc0001004 dunwind_handler+0x4 ([dunwind])\n"
	"\n"
	":4194305 4194305/4194306 [001] 12346.000001: 1001001 cpu-clock:\n"
	"\t    7fff00002000 [unknown] ([unknown])\n"
	"\t    7fff00002001 [unknown] ([unknown])\n"
	"\t               0 [truncated: fault] ([truncated])\n"
	"\n"
	":4194305 4194305/4194306 [001] 12347.000000: 1001001 cpu-clock:\n"
	"\t            1000 [unknown] ([kernel.kallsyms])\n"
	"\t               0 [truncated: lost] ([truncated])\n"
	"\n";

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static char *read_text(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

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

int main(void)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)GHOST, .sample_freq = 999 };
	struct dw_capture_writer w;
	union rec_buf b;
	char args[512], want[4200];
	static char self[4096];
	uint64_t start, end, pgoff;
	const char *o;
	int rc, n = 0;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	write_text(ksyms, "ffffffff81000000 T _stext\n"
			  "ffffffff81100000 T _etext\n"
			  "ffffffffc0001000 t dunwind_handler\t[dunwind]\n");

	dw_capture_create(&w, cap, &cfg);
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
	ok(n == 8 && dw_capture_close(&w) == 0, "write a synthetic capture");

	snprintf(args, sizeof(args), "script -i %s -k %s", cap, ksyms);
	rc = run(args);
	o = read_text(out);
	ok(rc == 0, "dunwind script exits 0 (%d)", rc);
	if (!ok(!strcmp(o, expected), "the stitched stacks are exactly as expected"))
		printf("# got:\n%s# end\n", o);
	o = read_text(err);
	ok(strstr(o, "4 samples: 2 with their user stack, 1 without a user part, "
		     "1 user stack missing") != NULL,
	   "the summary counts joined, no-user and missing samples");
	ok(strstr(o, "2 user stacks (0 orphan, 0 duplicate); lost 3 records (2 samples, "
		     "1 user stacks)") && strstr(o, "skipped 1 records of unknown type"),
	   "the summary counts lost and unknown records");

	/* A live process of ours: its user frames get names. */
	cfg.pid = getpid();
	dw_capture_create(&w, cap, &cfg);
	mk_stack(&b, 9, (__u32)getpid(), (__u32)getpid(), 1, 0, DUNWIND_STOP_END);
	b.stack.ips[0] = (uintptr_t)dw_script_test_leaf + 2;
	dw_capture_write(&w, &b.hdr);
	dw_capture_write(&w, mk_sample(&b, 9, 1000, (__u32)getpid(), (__u32)getpid(), 0, 0));
	dw_capture_close(&w);
	rc = run(args);
	o = read_text(out);
	snprintf(want, sizeof(want), " dw_script_test_leaf+0x2 (");
	ok(rc == 0 && strstr(o, want) && strstr(o, "/script_test)\n"),
	   "user frames of a live process are symbolised");
	if (!strstr(o, want))
		printf("# got:\n%s# end\n", o);

	/* The same capture from another boot: /proc says nothing about it. */
	{
		FILE *f = fopen(cap, "r+");
		int c;

		if (f && !fseek(f, 104, SEEK_SET) && (c = fgetc(f)) != EOF &&
		    !fseek(f, 104, SEEK_SET))
			fputc(c ^ 1, f);
		if (f)
			fclose(f);
		rc = run(args);
		o = read_text(out);
		ok(rc == 0 && !strstr(o, "dw_script_test_leaf") && strstr(o, "[unknown] ([unknown])"),
		   "another boot: live processes are not used to name frames");
		ok(strstr(read_text(err), "another boot") != NULL, "another boot: says so");
	}

	/* Names and mappings from COMM and MMAP records, for a process long gone. */
	if (find_self((uintptr_t)dw_script_test_leaf, &start, &end, &pgoff, self)) {
		const __u64 base = 0x3000000000ULL;

		cfg.pid = (int)GHOST;
		dw_capture_create(&w, cap, &cfg);
		dw_capture_write(&w, mk_comm(&b, GHOST, GHOST + 1, 5, "ghostly", 0));
		dw_capture_write(&w, mk_mmap(&b, GHOST, 6, base, base + (end - start), pgoff, self,
					     0));
		mk_stack(&b, 11, GHOST, GHOST + 1, 1, 0, DUNWIND_STOP_END);
		b.stack.ips[0] = base + ((uintptr_t)dw_script_test_leaf - start) + 2;
		b.stack.time = 8;
		dw_capture_write(&w, &b.hdr);
		dw_capture_write(&w, mk_sample(&b, 11, 7, GHOST, GHOST + 1, 0, 0));
		dw_capture_close(&w);
		rc = run(args);
		o = read_text(out);
		snprintf(want, sizeof(want), " dw_script_test_leaf+0x2 (%s)\n", self);
		ok(rc == 0 && !strncmp(o, "ghostly 4194305/4194306 ", 24),
		   "the thread's name comes from its COMM record");
		ok(strstr(o, want) != NULL, "user frames are symbolised from MMAP records");
		if (!strstr(o, want))
			printf("# got:\n%s# end\n", o);
	} else {
		tap_skip("MMAP symbols", "this program is not in /proc/self/maps");
	}

	/* Broken inputs: exit 1 with a reason. */
	if (truncate(cap, 100) == 0) {
		rc = run(args);
		ok(rc == 1 && strstr(read_text(err), "truncated"),
		   "a truncated capture: exit 1, says so");
	}
	snprintf(args, sizeof(args), "script -i %s/none", dir);
	rc = run(args);
	ok(rc == 1 && strstr(read_text(err), "no such file"), "a missing capture: exit 1, says so");
	rc = run("script --bogus");
	ok(rc == 2, "an unknown option: exit 2");

	unlink(cap);
	unlink(ksyms);
	unlink(out);
	unlink(err);
	rmdir(dir);
	return tap_done();
}
