// SPDX-License-Identifier: GPL-2.0
/*
 * dw_prof_load() and every output on hostile captures: a small capture
 * (kernel symbol snapshot, COMM, MMAP, samples, stacks) is truncated at
 * every record boundary and has every byte flipped three ways; each
 * variant must either be refused with a message or load and go through
 * every output without a sanitizer report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "output/flamegraph.h"
#include "output/folded.h"
#include "capture/ksnap.h"
#include "output/pprof.h"
#include "analyze/profile.h"
#include "output/report.h"
#include "output/speedscope.h"

#define G	4194501U

static char dir[] = "/tmp/dw_profile_test.XXXXXX";
static char cap[128], var[128];

static int write_text(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* Load @path and run every output into /dev/null. 1 loaded, 0 refused, -1 bad. */
static int exercise(const char *path, FILE *null)
{
	struct dw_prof_opts o = { .user_symbols = 1, .src = 1, .inline_frames = 1, .quiet = 1 };
	struct dw_report_opts ro = { .input = path, .percent_limit = 0 };
	struct dw_flamegraph_opts fo = { .title = "t" };
	struct dw_prof *p;
	char err[512] = "";
	int e = dw_prof_load(&p, path, &o, err, sizeof(err));

	if (e)
		return err[0] ? 0 : -1;
	dw_report_write(null, p, &ro);
	dw_folded_write(null, p, 1);
	dw_flamegraph_write(null, p, &fo);
	dw_speedscope_write(null, p, "x", 1);
	dw_pprof_write(null, p, 1, 0);
	dw_prof_free(p);
	return 1;
}

int main(void)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = (int)G, .sample_freq = 99 };
	struct dw_capture_writer w;
	union rec_buf b;
	char ks[160], pm[64];
	unsigned char *file;
	long len;
	size_t i, loaded = 0, refused = 0, bad = 0, cuts = 0;
	FILE *f, *null = fopen("/dev/null", "w");
	int k;

	if (!mkdtemp(dir) || !null)
		return 1;
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(var, sizeof(var), "%s/variant", dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(pm, sizeof(pm), "/tmp/perf-%u.map", G);
	write_text(ks, "ffffffff81000000 T a_fn\nffffffff81001000 t b_fn\t[m]\n", 50);
	write_text(pm, "7f0000001000 100 jit_leaf\n7f0000002000 100 jit_main\n", 50);
	dw_capture_create(&w, cap, &cfg);
	dw_ksnap_write(&w, ks, NULL);
	dw_capture_write(&w, mk_comm(&b, G, G, 1, "victim", 0));
	dw_capture_write(&w, mk_mmap(&b, G, 2, 0x7f0000000000ULL, 0x7f0000010000ULL, 0, "//anon",
				     0));
	dw_capture_write(&w, mk_mmap(&b, G, 2, 0x5500000000ULL, 0x5500010000ULL, 0,
				     "/nonexistent/lib.so", 1));
	dw_capture_write(&w, mk_sample(&b, 1, 10, G, G, 2, 0xffffffff81000010ULL));
	dw_capture_write(&w, mk_stack(&b, 1, G, G, 3, 0x7f0000001010ULL, DUNWIND_STOP_END));
	dw_capture_write(&w, mk_sample(&b, 2, 11, G, G, 0, 0));
	dw_capture_write(&w, mk_stack(&b, 2, G, G, 2, 0x5500000100ULL, DUNWIND_STOP_FAULT));
	dw_capture_write(&w, mk_sample(&b, 3, 12, G, G, 1, 0xffffffff81001004ULL));
	dw_capture_write(&w, mk_lost(&b, 1, 1));
	ok(dw_capture_close(&w) == 0, "write a small capture");

	f = fopen(cap, "rb");
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	file = malloc((size_t)len);
	ok(file && fread(file, 1, (size_t)len, f) == (size_t)len, "read it (%ld bytes)", len);
	fclose(f);
	ok(exercise(cap, null) == 1, "the intact capture loads and goes through every output");

	for (i = 0; i < (size_t)len; i += 8) {	/* records start 8-aligned */
		write_text(var, file, i);
		k = exercise(var, null);
		cuts++;
		if (k < 0)
			bad++;
	}
	ok(bad == 0, "%zu truncations: every one refused with a reason or loaded", cuts);
	for (i = 0; i < (size_t)len; i++) {
		static const unsigned char flips[] = { 0x01, 0x80, 0xff };

		for (k = 0; k < 3; k++) {
			int r;

			file[i] ^= flips[k];
			write_text(var, file, (size_t)len);
			r = exercise(var, null);
			file[i] ^= flips[k];
			if (r < 0)
				bad++;
			else if (r)
				loaded++;
			else
				refused++;
		}
	}
	ok(bad == 0, "%ld x 3 byte flips: %zu refused with a reason, %zu loaded and printed",
	   len, refused, loaded);
	free(file);
	fclose(null);
	unlink(pm);
	unlink(cap);
	unlink(var);
	unlink(ks);
	rmdir(dir);
	return tap_done();
}
