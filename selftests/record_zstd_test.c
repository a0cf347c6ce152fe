// SPDX-License-Identifier: GPL-2.0
/*
 * record_zstd_test: 'dunwind record -z' as a user runs it.  The capture is
 * version 4, packed and zstd-compressed; report and script read it exactly
 * as its decompressed and unpacked copy (written here through the
 * library); a capture cut short is read up to the cut and a damaged one
 * refused with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "capture/capture.h"
#include "capture/usnap.h"

#define TOP	"/tmp/dw-zstd"
#define ZCAP	TOP "/z/capture"	/* the same name in both directories: */
#define PCAP	TOP "/p/capture"	/* reports print it */
#define LOOP	"sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'"

static int sh(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The whole text of @path (NUL-ended), or NULL; free() it. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			char *p = realloc(buf, cap = cap * 2 + 8192);

			if (!p)
				break;
			buf = p;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Write @src's records, decompressed and unpacked, to @dst with the same header fields. */
static int decompressed_copy(const char *src, const char *dst)
{
	const struct dunwind_rec_header *rec;
	struct dw_capture_writer w;
	struct dw_capture_reader r;
	int err = dw_capture_open(&r, src);

	if (err)
		return err;
	err = dw_capture_create(&w, dst, NULL);
	if (!err) {
		w.hdr = r.hdr;
		w.hdr.version = 2;
		w.hdr.compression = 0;
		w.hdr.features = 0;
		w.hdr.record_bytes = 0;
		w.hdr.record_count = 0;
		while (!err && (rec = dw_capture_next_any(&r)))
			err = dw_capture_write(&w, rec);
		err = dw_capture_close(&w) ? -1 : err;
	}
	dw_capture_release(&r);
	return err;
}

FIXTURE(zrec) {
	int recorded;
};

FIXTURE_SETUP(zrec)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: the module is not loaded", DUNWIND_DEVICE);
	if (sh("command -v dunwind >/dev/null 2>&1"))
		SKIP(return, "no dunwind in PATH (tools/vm/run adds out/dunwind)");
	ASSERT_EQ(0, sh("rm -rf " TOP " && mkdir -p " TOP "/z " TOP "/p"));
	self->recorded = sh("dunwind record -z3 -F 999 -o " ZCAP " -- " LOOP
			    " 2>" TOP "/record.err");
	ASSERT_EQ(0, self->recorded);
}

FIXTURE_TEARDOWN(zrec)
{
	sh("rm -rf " TOP);
}

TEST_F_TIMEOUT(zrec, writes_a_version_4_packed_zstd_capture_with_samples, 120)
{
	struct dw_capture_reader r;
	const struct dunwind_rec_header *h;
	int samples = 0;

	ASSERT_EQ(0, dw_capture_open(&r, ZCAP));	/* says why not */
	EXPECT_EQ(4u, r.hdr.version);
	EXPECT_EQ((__u32)DW_CAPTURE_ZSTD, r.hdr.compression);
	EXPECT_EQ(DW_CAPTURE_PACKED, r.hdr.features);
	EXPECT_LT(0, r.packs);
	while ((h = dw_capture_next(&r)))
		samples += h->type == DUNWIND_REC_SAMPLE_STACK || h->type == DUNWIND_REC_SAMPLE;
	dw_capture_release(&r);
	EXPECT_LT(0, samples);
}

TEST_F_TIMEOUT(zrec, the_summary_gives_the_compression, 120)
{
	char *err = slurp(TOP "/record.err", NULL);

	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "zstd-compressed from")) TH_LOG("%s", err);
	free(err);
}

/* The recorder reads its capture back for the snapshots' addresses. */
TEST_F_TIMEOUT(zrec, the_symbol_snapshots_are_made_from_the_compressed_records, 120)
{
	const struct dunwind_rec_header *h;
	struct dw_capture_reader r;
	char *err = slurp(TOP "/record.err", NULL);
	int usyms = 0;

	ASSERT_NE(NULL, err);
	EXPECT_EQ(NULL, strstr(err, "back for its symbols")) TH_LOG("%s", err);
	free(err);
	ASSERT_EQ(0, dw_capture_open(&r, ZCAP));	/* says why not */
	while ((h = dw_capture_next_any(&r)))
		usyms += h->type == DW_REC_USYMS;
	dw_capture_release(&r);
	EXPECT_LT(0, usyms);
}

TEST_F_TIMEOUT(zrec, report_and_script_read_it_as_its_decompressed_copy, 120)
{
	static const char *const cmds[] = { "report", "script", "report --folded" };
	char cmd[256];
	size_t i;

	ASSERT_EQ(0, decompressed_copy(ZCAP, PCAP));
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *z, *p;

		snprintf(cmd, sizeof(cmd), "cd " TOP "/z && dunwind %s -i capture >out 2>&1",
			 cmds[i]);
		ASSERT_EQ(0, sh(cmd));
		snprintf(cmd, sizeof(cmd), "cd " TOP "/p && dunwind %s -i capture >out 2>&1",
			 cmds[i]);
		ASSERT_EQ(0, sh(cmd));
		z = slurp(TOP "/z/out", NULL);
		p = slurp(TOP "/p/out", NULL);
		ASSERT_NE(NULL, z);
		ASSERT_NE(NULL, p);
		EXPECT_LT(0, (int)strlen(z));
		EXPECT_STREQ(p, z) TH_LOG("dunwind %s differs", cmds[i]);
		free(z);
		free(p);
	}
}

TEST_F_TIMEOUT(zrec, is_smaller_than_its_decompressed_copy, 120)
{
	struct stat zs, ps;

	ASSERT_EQ(0, decompressed_copy(ZCAP, PCAP));
	ASSERT_EQ(0, stat(ZCAP, &zs));
	ASSERT_EQ(0, stat(PCAP, &ps));
	EXPECT_LT(zs.st_size, ps.st_size);
}

TEST_F_TIMEOUT(zrec, a_copy_cut_in_half_is_read_up_to_the_cut, 120)
{
	struct stat st;
	char cmd[256];
	char *err;

	ASSERT_EQ(0, stat(ZCAP, &st));
	ASSERT_EQ(0, truncate(ZCAP, st.st_size / 2));
	ASSERT_EQ(0, sh("dunwind report -i " ZCAP " >/dev/null 2>" TOP "/report.err"));
	err = slurp(TOP "/report.err", NULL);
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "cut short")) TH_LOG("%s", err);
	free(err);
	snprintf(cmd, sizeof(cmd), "dunwind script -i %s >/dev/null 2>&1", ZCAP);
	EXPECT_EQ(0, sh(cmd));
}

TEST_F_TIMEOUT(zrec, a_damaged_stream_is_refused_with_a_reason, 120)
{
	size_t len;
	char *buf = slurp(ZCAP, &len), *err;
	FILE *f;

	ASSERT_NE(NULL, buf);
	ASSERT_LT(200, (int)len);
	buf[len - 12] ^= 0x5a;		/* the last block: the checksum disagrees */
	f = fopen(ZCAP, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fwrite(buf, len, 1, f));
	fclose(f);
	free(buf);
	EXPECT_EQ(1, sh("dunwind report -i " ZCAP " >/dev/null 2>" TOP "/report.err"));
	err = slurp(TOP "/report.err", NULL);
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "damaged")) TH_LOG("%s", err);
	free(err);
}

TEST_HARNESS_MAIN
