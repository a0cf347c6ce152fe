// SPDX-License-Identifier: GPL-2.0
/*
 * Capture file writer: the header at once (an output that cannot be
 * written fails before any recording), then records in batches of
 * DW_CAPTURE_CHUNK bytes, the counts at the close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "capture/boot_id.h"
#include "capture/capture.h"
#include "capture/compress.h"
#include "capture/pack.h"
#include "util/clock.h"

/**
 * dw_capture_create_new() - create @path and write a provisional header
 * @w:		writer to initialise
 * @path:	file to create
 * @cfg:	the session's configuration, recorded in the header; may be NULL
 * @overwrite:	truncate @path if it exists; else an existing file is -EEXIST
 *
 * Context: user space, blocking I/O.  The header is written (and flushed)
 * now, so that an output that cannot be written fails here, before any
 * recording.  Its counts are written by dw_capture_close(); until then the
 * file is marked unfinished, and readers take the whole records it holds.
 * Return: 0, -ENOMEM, or -errno from open()/write() (-EEXIST, -EROFS, -EIO,
 * ...).
 */
int dw_capture_create_new(struct dw_capture_writer *w, const char *path,
			  const struct dunwind_config *cfg, int overwrite)
{
	long ps = sysconf(_SC_PAGESIZE);
	int fd, err;

	memset(w, 0, sizeof(*w));
	memcpy(w->hdr.magic, DW_CAPTURE_MAGIC, sizeof(w->hdr.magic));
	w->hdr.version = cfg && (cfg->flags & DUNWIND_CFG_SAMPLE_STACK) ? 2 : 1;
	w->hdr.header_size = sizeof(w->hdr);
	w->hdr.endian = DW_CAPTURE_ENDIAN;
	w->hdr.page_size = ps > 0 ? (__u32)ps : 4096;
	w->hdr.created_realtime_ns = dw_clock_ns(CLOCK_REALTIME);
	w->hdr.created_monotonic_ns = dw_clock_ns(CLOCK_MONOTONIC);
	w->hdr.created_boottime_ns = dw_clock_ns(CLOCK_BOOTTIME);
	if (dw_boot_id_read(w->hdr.boot_id))
		memset(w->hdr.boot_id, 0, sizeof(w->hdr.boot_id));
	if (cfg) {
		w->hdr.pid = cfg->pid;
		w->hdr.tid = cfg->tid;
		w->hdr.sample_freq = cfg->sample_freq;
		w->hdr.sample_period = cfg->sample_period;
		w->hdr.config_flags = cfg->flags;
		w->hdr.max_user_frames = cfg->max_user_frames;
		w->hdr.ring_pages = cfg->ring_pages;
		w->hdr.event = cfg->event;
	}
	w->path = path;
	w->batch = malloc(DW_CAPTURE_CHUNK);
	if (!w->batch)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		err = -errno;
		goto fail;
	}
	w->f = fdopen(fd, "w");
	if (!w->f) {
		err = -errno;
		close(fd);
		goto fail;
	}
	/* Records reach it in batches (dw_capture_write()): no second buffer. */
	setvbuf(w->f, NULL, _IONBF, 0);
	if (fwrite(&w->hdr, sizeof(w->hdr), 1, w->f) != 1) {
		err = errno ? -errno : -EIO;
		fclose(w->f);
		w->f = NULL;
		goto fail;
	}
	return 0;
fail:
	free(w->batch);
	w->batch = NULL;
	return err;
}

/**
 * dw_capture_create() - dw_capture_create_new() that truncates an existing @path
 * @w:		writer to initialise
 * @path:	file to create (truncated if it exists)
 * @cfg:	the session's configuration; may be NULL
 *
 * Context: user space, blocking I/O.
 * Return: as dw_capture_create_new().
 */
int dw_capture_create(struct dw_capture_writer *w, const char *path,
		      const struct dunwind_config *cfg)
{
	return dw_capture_create_new(w, path, cfg, 1);
}

/**
 * dw_capture_rewrite_header() - write @w->hdr over the provisional header
 * @w:		writer from dw_capture_create()
 *
 * Context: user space, blocking I/O; the file position is back after it.
 * Return: 0 or -errno (-EIO).
 */
int dw_capture_rewrite_header(struct dw_capture_writer *w)
{
	long pos = ftell(w->f);

	if (pos < 0 || fflush(w->f) || fseek(w->f, 0, SEEK_SET) ||
	    fwrite(&w->hdr, sizeof(w->hdr), 1, w->f) != 1 || fseek(w->f, pos, SEEK_SET) ||
	    fflush(w->f))
		return errno ? -errno : -EIO;
	return 0;
}

/**
 * dw_capture_pack() - pack every record written from now on
 * @w:		writer from dw_capture_create(), before its first record
 *
 * Context: user space, blocking I/O: the header, now version 4 with
 * DW_CAPTURE_PACKED in @features, is rewritten at once (a capture cut
 * short says it is packed).  SAMPLE, USER_STACK and SAMPLE_STACK records
 * then go into DW_REC_PACK records (capture/pack.h); readers unpack them.
 * Return: 0; -EBADF if @w is not open; -EBUSY after a record or a second
 * call; -ENOMEM; -errno from the write.
 */
int dw_capture_pack(struct dw_capture_writer *w)
{
	int err;

	if (!w->f)
		return -EBADF;
	if (w->pack || w->raw_bytes)
		return -EBUSY;
	w->pack = dw_pack_writer_new();
	if (!w->pack)
		return -ENOMEM;
	w->hdr.version = 4;
	w->hdr.features |= DW_CAPTURE_PACKED;
	err = dw_capture_rewrite_header(w);
	if (err) {
		dw_pack_writer_free(w->pack);
		w->pack = NULL;
	}
	return err;
}

/* Put the batch into the file (through the compressor, if any). */
static int write_batch(struct dw_capture_writer *w)
{
	size_t len = w->batch_len;

	w->batch_len = 0;
	if (!len || w->err)
		return w->err;
	if (w->z)
		w->err = dw_capture_zstd_write(w, w->batch, len);
	else if (fwrite(w->batch, len, 1, w->f) != 1)
		w->err = errno ? -errno : -EIO;
	return w->err;
}

/* Room for @size bytes at the end of the batch; NULL after a failed write. */
static void *batch_room(struct dw_capture_writer *w, __u32 size)
{
	if (!w->f || w->err || size > DW_CAPTURE_CHUNK ||
	    (w->batch_len + size > DW_CAPTURE_CHUNK && write_batch(w)))
		return NULL;
	return w->batch + w->batch_len;
}

/**
 * dw_capture_reserve() - room for the next record
 * @w:		writer from dw_capture_create()
 * @size:	the record's size
 *
 * Context: user space, buffered I/O (may write the batch out to make
 * room).  A record built there and passed to dw_capture_write_checked()
 * is appended without a copy (the recorder copies records from the ring
 * straight into it): the room is at the end of the batch, or, when
 * records are packed (dw_capture_pack()), the packer's scratch.  The room
 * is the writer's: any other write, reserve or flush before that reuses it.
 * Return: the room, 8-byte aligned; NULL after a failed create or write.
 */
void *dw_capture_reserve(struct dw_capture_writer *w, __u32 size)
{
	if (w->pack)
		return w->f && !w->err && size <= DW_CAPTURE_CHUNK ? dw_pack_scratch(w->pack) : NULL;
	return batch_room(w, size);
}

/* Append @rec to the batch as it is (it may lie where batch_room() said). */
static int append(struct dw_capture_writer *w, const struct dunwind_rec_header *rec)
{
	if ((const unsigned char *)rec != w->batch + w->batch_len) {
		if (!batch_room(w, rec->size))
			return w->err;
		memcpy(w->batch + w->batch_len, rec, rec->size);
	}
	w->batch_len += rec->size;
	if (!w->z)
		w->hdr.record_bytes += rec->size;
	w->hdr.record_count++;
	return 0;
}

/* The open pack into the batch, if there is one. */
static int close_pack(struct dw_capture_writer *w)
{
	const struct dunwind_rec_header *pack = w->pack ? dw_pack_close(w->pack) : NULL;

	return pack ? append(w, pack) : 0;
}

/* @rec into the open pack, or after it as it is. */
static int write_packed(struct dw_capture_writer *w, const struct dunwind_rec_header *rec)
{
	int n = dw_pack_add(w->pack, rec), err;

	if (n == -ENOSPC) {
		err = close_pack(w);
		if (err)
			return err;
		n = dw_pack_add(w->pack, rec);
	}
	if (n < 0)
		return w->err = n;
	if (n)
		return 0;
	err = close_pack(w);
	return err ? err : append(w, rec);
}

/**
 * dw_capture_write_checked() - append one record that passed dunwind_rec_check()
 * @w:		writer from dw_capture_create()
 * @rec:	the record (rec->size bytes), checked by the caller: the
 *		recorder checks each copy it takes out of the ring; it may lie
 *		where dw_capture_reserve() said
 *
 * Context: user space, buffered I/O: the record joins a batch (or the
 * open pack) that reaches the file when it fills and at each
 * dw_capture_flush().
 * Return: 0, -EBADF after a failed create, -ENOMEM (packing), or -errno of
 * writing a batch.
 */
int dw_capture_write_checked(struct dw_capture_writer *w, const struct dunwind_rec_header *rec)
{
	int err;

	if (!w->f)
		return -EBADF;
	if (w->err)
		return w->err;
	err = w->pack ? write_packed(w, rec) : append(w, rec);
	if (!err) {
		w->raw_bytes += rec->size;
		w->raw_count++;
	}
	return err;
}

/**
 * dw_capture_write() - append one record
 * @w:		writer from dw_capture_create()
 * @rec:	a record that passes dunwind_rec_check() (rec->size bytes)
 *
 * Context: user space, buffered I/O (as dw_capture_write_checked()).
 * Return: 0, -EINVAL if @rec is not well formed, -EBADF after a failed
 * create, or -errno of writing the batch.
 */
int dw_capture_write(struct dw_capture_writer *w, const struct dunwind_rec_header *rec)
{
	if (!w->f)
		return -EBADF;
	if (dunwind_rec_check(rec, rec->size))
		return -EINVAL;
	return dw_capture_write_checked(w, rec);
}

/**
 * dw_capture_flush() - put every record written so far into the file
 * @w:		writer from dw_capture_create()
 *
 * Context: user space, blocking I/O.  A capture cut short after this
 * (the recorder killed, the machine down) still holds these records; a
 * compressed one, a zstd stream that decodes up to them.
 * Return: 0, -EBADF if the writer is not open, or -errno (-ENOSPC, -EIO).
 */
int dw_capture_flush(struct dw_capture_writer *w)
{
	int err;

	if (!w->f)
		return -EBADF;
	err = close_pack(w);
	if (!err)
		err = write_batch(w);
	if (!err && w->z)
		err = dw_capture_zstd_flush(w, 0);
	if (err)
		return err;
	return fflush(w->f) ? (errno ? -errno : -EIO) : 0;
}

/**
 * dw_capture_close() - write the final header and close the file
 * @w:		writer from dw_capture_create(); closed even on error
 *
 * Context: user space, blocking I/O.
 * Return: 0, -EBADF if the writer was not open, or -errno (-EIO) if
 * any write failed (the file is then incomplete and readers refuse it).
 */
int dw_capture_close(struct dw_capture_writer *w)
{
	int err = 0;

	if (!w->f)
		return -EBADF;
	err = close_pack(w);
	if (!err)
		err = write_batch(w);
	if (!err && w->z)
		err = dw_capture_zstd_flush(w, 1);
	dw_capture_zstd_release(w);
	dw_pack_writer_free(w->pack);
	w->pack = NULL;
	free(w->batch);
	w->batch = NULL;
	if (err)
		goto out;
	if (fflush(w->f) || fseek(w->f, 0, SEEK_SET) ||
	    fwrite(&w->hdr, sizeof(w->hdr), 1, w->f) != 1 || fflush(w->f))
		err = errno ? -errno : -EIO;
out:
	if (fclose(w->f) && !err)
		err = errno ? -errno : -EIO;
	w->f = NULL;
	return err;
}
