// SPDX-License-Identifier: GPL-2.0
/*
 * Packed captures (capture/pack.h): what the writer packs reads back as
 * the very records written, in order, and takes fewer bytes; captures
 * written before packing still read; a pack that refers to a stack never
 * defined, defines one too long, is cut short or lies about its kind is
 * refused with a message, never read past.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "capture/capture.h"
#include "capture/pack.h"
#include "util/log.h"

#define KIP0	0xffffffff81000000ULL
#define NSAMPLES	3000	/* several packs (each at most 64 KiB) */

/* Record @i of a syscall-heavy program's stream: few distinct stacks. */
static const struct dunwind_rec_header *nth(union rec_buf *b, int i)
{
	static const __u64 uips[] = { 0x401000, 0x401234, 0x401400, 0x7f0000123456 };

	switch (i % 7) {
	case 0:
	case 3:
		return mk_sample(b, (__u64)i, 1000000ULL * i, 100, 100 + i % 2, 12 + i % 3,
				 KIP0 + 64 * (i % 5));
	case 1:
	case 4:
		return mk_stack(b, (__u64)i - 1, 100, 100 + (i - 1) % 2, 5 + i % 2, 0x401000,
				DUNWIND_STOP_END);
	case 2:
		return mk_sample_stack(b, (__u64)i, 1000000ULL * i + 5, 100, 101, uips,
				       1 + i % 4);
	case 5:
		if (i % 70 == 5)
			return mk_comm(b, 100, 101, (__u64)i, "syscall", 0);
		return mk_lost(b, (__u64)i, 0);
	default: {
		/* 0 to 2 kernel IPs; one the packer must store as it is: __reserved1 set. */
		struct dunwind_rec_header *h = mk_sample(b, (__u64)i, (__u64)i, 1, 1, i % 3, KIP0);

		if (i % 21 == 6)
			((struct dunwind_rec_sample *)h)->__reserved1 = 7;
		return h;
	}
	}
}

FIXTURE(pack) {
	char dir[64];
	char plain[128];
	char packed[128];
	union rec_buf b;
};

FIXTURE_SETUP(pack)
{
	strcpy(self->dir, "/tmp/dw_capture_pack_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->plain, sizeof(self->plain), "%s/plain.data", self->dir);
	snprintf(self->packed, sizeof(self->packed), "%s/packed.data", self->dir);
	dw_set_print(NULL);	/* the refusals below are expected */
}

FIXTURE_TEARDOWN(pack)
{
	unlink(self->plain);
	unlink(self->packed);
	rmdir(self->dir);
}

/* Write the stream to @path, packed or not, half of it placed in place. */
static int write_stream(union rec_buf *b, const char *path, int pack, int zstd)
{
	struct dw_capture_writer w;
	int i, err;

	err = dw_capture_create(&w, path, NULL);
	if (!err && zstd)
		err = dw_capture_compress(&w, 1);
	if (!err && pack)
		err = dw_capture_pack(&w);
	for (i = 0; !err && i < NSAMPLES; i++) {
		const struct dunwind_rec_header *rec = nth(b, i);

		if (i % 2) {
			void *room = dw_capture_reserve(&w, rec->size);

			if (!room) {
				err = -EIO;
				break;
			}
			memcpy(room, rec, rec->size);
			err = dw_capture_write_checked(&w, room);
		} else {
			err = dw_capture_write(&w, rec);
		}
		if (!err && i % 1000 == 999)
			err = dw_capture_flush(&w);
	}
	if (err) {
		dw_capture_close(&w);
		return err;
	}
	return dw_capture_close(&w);
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* Read both captures and count the records that differ. */
static int differ(struct __test_metadata *_metadata, const char *a, const char *b)
{
	struct dw_capture_reader ra, rb;
	const struct dunwind_rec_header *x, *y;
	int bad = 0;

	EXPECT_EQ(0, dw_capture_open(&ra, a));
	EXPECT_EQ(0, dw_capture_open(&rb, b));
	EXPECT_EQ(ra.len, rb.len);
	for (;;) {
		x = dw_capture_next_any(&ra);
		y = dw_capture_next_any(&rb);
		if (!x || !y)
			break;
		if (x->size != y->size || memcmp(x, y, x->size))
			bad++;
	}
	EXPECT_EQ(NULL, x);
	EXPECT_EQ(NULL, y);
	EXPECT_EQ(0, ra.packs);
	EXPECT_LT(0, rb.packs);
	dw_capture_release(&ra);
	dw_capture_release(&rb);
	return bad;
}

TEST_F(pack, packed_records_read_back_as_written_in_fewer_bytes)
{
	struct dw_capture_reader r;

	ASSERT_EQ(0, write_stream(&self->b, self->plain, 0, 0));
	ASSERT_EQ(0, write_stream(&self->b, self->packed, 1, 0));
	EXPECT_EQ(0, differ(_metadata, self->plain, self->packed));
	/*
	 * Samples and stacks of about 120 bytes take a few packed; the LOST
	 * and COMM records (a seventh) and the odd samples stay as they are.
	 */
	EXPECT_LT(file_size(self->packed) * 3, file_size(self->plain));
	ASSERT_EQ(0, dw_capture_open(&r, self->packed));
	EXPECT_EQ(4, r.hdr.version);
	EXPECT_EQ(DW_CAPTURE_PACKED, r.hdr.features);
	dw_capture_release(&r);
}

TEST_F(pack, packed_and_compressed_records_read_back_as_written)
{
	ASSERT_EQ(0, write_stream(&self->b, self->plain, 0, 0));
	ASSERT_EQ(0, write_stream(&self->b, self->packed, 1, 1));
	EXPECT_EQ(0, differ(_metadata, self->plain, self->packed));
}

TEST_F(pack, a_capture_written_unpacked_still_reads)
{
	struct dw_capture_reader r;
	int n = 0;

	ASSERT_EQ(0, write_stream(&self->b, self->plain, 0, 0));
	ASSERT_EQ(0, dw_capture_open(&r, self->plain));
	EXPECT_EQ(1, r.hdr.version);
	EXPECT_EQ(0, r.hdr.features);
	while (dw_capture_next_any(&r))
		n++;
	EXPECT_EQ(NSAMPLES, n);
	dw_capture_release(&r);
}

/* A version-4 packed capture of one pack holding @len bytes of entries. */
static size_t mk_packed(unsigned char *buf, const unsigned char *entries, size_t len)
{
	struct dw_capture_header *h = (void *)buf;
	struct dunwind_rec_header *rec = (void *)(buf + sizeof(*h));
	size_t size = (sizeof(*rec) + len + 7) / 8 * 8;

	memset(buf, 0, sizeof(*h) + size);
	memcpy(h->magic, DW_CAPTURE_MAGIC, sizeof(h->magic));
	h->version = 4;
	h->header_size = sizeof(*h);
	h->endian = DW_CAPTURE_ENDIAN;
	h->page_size = 4096;
	h->features = DW_CAPTURE_PACKED;
	h->record_bytes = size;
	h->record_count = 1;
	rec->type = DW_REC_PACK;
	rec->size = (__u16)size;
	memcpy(rec + 1, entries, len);
	return sizeof(*h) + size;
}

/* A SAMPLE entry: tag, 8 fields of difference 0, then @ref... */
#define SAMPLE_ENTRY	DUNWIND_REC_SAMPLE, 0, 0, 0, 0, 0, 0, 0, 0

TEST_F(pack, a_defined_stack_is_read)
{
	static const unsigned char e[] = { SAMPLE_ENTRY, 0, 2, 2, 4,	/* IPs 1, 3 */
					   SAMPLE_ENTRY, 1 };
	unsigned char buf[512];
	struct dw_capture_reader r;
	const struct dunwind_rec_sample *s;
	int n = 0;

	ASSERT_EQ(0, dw_capture_parse(&r, buf, mk_packed(buf, e, sizeof(e))));
	while ((s = (const void *)dw_capture_next(&r))) {
		ASSERT_EQ(DUNWIND_REC_SAMPLE, s->hdr.type);
		ASSERT_EQ(2, s->nr_kernel);
		EXPECT_EQ(1, s->ips[0]);
		EXPECT_EQ(3, s->ips[1]);
		n++;
	}
	EXPECT_EQ(2, n);
	dw_capture_release(&r);
}

TEST_F(pack, a_reference_to_an_undefined_stack_is_refused)
{
	static const unsigned char e[] = { SAMPLE_ENTRY, 0, 1, 2,	/* stack 0 */
					   SAMPLE_ENTRY, 2 };		/* stack 1 */
	unsigned char buf[512];
	struct dw_capture_reader r;

	EXPECT_EQ(-EINVAL, dw_capture_parse(&r, buf, mk_packed(buf, e, sizeof(e))));
	EXPECT_EQ(NULL, r.data);
}

TEST_F(pack, a_stack_of_a_huge_count_is_refused)
{
	/* 2^35 IPs */
	static const unsigned char e[] = { SAMPLE_ENTRY, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 1 };
	unsigned char buf[512];
	struct dw_capture_reader r;

	EXPECT_EQ(-EINVAL, dw_capture_parse(&r, buf, mk_packed(buf, e, sizeof(e))));
}

TEST_F(pack, an_entry_cut_short_is_refused)
{
	/* 16 bytes (no padding): the second of 3 IPs runs past the end. */
	static const unsigned char e[] = { SAMPLE_ENTRY, 0, 3, 2, 0x82, 0x82, 0x82, 0x82 };
	unsigned char buf[512];
	struct dw_capture_reader r;

	EXPECT_EQ(-EINVAL, dw_capture_parse(&r, buf, mk_packed(buf, e, sizeof(e))));
}

TEST_F(pack, a_field_out_of_its_range_is_refused)
{
	/* pid 2^32 - 1 + 1: does not fit its 32 bits (zigzag of 2^32). */
	static const unsigned char e[] = { DUNWIND_REC_SAMPLE, 0, 0,
					   0x80, 0x80, 0x80, 0x80, 0x20, 0, 0, 0, 0, 0, 0, 1, 1 };
	unsigned char buf[512];
	struct dw_capture_reader r;

	EXPECT_EQ(-EINVAL, dw_capture_parse(&r, buf, mk_packed(buf, e, sizeof(e))));
}

TEST_F(pack, a_pack_in_a_capture_not_marked_packed_is_refused)
{
	static const unsigned char e[] = { SAMPLE_ENTRY, 0, 0 };
	unsigned char buf[512];
	struct dw_capture_reader r;
	size_t len = mk_packed(buf, e, sizeof(e));

	((struct dw_capture_header *)buf)->features = 0;
	EXPECT_EQ(-EINVAL, dw_capture_parse(&r, buf, len));
	/* ... or marked so below version 4. */
	((struct dw_capture_header *)buf)->features = DW_CAPTURE_PACKED;
	((struct dw_capture_header *)buf)->version = 3;
	EXPECT_EQ(-EINVAL, dw_capture_parse(&r, buf, len));
}

TEST_F(pack, an_unknown_feature_is_refused)
{
	static const unsigned char e[] = { SAMPLE_ENTRY, 0, 0 };
	unsigned char buf[512];
	struct dw_capture_reader r;
	size_t len = mk_packed(buf, e, sizeof(e));

	((struct dw_capture_header *)buf)->features |= 1U << 7;
	EXPECT_EQ(-EINVAL, dw_capture_parse(&r, buf, len));
}

TEST_HARNESS_MAIN
