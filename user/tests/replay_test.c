// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder leaves the kernel IPs of its samples for after the
 * recording (record/replay.c): none are gathered while records come in,
 * all of them once the capture is read back, and a capture damaged
 * meanwhile is refused; plain, compressed or packed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "record/recorder.h"

#define KIP0	0xffffffff81000000ULL

FIXTURE(rec) {
	char path[64];
	struct dw_recorder st;
	union rec_buf b;
};

/* The capture as it is, or compressed (record -z). */
FIXTURE_VARIANT(rec) {
	int zstd_level;
	int pack;
	long damage_at;		/* 0: the second record's size field */
};

FIXTURE_VARIANT_ADD(rec, plain) { .zstd_level = 0 };
/* In the stream's frame magic: it no longer decodes. */
FIXTURE_VARIANT_ADD(rec, zstd) { .zstd_level = 1, .damage_at = 129 };
/* Packed (capture/pack.h): the first entry's tag, a type never packed. */
FIXTURE_VARIANT_ADD(rec, packed) { .pack = 1, .damage_at = 136 };

FIXTURE_SETUP(rec)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = 1, .sample_freq = 99 };
	int fd;

	snprintf(self->path, sizeof(self->path), "/tmp/dw_replay_test.XXXXXX");
	fd = mkstemp(self->path);
	ASSERT_LE(0, fd);
	close(fd);
	memset(&self->st, 0, sizeof(self->st));
	ASSERT_EQ(0, dw_capture_create(&self->st.w, self->path, &cfg));
	if (variant->zstd_level)
		ASSERT_EQ(0, dw_capture_compress(&self->st.w, variant->zstd_level));
	if (variant->pack)
		ASSERT_EQ(0, dw_capture_pack(&self->st.w));
}

FIXTURE_TEARDOWN(rec)
{
	if (self->st.w.f)
		dw_capture_close(&self->st.w);
	dw_kips_free(&self->st.kips);
	unlink(self->path);
}

/* Two samples of 3 kernel IPs (one shared) and their user stacks. */
static int feed(struct dw_recorder *st, union rec_buf *b)
{
	int err;

	err = dw_recorder_on_record(mk_sample(b, 1, 10, 1, 1, 3, KIP0), st);
	if (!err)
		err = dw_recorder_on_record(mk_stack(b, 1, 1, 1, 4, 0x401000, DUNWIND_STOP_END), st);
	if (!err)
		err = dw_recorder_on_record(mk_sample(b, 2, 20, 1, 1, 3, KIP0 + 2), st);
	if (!err)
		err = dw_recorder_on_record(mk_stack(b, 2, 1, 1, 4, 0x401000, DUNWIND_STOP_END), st);
	return err;
}

TEST_F(rec, no_kernel_ip_is_gathered_while_recording)
{
	ASSERT_EQ(0, feed(&self->st, &self->b));
	EXPECT_EQ(2, self->st.samples);
	EXPECT_EQ(0, self->st.kips.nr);
}

TEST_F(rec, every_kernel_ip_is_gathered_from_the_capture)
{
	size_t i;

	ASSERT_EQ(0, feed(&self->st, &self->b));
	ASSERT_EQ(0, dw_recorder_replay(&self->st));
	EXPECT_EQ(0, self->st.kips.failed);
	dw_kips_compact(&self->st.kips);
	ASSERT_EQ(5, self->st.kips.nr);
	for (i = 0; i < 5; i++)
		EXPECT_EQ(KIP0 + i, self->st.kips.ips[i]);
}

TEST_F(rec, a_capture_damaged_meanwhile_is_refused)
{
	FILE *f;
	__u16 bad = 12;		/* not a multiple of 8 */

	ASSERT_EQ(0, feed(&self->st, &self->b));
	ASSERT_EQ(0, dw_capture_flush(&self->st.w));
	/* The second record's size field (offset 6 of its header). */
	f = fopen(self->path, "r+");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, fseek(f, variant->damage_at ? variant->damage_at :
			   (long)(sizeof(self->st.w.hdr) + dunwind_rec_sample_size(3) + 6),
			   SEEK_SET));
	ASSERT_EQ(1, fwrite(&bad, sizeof(bad), 1, f));
	ASSERT_EQ(0, fclose(f));
	EXPECT_EQ(-EPROTO, dw_recorder_replay(&self->st));
	EXPECT_EQ(1, self->st.kips.failed);
}

TEST_HARNESS_MAIN
