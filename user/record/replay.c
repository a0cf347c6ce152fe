// SPDX-License-Identifier: GPL-2.0
/*
 * After a recording: read its capture back to gather the kernel IPs and
 * the user addresses the symbol snapshots need.  Done while recording,
 * that work ran once per record beside the profiled program (in exact
 * mode about 1,400 instructions per sample of its time); done here it
 * runs once the program is gone.  The file is read in chunks, so a long
 * recording is never held in memory whole, and every record is checked
 * again: the file is input like any other.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "capture/compress.h"
#include "capture/dispatch.h"
#include "capture/pack.h"
#include "record/recorder.h"

#define REPLAY_BUF	(1024 * 1024)	/* bytes read at a time */

static int replay_sample(const struct dunwind_rec_sample *s, void *arg)
{
	dw_kips_add(&((struct dw_recorder *)arg)->kips, s);
	return 0;
}

static int replay_user_stack(const struct dunwind_rec_user_stack *u, void *arg)
{
	struct dw_recorder *st = arg;

	if (st->usnap)
		dw_usnap_collect_ops.user_stack(u, st->usnap);	/* -ENOMEM: said at the end */
	return 0;
}

static int replay_sample_stack(const struct dunwind_rec_sample_stack *ss, void *arg)
{
	struct dw_recorder *st = arg;

	if (st->usnap)
		dw_usnap_collect_ops.sample_stack(ss, st->usnap);
	return 0;
}

/* The addresses the snapshots need: kernel IPs of samples, user stacks. */
static const struct dw_rec_ops replay_ops = {
	.sample = replay_sample,
	.user_stack = replay_user_stack,
	.sample_stack = replay_sample_stack,
	.unknown = dw_rec_skip,
};

static int replay_unpacked(const struct dunwind_rec_header *rec, void *arg)
{
	return dw_rec_dispatch(&replay_ops, rec, rec->size, arg);
}

/*
 * Feed the collectors the records whole in @buf (those of a pack through
 * @pr); bytes taken, or -EPROTO.
 */
static long replay_records(struct dw_recorder *st, struct dw_pack_reader *pr,
			   const unsigned char *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const struct dunwind_rec_header *rec = (const void *)(buf + pos);
		int err = dw_rec_dispatch(&replay_ops, rec, len - pos, st);

		if (err == -EBADMSG)
			break;			/* the rest comes with the next read */
		if (!err && rec->type == DW_REC_PACK)
			err = dw_pack_unpack(pr, rec, replay_unpacked, st);
		if (err)
			return err == -ENOMEM ? err : -EPROTO;
		pos += rec->size;
	}
	return (long)pos;
}

/*
 * Read and feed @left bytes of records from @fd, or, with @zs, every byte
 * its stream decompresses to (@left is then ignored); packs unpack through
 * @pr.  0 or -errno.
 */
static int replay_fd(struct dw_recorder *st, struct dw_pack_reader *pr, int fd,
		     struct dw_zstd_source *zs, __u64 left, unsigned char *buf)
{
	size_t have = 0;

	while (zs || left) {
		size_t want = REPLAY_BUF - have;
		ssize_t n;
		long used;

		if (!zs && left < want)
			want = (size_t)left;
		n = zs ? dw_zstd_source_read(zs, buf + have, want) : read(fd, buf + have, want);
		if (n < 0 && !zs && errno == EINTR)
			continue;
		if (n < 0)
			return zs ? (int)n : -errno;
		if (!n && zs)
			break;			/* the end of the stream */
		if (!n)
			return -EIO;		/* the file is shorter than written */
		if (!zs)
			left -= (size_t)n;
		have += (size_t)n;
		used = replay_records(st, pr, buf, have);
		if (used < 0)
			return (int)used;
		if (!used && have == REPLAY_BUF)
			return -EPROTO;		/* no record fits a chunk */
		have -= (size_t)used;
		memmove(buf, buf + used, have);
	}
	return have ? -EPROTO : 0;
}

/**
 * dw_recorder_replay() - gather the snapshots' addresses from the capture
 * @st:		the recording, its capture flushed and not yet closed
 *
 * Feeds every SAMPLE's kernel IPs to @st->kips and every USER_STACK to
 * @st->usnap (when there is one); the MMAP and COMM records went to
 * @st->usnap while recording, when their files could still be read.
 *
 * Context: user space, blocking I/O; after the recording.
 * Return: 0, -ENOMEM, or -errno (-EIO, -EPROTO: the file changed under
 * us) reading the capture back; on failure @st->kips says failed (then
 * the kernel snapshot holds every symbol).
 */
int dw_recorder_replay(struct dw_recorder *st)
{
	struct dw_pack_reader pr;
	unsigned char *buf;
	int fd, err;

	err = dw_capture_flush(&st->w);
	if (err)
		goto fail;
	fd = open(st->w.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto fail;
	}
	buf = malloc(REPLAY_BUF);
	if (!buf) {
		err = -ENOMEM;
		goto fail_close;
	}
	dw_pack_reader_init(&pr);
	if (lseek(fd, sizeof(st->w.hdr), SEEK_SET) < 0) {
		err = -errno;
	} else if (st->w.z) {		/* record -z: the records decompressed */
		struct dw_zstd_source zs;

		err = dw_zstd_source_init(&zs, fd, st->w.hdr.record_bytes);
		if (!err)
			err = replay_fd(st, &pr, fd, &zs, 0, buf);
		dw_zstd_source_release(&zs);
	} else {
		err = replay_fd(st, &pr, fd, NULL, st->w.hdr.record_bytes, buf);
	}
	dw_pack_reader_release(&pr);
	free(buf);
fail_close:
	close(fd);
	if (!err)
		return 0;
fail:
	st->kips.failed = 1;
	return err;
}
