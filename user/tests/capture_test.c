// SPDX-License-Identifier: GPL-2.0
/*
 * Capture files: write/read round trip, and hostile files: every
 * truncation, every byte flipped, and hand-made header and record damage.
 * Built with ASan + UBSan: the reader must refuse bad input cleanly.
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

#define NREC	40

static char dir[] = "/tmp/dw_capture_test.XXXXXX";
static char path[128];

static const struct dunwind_rec_header *mk_nth(union rec_buf *b, int i)
{
	switch (i % 5) {
	case 0:
		return mk_sample(b, (__u64)i / 2 + 1, (__u64)i * 1000, 100, 101, (__u32)i % 9,
				 0xffffffff81000000ULL + (__u64)i);
	case 1:
		return mk_stack(b, (__u64)i / 2 + 1, 100, 101, (__u32)i % 17, 0x555500000000ULL,
				(__u8)(i % DUNWIND_STOP_MAX));
	case 2:
		return mk_sample(b, 0, (__u64)i * 1000, 100, 102, 2, 0xffffffff82000000ULL);
	case 3:
		return mk_lost(b, (__u64)i, 1);
	default:
		return mk_unknown(b, 100 + (__u32)i, 32);
	}
}

static const struct dunwind_config cfg = { .size = sizeof(cfg), .pid = 4242,
					   .sample_freq = 999, .flags = DUNWIND_CFG_FP_ONLY,
					   .max_user_frames = 64, .ring_pages = 16 };

/* A capture of NREC records (every kind, some of unknown type), and its bytes. */
FIXTURE(capture) {
	int created, written, refused_bad, closed;
	unsigned long bytes;
	unsigned char *buf, *copy;
	size_t len;
};

FIXTURE_SETUP(capture)
{
	struct dw_capture_writer w;
	const struct dunwind_rec_header *rec;
	union rec_buf b;
	int i;

	strcpy(dir, "/tmp/dw_capture_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/capture", dir);
	self->created = dw_capture_create(&w, path, &cfg);
	ASSERT_EQ(0, self->created);
	self->written = 0;
	self->bytes = 0;
	for (i = 0; i < NREC; i++) {
		rec = mk_nth(&b, i);
		self->written += dw_capture_write(&w, rec) == 0;
		self->bytes += rec->size;
	}
	mk_sample(&b, 1, 1, 1, 1, 2, 0)->size = 8;
	self->refused_bad = dw_capture_write(&w, &b.hdr);
	self->closed = dw_capture_close(&w);
	self->buf = slurp(path, &self->len);
	self->copy = malloc(self->len ? self->len : 1);
	ASSERT_NE(NULL, self->copy);
	memcpy(self->copy, self->buf, self->len);
}

FIXTURE_TEARDOWN(capture)
{
	free(self->buf);
	free(self->copy);
	unlink(path);
	rmdir(dir);
}

TEST_F(capture, is_created)
{
	EXPECT_EQ(0, self->created);
}

TEST_F(capture, every_record_is_written)
{
	EXPECT_EQ(NREC, self->written);
}

TEST_F(capture, the_writer_refuses_a_malformed_record)
{
	EXPECT_EQ(-EINVAL, self->refused_bad);
}

TEST_F(capture, is_closed)
{
	EXPECT_EQ(0, self->closed);
}

TEST_F(capture, reads_back)
{
	struct dw_capture_reader r;

	EXPECT_EQ(0, dw_capture_open(&r, path));	/* says why not */
	dw_capture_release(&r);
}

TEST_F(capture, header_fields_survive_the_round_trip)
{
	struct dw_capture_reader r;

	ASSERT_EQ(0, dw_capture_open(&r, path));
	EXPECT_EQ(4242, (int)r.hdr.pid);
	EXPECT_EQ(999ull, r.hdr.sample_freq);
	EXPECT_EQ(1u, r.hdr.config_flags);
	EXPECT_EQ(64u, r.hdr.max_user_frames);
	EXPECT_EQ(16u, r.hdr.ring_pages);
	EXPECT_EQ(1u, r.hdr.version);
	EXPECT_EQ(128u, r.hdr.header_size);
	EXPECT_EQ((__u64)NREC, r.hdr.record_count);
	EXPECT_EQ((__u64)self->bytes, r.hdr.record_bytes);
	EXPECT_NE(0ull, r.hdr.created_realtime_ns);
	EXPECT_NE(0ull, r.hdr.created_boottime_ns);
	dw_capture_release(&r);
}

TEST_F(capture, every_known_record_comes_back_byte_for_byte)
{
	const struct dunwind_rec_header *rec, *got;
	struct dw_capture_reader r;
	union rec_buf b;
	int i;

	ASSERT_EQ(0, dw_capture_open(&r, path));
	for (i = 0; i < NREC; i++) {
		rec = mk_nth(&b, i);
		if (rec->type >= 100)
			continue;
		got = dw_capture_next(&r);
		ASSERT_NE(NULL, got);
		EXPECT_EQ(rec->size, got->size);
		EXPECT_EQ(0, memcmp(got, rec, rec->size)) TH_LOG("record %d differs", i);
	}
	dw_capture_release(&r);
}

TEST_F(capture, records_of_unknown_type_are_skipped_by_size)
{
	struct dw_capture_reader r;

	ASSERT_EQ(0, dw_capture_open(&r, path));
	while (dw_capture_next(&r))
		;
	EXPECT_EQ((unsigned long)NREC / 5, r.skipped);
	dw_capture_release(&r);
}

TEST_F(capture, the_file_is_the_header_plus_the_records)
{
	EXPECT_EQ(128 + self->bytes, self->len);
}

/* Boot ids: this boot's, another, none. */
TEST_F(capture, records_this_boots_id)
{
	struct dw_capture_reader r;

	ASSERT_EQ(0, dw_capture_open(&r, path));
	EXPECT_EQ(1, dw_capture_same_boot(&r.hdr));
	dw_capture_release(&r);
}

TEST_F(capture, another_boot_id_is_another_boot)
{
	struct dw_capture_reader r;
	struct dw_capture_header bh;

	ASSERT_EQ(0, dw_capture_open(&r, path));
	bh = r.hdr;
	bh.boot_id[3] ^= 1;
	EXPECT_EQ(0, dw_capture_same_boot(&bh));
	dw_capture_release(&r);
}

TEST_F(capture, no_boot_id_is_unknown)
{
	struct dw_capture_reader r;
	struct dw_capture_header bh;

	ASSERT_EQ(0, dw_capture_open(&r, path));
	bh = r.hdr;
	memset(bh.boot_id, 0, sizeof(bh.boot_id));
	EXPECT_EQ(-1, dw_capture_same_boot(&bh));
	dw_capture_release(&r);
}

/*
 * Every truncation, into an exactly sized buffer so ASan sees overruns:
 * inside the header refused with a reason; in the records read up to the
 * last whole record, saying how much is missing.
 */
TEST_F(capture, every_truncation_is_refused_or_read_to_its_last_whole_record)
{
	size_t i, wrong = 0, pos = 128;
	int bad = 0, accepted = 0;

	for (i = 0; i < self->len; i++) {
		unsigned char *t = malloc(i ? i : 1);
		struct dw_capture_reader tr;
		int err;

		ASSERT_NE(NULL, t);
		memcpy(t, self->buf, i);
		while (pos < self->len &&
		       i >= pos + ((struct dunwind_rec_header *)(self->buf + pos))->size)
			pos += ((struct dunwind_rec_header *)(self->buf + pos))->size;
		err = parse_count(t, i, &bad, &tr) < 0;
		if (!err)
			accepted++;
		if (i < 128 ? !err : err || !tr.cut || tr.len != pos - 128 ||
		    tr.missing != self->len - pos || !strstr(said, "cut short"))
			wrong++;
		dw_capture_release(&tr);
		free(t);
	}
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(0, bad);
	EXPECT_EQ((int)(self->len - 128), accepted);
}

/* Every byte flipped three ways: refused cleanly or still well formed. */
static void flips(FIXTURE_DATA(capture) *self, int *bad, int *refused, int *accepted)
{
	static const unsigned char masks[] = { 0x01, 0x80, 0xff };
	size_t i, m;

	*bad = *refused = *accepted = 0;
	for (i = 0; i < self->len; i++) {
		for (m = 0; m < sizeof(masks); m++) {
			memcpy(self->copy, self->buf, self->len);
			self->copy[i] ^= masks[m];
			if (parse_count(self->copy, self->len, bad, NULL) < 0)
				(*refused)++;
			else
				(*accepted)++;
		}
	}
}

TEST_F(capture, every_byte_flip_is_refused_with_a_reason_or_well_formed)
{
	int bad, refused, accepted;

	flips(self, &bad, &refused, &accepted);
	EXPECT_EQ(0, bad);
}

TEST_F(capture, flips_in_sizes_are_caught_flips_in_payloads_are_not_errors)
{
	int bad, refused, accepted;

	flips(self, &bad, &refused, &accepted);
	EXPECT_GT(refused, 0);
	EXPECT_GT(accepted, 0);
}

/* Hand-made damage, each with the right complaint. */
#define H ((struct dw_capture_header *)self->copy)
#define REC0 ((struct dunwind_rec_header *)(self->copy + 128))
#define DAMAGE(name, change, what) \
TEST_F(capture, name) \
{ \
	change; \
	EXPECT_TRUE(expect_error(self->copy, self->len, what)); \
}

DAMAGE(bad_magic, self->copy[0] = 'X', "bad magic")
DAMAGE(a_version_from_the_future_asks_for_a_newer_dunwind, H->version = DW_CAPTURE_VERSION + 1,
       "newer")
DAMAGE(version_0, H->version = 0, "version")
DAMAGE(the_other_byte_order, H->endian = 0x04030201, "byte order")
DAMAGE(a_header_size_below_version_1s, H->header_size = 120, "header size")
DAMAGE(a_huge_header_size, H->header_size = 1U << 31, "header size")
DAMAGE(no_record_bytes_but_a_record_count, H->record_bytes = 0, "trailing")
DAMAGE(bytes_after_the_records, H->record_bytes -= 8, "trailing")
DAMAGE(a_record_count_that_disagrees_with_the_records, H->record_count++, "counts")
DAMAGE(record_size_0, REC0->size = 0, "bad size")
DAMAGE(a_record_size_past_the_end_of_the_file, REC0->size = 0xfff8, "past the end")
DAMAGE(a_busy_record_in_a_file, REC0->type = DUNWIND_REC_BUSY, "busy")
DAMAGE(counts_disagreeing_with_the_record_size,
       ((struct dunwind_rec_sample *)REC0)->nr_kernel++, "disagree")

/* A header never finished (the recorder killed): every record is read. */
TEST_F(capture, an_unfinished_recording_is_read_whole)
{
	struct dw_capture_reader r;
	int bad = 0;

	H->record_bytes = 0;
	H->record_count = 0;
	ASSERT_LE(0, parse_count(self->copy, self->len, &bad, &r));
	EXPECT_TRUE(r.cut);
	EXPECT_EQ(0, r.missing);
	EXPECT_EQ(self->bytes, r.len);
	EXPECT_NE(NULL, strstr(said, "killed"));
	dw_capture_release(&r);
}

/* A finished capture cut afterwards says how much is missing. */
TEST_F(capture, record_bytes_past_the_end_are_missing)
{
	struct dw_capture_reader r;
	int bad = 0;

	H->record_bytes += 8;
	ASSERT_LE(0, parse_count(self->copy, self->len, &bad, &r));
	EXPECT_TRUE(r.cut);
	EXPECT_EQ(8, r.missing);
	EXPECT_EQ(self->bytes, r.len);
	dw_capture_release(&r);
}

TEST_F(capture, an_existing_file_is_eexist_unless_overwritten)
{
	struct dw_capture_writer w;

	EXPECT_EQ(-EEXIST, dw_capture_create_new(&w, path, NULL, 0));
	ASSERT_EQ(0, dw_capture_create_new(&w, path, NULL, 1));
	EXPECT_EQ(0, dw_capture_close(&w));
}

TEST(proc_version_is_refused_at_create)
{
	struct dw_capture_writer w;

	EXPECT_EQ(-EEXIST, dw_capture_create_new(&w, "/proc/version", NULL, 0));
	EXPECT_GT(0, dw_capture_create_new(&w, "/proc/version", NULL, 1));
}

/* A recorder killed after a flush: the flushed records are in the file. */
TEST_F(capture, a_capture_never_closed_reads_its_flushed_records)
{
	struct dw_capture_writer w;
	struct dw_capture_reader r;
	union rec_buf b;
	int i;

	ASSERT_EQ(0, dw_capture_create(&w, path, &cfg));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, dw_capture_write(&w, mk_nth(&b, i)));
	ASSERT_EQ(0, dw_capture_flush(&w));
	ASSERT_EQ(0, dw_capture_open(&r, path));
	EXPECT_TRUE(r.cut);
	for (i = 0; i < 3; i++)
		EXPECT_NE(NULL, dw_capture_next(&r));
	EXPECT_EQ(NULL, dw_capture_next(&r));
	dw_capture_release(&r);
	dw_capture_close(&w);
}

TEST_F(capture, the_undamaged_copy_parses)
{
	int bad = 0;

	EXPECT_LE(0, parse_count(self->copy, self->len, &bad, NULL));
}

/* A header larger than ours (a later minor extension) is skipped. */
TEST_F(capture, a_larger_header_is_skipped_by_its_size)
{
	unsigned char *big = malloc(self->len + 64);
	int bad = 0;

	ASSERT_NE(NULL, big);
	memcpy(big, self->buf, 128);
	memset(big + 128, 0, 64);
	memcpy(big + 192, self->buf + 128, self->len - 128);
	((struct dw_capture_header *)big)->header_size = 192;
	EXPECT_LE(0, parse_count(big, self->len + 64, &bad, NULL));
	EXPECT_EQ(0, bad);
	free(big);
}

TEST(with_sample_stacks_a_capture_is_version_2_and_reads_them_back)
{
	static const __u64 ips[] = { 0x401234, 0x401300, 0x7f0000029d90 };
	struct dunwind_config c2 = cfg;
	const struct dunwind_rec_header *got;
	struct dw_capture_writer w;
	struct dw_capture_reader r;
	union rec_buf b;

	strcpy(dir, "/tmp/dw_capture_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/capture", dir);
	c2.flags |= DUNWIND_CFG_SAMPLE_STACK;
	ASSERT_EQ(0, dw_capture_create(&w, path, &c2));
	EXPECT_EQ(0, dw_capture_write(&w, mk_sample_stack(&b, 9, 1, 100, 101, ips, 3)));
	EXPECT_EQ(0, dw_capture_close(&w));
	ASSERT_EQ(0, dw_capture_open(&r, path));
	EXPECT_EQ(2u, r.hdr.version);
	got = dw_capture_next(&r);
	ASSERT_NE(NULL, got);
	EXPECT_EQ(0, memcmp(got, &b, b.hdr.size));
	EXPECT_EQ(NULL, dw_capture_next(&r));
	dw_capture_release(&r);
	unlink(path);
	rmdir(dir);
}

TEST(a_missing_file_is_enoent_with_a_reason)
{
	struct dw_capture_reader r;

	dw_print_fn_t old = said_clear();

	EXPECT_EQ(-ENOENT, dw_capture_open(&r, "/nonexistent/capture"));
	dw_set_print(old);
	EXPECT_NE(NULL, strstr(said, "/nonexistent/capture: no such file")) TH_LOG("%s", said);
	dw_capture_release(&r);
}

TEST_F(capture, a_capture_without_records_reads_as_empty)
{
	struct dw_capture_writer w;
	struct dw_capture_reader r;

	ASSERT_EQ(0, dw_capture_create(&w, path, NULL));
	ASSERT_EQ(0, dw_capture_close(&w));
	ASSERT_EQ(0, dw_capture_open(&r, path));
	EXPECT_EQ(NULL, dw_capture_next(&r));
	dw_capture_release(&r);
}

TEST_HARNESS_MAIN
