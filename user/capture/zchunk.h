/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A text the recorder adds to a capture (a symbol snapshot), deflated with
 * zlib and cut into records of one of its own types (>= 64), which readers
 * that do not know the type skip by size.  Documentation/capture.rst
 * describes the record.
 */
#ifndef DW_ZCHUNK_H
#define DW_ZCHUNK_H

#include <stddef.h>
#include <linux/dunwind.h>

#include "capture/capture.h"

/* Data bytes per record: the record size field is 16 bits. */
#define DW_ZCHUNK_DATA		32768
/* Readers refuse texts that inflate to more than this. */
#define DW_ZCHUNK_RAW_MAX	(256U << 20)

/*
 * @kind:	what the text is, per record type.
 * @seq:	chunk number of this kind, from 0, consecutive.
 * @len:	bytes of @data used; the record is padded with zeros to 8.
 * @__reserved:	zero.
 * @total:	compressed bytes of all chunks of this kind together.
 * @raw:	bytes once inflated (the zlib stream's content).
 */
struct dw_rec_zchunk {
	struct dunwind_rec_header hdr;
	__u32 kind;
	__u32 seq;
	__u32 len;
	__u32 __reserved;
	__u64 total;
	__u64 raw;
	__u8 data[];
};
_Static_assert(sizeof(struct dw_rec_zchunk) == 40, "zchunk record header");

/* Bytes of a record carrying @len bytes of data. */
static inline __u32 dw_rec_zchunk_size(__u32 len)
{
	return (__u32)((sizeof(struct dw_rec_zchunk) + len + 7) & ~7UL);
}

/* The chunks of one kind gathered by a reader. */
struct dw_zchunk {
	unsigned char *buf;		/* compressed bytes gathered so far */
	__u64 len, total, raw;
	__u32 next_seq;
	int bad;			/* chunks out of order or inconsistent */
};

int dw_zchunk_write(struct dw_capture_writer *w, __u16 type, __u32 kind, const char *text,
		    size_t len);
int dw_zchunk_add(struct dw_zchunk *z, const struct dunwind_rec_header *rec);
char *dw_zchunk_text(const struct dw_zchunk *z);
void dw_zchunk_release(struct dw_zchunk *z);

#endif
