// SPDX-License-Identifier: GPL-2.0
/*
 * zstd-compressed captures (record -z): the records come back byte for byte
 * as an uncompressed capture holds them, and hostile files (every
 * truncation, every byte flipped, hand-made damage) are refused with a
 * reason or read as whole records.  Built with ASan + UBSan.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "capture_check.h"

#define NREC		200
#define FLUSH_EVERY	25
#define NFLUSH		(NREC / FLUSH_EVERY)

static char dir[] = "/tmp/dw_capture_zstd_test.XXXXXX";
static char zpath[128], ppath[128];

static const struct dunwind_config cfg = { .size = sizeof(cfg), .pid = 4343,
					   .sample_freq = 999, .max_user_frames = 64,
					   .ring_pages = 16 };

/* Record @i: samples and their stacks, alike as a profile's are. */
static const struct dunwind_rec_header *mk_rec(union rec_buf *b, int i)
{
	__u64 cookie = (__u64)i / 2 + 1;

	if (i % 2 == 0)
		return mk_sample(b, cookie, (__u64)i * 1001001, 100, 101, (__u32)i % 3,
				 0xffffffff81000000ULL + (__u64)(i % 7));
	return mk_stack(b, cookie, 100, 101, 5 + (__u32)i % 4, 0x555500001000ULL,
			DUNWIND_STOP_END);
}

/* Write the records to @path, compressed at @level (0: not), flushing now and then. */
static int write_capture(const char *path, int level, __u64 *zflush)
{
	struct dw_capture_writer w;
	union rec_buf b;
	int i, err;

	err = dw_capture_create(&w, path, &cfg);
	if (!err && level)
		err = dw_capture_compress(&w, level);
	for (i = 0; !err && i < NREC; i++) {
		err = dw_capture_write(&w, mk_rec(&b, i));
		if (!err && (i + 1) % FLUSH_EVERY == 0) {
			err = dw_capture_flush(&w);
			if (zflush)
				zflush[i / FLUSH_EVERY] = w.hdr.record_bytes;
		}
	}
	i = dw_capture_close(&w);
	return err ? err : i;
}

/* The same records written compressed (level 3) and as they are. */
FIXTURE(zcap) {
	unsigned char *buf, *copy, *plain;
	size_t len, plain_len;
	__u64 zflush[NFLUSH];	/* compressed bytes after each flush */
};

FIXTURE_SETUP(zcap)
{
	strcpy(dir, "/tmp/dw_capture_zstd_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(zpath, sizeof(zpath), "%s/z", dir);
	snprintf(ppath, sizeof(ppath), "%s/plain", dir);
	ASSERT_EQ(0, write_capture(zpath, 3, self->zflush));
	ASSERT_EQ(0, write_capture(ppath, 0, NULL));
	self->buf = slurp(zpath, &self->len);
	self->plain = slurp(ppath, &self->plain_len);
	self->copy = malloc(self->len + 64);
	ASSERT_NE(NULL, self->buf);
	ASSERT_NE(NULL, self->plain);
	ASSERT_NE(NULL, self->copy);
	memcpy(self->copy, self->buf, self->len);
}

FIXTURE_TEARDOWN(zcap)
{
	free(self->buf);
	free(self->copy);
	free(self->plain);
	unlink(zpath);
	unlink(ppath);
	rmdir(dir);
}

#define H ((struct dw_capture_header *)self->copy)

TEST_F(zcap, is_version_3_marked_zstd)
{
	struct dw_capture_reader r;

	ASSERT_EQ(0, dw_capture_open(&r, zpath));	/* says why not */
	EXPECT_EQ(3u, r.hdr.version);
	EXPECT_EQ((__u32)DW_CAPTURE_ZSTD, r.hdr.compression);
	EXPECT_EQ((__u64)NREC, r.hdr.record_count);
	EXPECT_EQ((__u64)self->len - 128, r.hdr.record_bytes);
	dw_capture_release(&r);
}

TEST_F(zcap, decompresses_to_the_records_of_the_uncompressed_capture)
{
	struct dw_capture_reader r;

	ASSERT_EQ(0, dw_capture_open(&r, zpath));	/* says why not */
	ASSERT_EQ((__u64)self->plain_len - 128, r.len);
	EXPECT_EQ(0, memcmp(r.data, self->plain + 128, r.len));
	dw_capture_release(&r);
}

TEST_F(zcap, is_smaller_than_the_uncompressed_capture)
{
	EXPECT_LT(self->len, self->plain_len);
}

/*
 * Every truncation (an exactly sized buffer, for ASan): inside the header
 * refused; after it read as cut short, with at least the records flushed
 * before the cut.
 */
TEST_F(zcap, every_truncation_reads_at_least_the_records_flushed_before_it)
{
	size_t i, wrong = 0;
	int bad = 0;

	for (i = 0; i < self->len; i++) {
		unsigned char *t = malloc(i ? i : 1);
		struct dw_capture_reader tr;
		int n, k, flushed = 0;

		ASSERT_NE(NULL, t);
		memcpy(t, self->buf, i);
		for (k = 0; k < NFLUSH; k++)
			if (i >= 128 + self->zflush[k])
				flushed = (k + 1) * FLUSH_EVERY;
		n = parse_count(t, i, &bad, &tr);
		if (i < 128 ? n >= 0 : n < flushed || !tr.cut || !strstr(said, "cut short"))
			wrong++;
		dw_capture_release(&tr);
		free(t);
	}
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(0, bad);
}

TEST_F(zcap, every_byte_flip_is_refused_with_a_reason_or_well_formed)
{
	static const unsigned char masks[] = { 0x01, 0x80, 0xff };
	size_t i, m;
	int bad = 0;

	for (i = 0; i < self->len; i++) {
		for (m = 0; m < sizeof(masks); m++) {
			memcpy(self->copy, self->buf, self->len);
			self->copy[i] ^= masks[m];
			parse_count(self->copy, self->len, &bad, NULL);
		}
	}
	EXPECT_EQ(0, bad);
}

TEST_F(zcap, a_flip_in_the_last_block_is_caught_by_the_checksum)
{
	self->copy[self->len - 8] ^= 0x01;
	EXPECT_TRUE(expect_error(self->copy, self->len, "damaged"));
}

TEST_F(zcap, a_whole_capture_whose_stream_ends_inside_a_frame_is_damaged)
{
	H->record_bytes -= 3;
	EXPECT_TRUE(expect_error(self->copy, self->len - 3, "damaged"));
}

TEST_F(zcap, bytes_after_the_stream_are_refused)
{
	memset(self->copy + self->len, 0, 8);
	H->record_bytes += 8;
	EXPECT_TRUE(expect_error(self->copy, self->len + 8, "damaged"));
}

TEST_F(zcap, an_unknown_compression_is_refused)
{
	H->compression = 2;
	EXPECT_TRUE(expect_error(self->copy, self->len, "unknown compression"));
}

TEST_F(zcap, compression_in_a_version_2_capture_is_refused)
{
	H->version = 2;
	EXPECT_TRUE(expect_error(self->copy, self->len, "unknown compression"));
}

TEST_F(zcap, an_unfinished_capture_reads_every_record)
{
	struct dw_capture_reader r;
	int bad = 0;

	H->record_bytes = 0;
	H->record_count = 0;
	EXPECT_EQ(NREC, parse_count(self->copy, self->len, &bad, &r)) TH_LOG("%s", said);
	EXPECT_TRUE(r.cut);
	EXPECT_EQ(0, r.missing);
	dw_capture_release(&r);
}

TEST_F(zcap, a_capture_never_closed_reads_its_flushed_records)
{
	struct dw_capture_writer w;
	struct dw_capture_reader r;
	union rec_buf b;
	int i, n = 0;

	ASSERT_EQ(0, dw_capture_create(&w, zpath, &cfg));
	ASSERT_EQ(0, dw_capture_compress(&w, 1));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, dw_capture_write(&w, mk_rec(&b, i)));
	ASSERT_EQ(0, dw_capture_flush(&w));
	ASSERT_EQ(0, dw_capture_open(&r, zpath));	/* says why not */
	EXPECT_TRUE(r.cut);
	while (dw_capture_next(&r))
		n++;
	EXPECT_EQ(3, n);
	dw_capture_release(&r);
	dw_capture_close(&w);
}

TEST_F(zcap, compress_after_a_record_is_ebusy)
{
	struct dw_capture_writer w;
	union rec_buf b;

	ASSERT_EQ(0, dw_capture_create(&w, zpath, &cfg));
	ASSERT_EQ(0, dw_capture_write(&w, mk_rec(&b, 0)));
	EXPECT_EQ(-EBUSY, dw_capture_compress(&w, 1));
	dw_capture_close(&w);
}

TEST_F(zcap, a_level_out_of_range_is_einval)
{
	struct dw_capture_writer w;

	ASSERT_EQ(0, dw_capture_create(&w, zpath, &cfg));
	EXPECT_EQ(-EINVAL, dw_capture_compress(&w, 0));
	EXPECT_EQ(-EINVAL, dw_capture_compress(&w, 99));
	dw_capture_close(&w);
}

TEST_HARNESS_MAIN
