// SPDX-License-Identifier: GPL-2.0
/*
 * Deflated texts in capture records (zchunk.h): the writer deflates and
 * cuts, the reader gathers the chunks of a kind, checks that they are
 * consecutive and add up to the announced size, and inflates.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "capture/zchunk.h"

/**
 * dw_zchunk_write() - append a text to a capture as deflated chunks
 * @w:		open capture writer
 * @type:	record type (the recorder's own, >= 64)
 * @kind:	what the text is
 * @text:	the text
 * @len:	its bytes
 *
 * Context: user space, blocking I/O.
 * Return: 0, -ENOMEM, -EIO (zlib failed) or -errno of writing the capture.
 */
int dw_zchunk_write(struct dw_capture_writer *w, __u16 type, __u32 kind, const char *text,
		    size_t len)
{
	uLongf zlen = compressBound(len);
	unsigned char *z = malloc(zlen);
	union {
		struct dw_rec_zchunk r;
		__u64 raw[(sizeof(struct dw_rec_zchunk) + DW_ZCHUNK_DATA) / 8 + 1];
	} *rec = NULL;
	__u64 off = 0;
	__u32 seq = 0;
	int err = 0;

	rec = malloc(sizeof(*rec));
	if (!z || !rec) {
		err = -ENOMEM;
		goto out;
	}
	if (compress2(z, &zlen, (const Bytef *)text, len, 6) != Z_OK) {
		err = -EIO;
		goto out;
	}
	do {
		__u32 n = zlen - off > DW_ZCHUNK_DATA ? DW_ZCHUNK_DATA : (__u32)(zlen - off);

		memset(rec, 0, dw_rec_zchunk_size(n));
		rec->r.hdr.type = type;
		rec->r.hdr.size = (__u16)dw_rec_zchunk_size(n);
		rec->r.kind = kind;
		rec->r.seq = seq++;
		rec->r.len = n;
		rec->r.total = zlen;
		rec->r.raw = len;
		memcpy(rec->r.data, z + off, n);
		err = dw_capture_write(w, &rec->r.hdr);
		off += n;
	} while (!err && off < zlen);
out:
	free(z);
	free(rec);
	return err;
}

/**
 * dw_zchunk_add() - take in one chunk of the kind @z gathers
 * @z:		the kind's state (zeroed at first)
 * @rec:	a chunk record whose header is sound (size within the file)
 *
 * Context: user space.  A malformed or out-of-order chunk spoils the kind
 * (dw_zchunk_text() then refuses it); that is not an error.
 * Return: 0 or -ENOMEM.
 */
int dw_zchunk_add(struct dw_zchunk *z, const struct dunwind_rec_header *rec)
{
	const struct dw_rec_zchunk *r = (const void *)rec;

	if (z->bad)
		return 0;
	if (rec->size < sizeof(*r) || r->len > rec->size - sizeof(*r) || r->seq != z->next_seq ||
	    !r->total || r->raw > DW_ZCHUNK_RAW_MAX || r->total > DW_ZCHUNK_RAW_MAX ||
	    (z->next_seq && (r->total != z->total || r->raw != z->raw)) ||
	    z->len + r->len > r->total) {
		z->bad = 1;
		return 0;
	}
	if (!z->next_seq) {
		z->total = r->total;
		z->raw = r->raw;
		z->buf = malloc(r->total);
		if (!z->buf)
			return -ENOMEM;
	}
	memcpy(z->buf + z->len, r->data, r->len);
	z->len += r->len;
	z->next_seq++;
	return 0;
}

/**
 * dw_zchunk_text() - the inflated text of a complete kind
 * @z:		the kind's state after every record of the capture
 *
 * Context: user space.
 * Return: the text, NUL-terminated, malloc()ed; NULL with errno ENODATA
 * if chunks are missing or inconsistent, EBADMSG if they do not inflate
 * to the announced size, or ENOMEM.
 */
char *dw_zchunk_text(const struct dw_zchunk *z)
{
	uLongf n = z->raw;
	char *text;

	if (z->bad || z->len != z->total) {
		errno = ENODATA;
		return NULL;
	}
	text = malloc(z->raw + 1);
	if (!text)
		return NULL;
	if (uncompress((Bytef *)text, &n, z->buf, z->len) != Z_OK || n != z->raw) {
		free(text);
		errno = EBADMSG;
		return NULL;
	}
	text[n] = '\0';
	return text;
}

/**
 * dw_zchunk_release() - free what a kind gathered
 * @z:		the kind's state
 *
 * Context: user space.
 */
void dw_zchunk_release(struct dw_zchunk *z)
{
	free(z->buf);
	memset(z, 0, sizeof(*z));
}
