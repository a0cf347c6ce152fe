/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zstd-compressed captures (record -z): the records after the header as one
 * zstd stream, flushed at every dw_capture_flush().  dw_capture_compress()
 * (capture.h) turns it on; capture.c calls the rest, and record/replay.c
 * reads a capture back through dw_zstd_source.
 */
#ifndef DW_CAPTURE_COMPRESS_H
#define DW_CAPTURE_COMPRESS_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#include "capture/capture.h"

/* Readers refuse compressed records that inflate to more than this. */
#define DW_CAPTURE_RAW_MAX	((size_t)4 << 30)

int dw_capture_zstd_max_level(void);
int dw_capture_zstd_write(struct dw_capture_writer *w, const void *buf, size_t len);
int dw_capture_zstd_flush(struct dw_capture_writer *w, int last);
void dw_capture_zstd_release(struct dw_capture_writer *w);
int dw_capture_zstd_read(struct dw_capture_reader *r, const void *src, size_t len);

/* A compressed capture read back in chunks (the recorder's replay). */
struct dw_zstd_source {
	struct ZSTD_DCtx_s *d;
	int fd;
	__u64 left;			/* compressed bytes not read yet */
	unsigned char *in;
	size_t in_size, in_len, in_pos;
};

int dw_zstd_source_init(struct dw_zstd_source *s, int fd, __u64 len);
ssize_t dw_zstd_source_read(struct dw_zstd_source *s, void *buf, size_t len);
void dw_zstd_source_release(struct dw_zstd_source *s);

#endif
