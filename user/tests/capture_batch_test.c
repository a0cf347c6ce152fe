// SPDX-License-Identifier: GPL-2.0
/*
 * The capture writer's batches (capture_writer.c): records placed with
 * dw_capture_reserve() and appended in place, mixed with copied ones,
 * read back as written across many batches; a failed batch write fails
 * everything after it.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "capture/capture.h"

#define NREC	2000	/* about 3 batches of records */

/* Record @i of the stream: sizes from 32 to 200 bytes. */
static const struct dunwind_rec_header *nth(union rec_buf *b, int i)
{
	if (i % 2)
		return mk_stack(b, (__u64)i, 100, 101, (__u32)i % 21, 0x555500000000ULL,
				DUNWIND_STOP_END);
	return mk_sample(b, (__u64)i, (__u64)i * 1000, 100, 101, (__u32)i % 5,
			 0xffffffff81000000ULL);
}

/* Append @rec in place (reserve, copy there, append) or as a copy. */
static int append(struct dw_capture_writer *w, const struct dunwind_rec_header *rec,
		  int in_place)
{
	void *room;

	if (!in_place)
		return dw_capture_write(w, rec);
	room = dw_capture_reserve(w, rec->size);
	if (!room)
		return w->err ? w->err : -ENOMEM;
	memcpy(room, rec, rec->size);
	return dw_capture_write_checked(w, room);
}

FIXTURE(batch) {
	char dir[64];
	char path[128];
	struct dw_capture_writer w;
	union rec_buf b;
};

FIXTURE_SETUP(batch)
{
	strcpy(self->dir, "/tmp/dw_capture_batch_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/c.data", self->dir);
	ASSERT_EQ(0, dw_capture_create(&self->w, self->path, NULL));
}

FIXTURE_TEARDOWN(batch)
{
	if (self->w.f)
		dw_capture_close(&self->w);
	unlink(self->path);
	rmdir(self->dir);
}

TEST_F(batch, records_placed_in_the_batch_read_back_as_written)
{
	struct dw_capture_reader r;
	const struct dunwind_rec_header *rec;
	union rec_buf want;
	int i, bad = 0;

	for (i = 0; i < NREC; i++)
		ASSERT_EQ(0, append(&self->w, nth(&self->b, i), i % 3 != 0));
	ASSERT_EQ(0, dw_capture_close(&self->w));
	ASSERT_EQ(0, dw_capture_open(&r, self->path));	/* says why not */
	EXPECT_LT(2 * DW_CAPTURE_CHUNK, r.len);
	for (i = 0; (rec = dw_capture_next(&r)); i++) {
		const struct dunwind_rec_header *w = nth(&want, i);

		bad += rec->size != w->size || memcmp(rec, w, w->size);
	}
	EXPECT_EQ(NREC, i);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(NREC, r.hdr.record_count);
	dw_capture_release(&r);
}

TEST_F(batch, a_flush_puts_a_partial_batch_into_the_file)
{
	struct dw_capture_reader r;
	int i;

	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, append(&self->w, nth(&self->b, i), i % 2));
	ASSERT_EQ(0, dw_capture_flush(&self->w));
	/* Not closed: the header's counts are still 0, the records are whole. */
	ASSERT_EQ(0, dw_capture_open(&r, self->path));	/* says why not */
	EXPECT_EQ(self->w.hdr.record_bytes, r.len);
	EXPECT_EQ(1, r.cut);
	dw_capture_release(&r);
}

TEST_F(batch, a_failed_batch_write_fails_every_later_write_and_flush)
{
	struct rlimit lim = { 4096, 4096 };
	int i, err = 0;

	/* The file may not grow past 4 KiB: the first batch written fails. */
	signal(SIGXFSZ, SIG_IGN);
	ASSERT_EQ(0, setrlimit(RLIMIT_FSIZE, &lim));
	for (i = 0; i < NREC && !err; i++)
		err = append(&self->w, nth(&self->b, i), i % 2);
	ASSERT_EQ(-EFBIG, err);
	EXPECT_EQ(-EFBIG, append(&self->w, nth(&self->b, 0), 0));
	EXPECT_EQ(-EFBIG, append(&self->w, nth(&self->b, 1), 1));
	EXPECT_EQ(NULL, dw_capture_reserve(&self->w, 64));
	EXPECT_EQ(-EFBIG, dw_capture_flush(&self->w));
}

TEST_HARNESS_MAIN
