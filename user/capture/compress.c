// SPDX-License-Identifier: GPL-2.0
/*
 * zstd-compressed captures (record -z): the bytes after the header are one
 * zstd stream whose content is the records, byte for byte as an
 * uncompressed capture holds them.  The writer flushes the stream at every
 * dw_capture_flush(), so a capture cut short still decompresses up to its
 * last flush; the reader decompresses it whole before the records are
 * checked as usual.  Documentation/capture.rst describes the format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "capture/compress.h"
#include "util/log.h"

struct dw_capture_zstd {
	ZSTD_CCtx *cctx;
	void *out;
	size_t out_size;
};

static void zstd_free(struct dw_capture_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	free(z->out);
	free(z);
}

static int set_param(ZSTD_CCtx *cctx, ZSTD_cParameter p, int v)
{
	return ZSTD_isError(ZSTD_CCtx_setParameter(cctx, p, v)) ? -EINVAL : 0;
}

/**
 * dw_capture_compress() - compress every record written from now on
 * @w:		writer from dw_capture_create(), before its first record
 * @level:	zstd level, 1 (fastest) to dw_capture_zstd_max_level()
 *
 * Context: user space, blocking I/O: the header, now version 3 (or 4 if
 * packed) with @compression DW_CAPTURE_ZSTD, is rewritten at once.
 * Return: 0; -EBADF if @w is not open; -EBUSY after a record or a second
 * call; -EINVAL for a level out of range; -ENOMEM; -errno from the write.
 */
int dw_capture_compress(struct dw_capture_writer *w, int level)
{
	struct dw_capture_zstd *z;
	int err;

	if (!w->f)
		return -EBADF;
	if (w->z || w->raw_bytes)
		return -EBUSY;
	if (level < 1 || level > ZSTD_maxCLevel())
		return -EINVAL;
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->cctx = ZSTD_createCCtx();
	z->out_size = ZSTD_CStreamOutSize();
	z->out = malloc(z->out_size);
	if (!z->cctx || !z->out) {
		zstd_free(z);
		return -ENOMEM;
	}
	/* The checksum catches a damaged stream that still decodes. */
	err = set_param(z->cctx, ZSTD_c_compressionLevel, level);
	if (!err)
		err = set_param(z->cctx, ZSTD_c_checksumFlag, 1);
	if (!err) {
		/* A packed capture stays version 4. */
		if (w->hdr.version < 3)
			w->hdr.version = 3;
		w->hdr.compression = DW_CAPTURE_ZSTD;
		err = dw_capture_rewrite_header(w);
	}
	if (err) {
		zstd_free(z);
		return err;
	}
	w->z = z;
	return 0;
}

/* The largest level dw_capture_compress() takes. */
int dw_capture_zstd_max_level(void)
{
	return ZSTD_maxCLevel();
}

/* Feed @len bytes (may be 0) and write what comes out; @end: flush or end. */
static int push(struct dw_capture_writer *w, const void *buf, size_t len,
		ZSTD_EndDirective end)
{
	struct dw_capture_zstd *z = w->z;
	ZSTD_inBuffer in = { buf, len, 0 };
	size_t left;

	do {
		ZSTD_outBuffer out = { z->out, z->out_size, 0 };

		left = ZSTD_compressStream2(z->cctx, &out, &in, end);
		if (ZSTD_isError(left))
			return -EIO;
		if (out.pos && fwrite(z->out, out.pos, 1, w->f) != 1)
			return errno ? -errno : -EIO;
		w->hdr.record_bytes += out.pos;
	} while (end == ZSTD_e_continue ? in.pos < in.size : left != 0);
	return 0;
}

/**
 * dw_capture_zstd_write() - compress @len bytes of whole records
 * @w:		writer after dw_capture_compress()
 * @buf, @len:	the records
 *
 * Context: user space, buffered I/O.
 * Return: 0, -EIO from zstd, or -errno from fwrite().
 */
int dw_capture_zstd_write(struct dw_capture_writer *w, const void *buf, size_t len)
{
	return push(w, buf, len, ZSTD_e_continue);
}

/**
 * dw_capture_zstd_flush() - make everything written so far decodable
 * @w:		writer after dw_capture_compress()
 * @last:	end the stream (the capture is closing) rather than flush it
 *
 * Context: user space, buffered I/O (the caller flushes the FILE).
 * Return: 0, -EIO from zstd, or -errno from fwrite().
 */
int dw_capture_zstd_flush(struct dw_capture_writer *w, int last)
{
	return push(w, NULL, 0, last ? ZSTD_e_end : ZSTD_e_flush);
}

/**
 * dw_capture_zstd_release() - free the compressor
 * @w:		writer; may have none
 *
 * Context: user space.
 */
void dw_capture_zstd_release(struct dw_capture_writer *w)
{
	zstd_free(w->z);
	w->z = NULL;
}

/* Grow @out to at least twice its size, up to DW_CAPTURE_RAW_MAX. */
static int grow(unsigned char **buf, size_t *cap)
{
	size_t n = *cap ? *cap * 2 : 1 << 16;
	unsigned char *p;

	if (*cap >= DW_CAPTURE_RAW_MAX)
		return -E2BIG;
	if (n > DW_CAPTURE_RAW_MAX)
		n = DW_CAPTURE_RAW_MAX;
	p = realloc(*buf, n);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/*
 * Decompress @src into *@out (*@len bytes); 1 if the stream ends inside a
 * frame (cut), 0 if it ends at a frame's end, or -errno, said through
 * dw_warn() naming the capture @name.
 */
static int inflate(ZSTD_DCtx *d, const void *src, size_t slen, unsigned char **out,
		   size_t *len, const char *name)
{
	ZSTD_inBuffer in = { src, slen, 0 };
	size_t cap = 0, ret = 0;
	int e;

	*out = NULL;
	*len = 0;
	while (in.pos < in.size || *len == cap) {
		ZSTD_outBuffer o;

		if (*len == cap && (e = grow(out, &cap))) {
			if (e == -E2BIG)
				dw_warn("%s: the compressed records inflate to more than %llu "
					"bytes\n", name, (unsigned long long)DW_CAPTURE_RAW_MAX);
			else
				dw_warn("%s: out of memory (%llu bytes of records)\n", name,
					(unsigned long long)cap * 2);
			return e;
		}
		o = (ZSTD_outBuffer){ *out, cap, *len };
		ret = ZSTD_decompressStream(d, &o, &in);
		*len = o.pos;
		if (ZSTD_isError(ret)) {
			dw_warn("%s: compressed records damaged near byte %zu of the stream: %s\n",
				name, in.pos, ZSTD_getErrorName(ret));
			return -EINVAL;
		}
		if (in.pos == in.size && o.pos < o.size)
			break;
	}
	return ret != 0;
}

/**
 * dw_capture_zstd_read() - decompress a capture's records
 * @r:		reader with a checked header (@r->cut set if it was cut short)
 * @src, @len:	the bytes after the header
 *
 * Context: user space.  Sets @r->data and @r->len (the records, not yet
 * checked) and @r->zlen.  A stream that ends inside a frame is cut: it is
 * read up to the last byte that decompresses (@r->cut is set); only a
 * finished capture of the right length whose stream is cut is damaged.
 * Return: 0; -EINVAL (damaged), -E2BIG (inflates to more than
 * DW_CAPTURE_RAW_MAX) or -ENOMEM, said through dw_warn() naming the
 * capture.
 */
int dw_capture_zstd_read(struct dw_capture_reader *r, const void *src, size_t len)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	unsigned char *out = NULL;
	size_t olen = 0;
	int ret;

	r->zlen = len;
	if (!d) {
		dw_warn("%s: out of memory (zstd)\n", dw_capture_name(r));
		return -ENOMEM;
	}
	ret = len ? inflate(d, src, len, &out, &olen, dw_capture_name(r)) : 1;
	ZSTD_freeDCtx(d);
	if (ret == 1 && !r->cut) {
		dw_warn("%s: the compressed records end inside a zstd frame (byte %zu of the "
			"stream), though the header says the capture is whole: it is damaged\n",
			dw_capture_name(r), len);
		ret = -EINVAL;
	}
	if (ret < 0) {
		free(out);
		return ret;
	}
	r->data = out ? out : malloc(1);
	r->len = olen;
	if (!r->data) {
		dw_warn("%s: out of memory\n", dw_capture_name(r));
		return -ENOMEM;
	}
	return 0;
}

/**
 * dw_zstd_source_init() - read a capture's stream back, decompressed
 * @s:		the source; release with dw_zstd_source_release()
 * @fd:		the capture, positioned at its first record byte
 * @len:	compressed bytes to read from @fd
 *
 * Context: user space.  For the recorder's read-back of its own capture
 * (record/replay.c), which reads it in chunks rather than whole.
 * Return: 0 or -ENOMEM.
 */
int dw_zstd_source_init(struct dw_zstd_source *s, int fd, __u64 len)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->left = len;
	s->in_size = ZSTD_DStreamInSize();
	s->in = malloc(s->in_size);
	s->d = ZSTD_createDCtx();
	if (!s->in || !s->d) {
		dw_zstd_source_release(s);
		return -ENOMEM;
	}
	return 0;
}

/* Refill the input from the file: 0, or -errno (-EIO: shorter than said). */
static int source_refill(struct dw_zstd_source *s)
{
	size_t want = s->left < s->in_size ? (size_t)s->left : s->in_size;
	ssize_t n;

	do
		n = read(s->fd, s->in, want);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		return -EIO;
	s->left -= (size_t)n;
	s->in_len = (size_t)n;
	s->in_pos = 0;
	return 0;
}

/**
 * dw_zstd_source_read() - the next decompressed bytes
 * @s:		source from dw_zstd_source_init()
 * @buf, @len:	where, and at most how many (> 0)
 *
 * Context: user space, blocking I/O.
 * Return: bytes (> 0), 0 at the end of the stream read so far, or -errno
 * (-EPROTO: the stream does not decode; -EIO: the file is short).
 */
ssize_t dw_zstd_source_read(struct dw_zstd_source *s, void *buf, size_t len)
{
	ZSTD_outBuffer out = { buf, len, 0 };

	while (!out.pos) {
		ZSTD_inBuffer in;
		size_t r;
		int err;

		if (s->in_pos == s->in_len) {
			if (!s->left)
				return 0;
			err = source_refill(s);
			if (err)
				return err;
		}
		in = (ZSTD_inBuffer){ s->in, s->in_len, s->in_pos };
		r = ZSTD_decompressStream(s->d, &out, &in);
		s->in_pos = in.pos;
		if (ZSTD_isError(r))
			return -EPROTO;
	}
	return (ssize_t)out.pos;
}

/**
 * dw_zstd_source_release() - free what the source holds (not its file)
 * @s:		source; may be one whose init failed
 *
 * Context: user space.
 */
void dw_zstd_source_release(struct dw_zstd_source *s)
{
	ZSTD_freeDCtx(s->d);
	free(s->in);
	s->d = NULL;
	s->in = NULL;
}
