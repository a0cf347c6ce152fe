// SPDX-License-Identifier: GPL-2.0
/*
 * Capture file reader (the writer is capture_writer.c).  It validates the
 * whole file when it opens it, so that iterating can no longer fail: every
 * record it hands out is complete, aligned and passed dunwind_rec_check().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "capture/capture.h"
#include "capture/compress.h"
#include "capture/pack.h"
#include "util/array.h"
#include "util/log.h"

/* The capture's name in messages. */
const char *dw_capture_name(const struct dw_capture_reader *r)
{
	return r->path ? r->path : "capture";
}

/* Say why @r's capture is refused (once, here) and return -EINVAL. */
__attribute__((format(printf, 2, 3)))
static int fail(struct dw_capture_reader *r, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	dw_warn("%s: %s\n", dw_capture_name(r), why);
	return -EINVAL;
}

static const char *type_name(__u32 type)
{
	switch (type) {
	case DUNWIND_REC_SAMPLE:
		return "sample";
	case DUNWIND_REC_USER_STACK:
		return "user stack";
	case DUNWIND_REC_SAMPLE_STACK:
		return "sample with its stack";
	case DUNWIND_REC_LOST:
		return "lost";
	case DUNWIND_REC_MMAP:
		return "mmap";
	case DUNWIND_REC_COMM:
		return "comm";
	case DUNWIND_REC_FORK:
		return "fork";
	case DUNWIND_REC_EXIT:
		return "exit";
	default:
		return "unknown type";
	}
}

static int check_header(struct dw_capture_reader *r, const unsigned char *buf, size_t len)
{
	struct dw_capture_header *h = &r->hdr;

	memset(h, 0, sizeof(*h));
	memcpy(h, buf, len < sizeof(*h) ? len : sizeof(*h));
	if (len < sizeof(h->magic) || memcmp(h->magic, DW_CAPTURE_MAGIC, sizeof(h->magic)))
		return fail(r, "not a dunwind capture (bad magic)");
	if (len < offsetof(struct dw_capture_header, page_size))
		return fail(r, "truncated: the header is cut short (%zu bytes)", len);
	if (h->endian == __builtin_bswap32(DW_CAPTURE_ENDIAN))
		return fail(r, "written on a machine of the other byte order: not supported");
	if (h->endian != DW_CAPTURE_ENDIAN)
		return fail(r, "bad byte-order marker 0x%08x", h->endian);
	if (h->version == 0)
		return fail(r, "bad version 0");
	if (h->version > DW_CAPTURE_VERSION)
		return fail(r, "capture version %u is newer than this dunwind reads (%u): "
			    "use a newer dunwind",
			    h->version, DW_CAPTURE_VERSION);
	if (h->compression && (h->compression != DW_CAPTURE_ZSTD || h->version < 3))
		return fail(r, "unknown compression %u in a version-%u capture",
			    h->compression, h->version);
	if (h->features & ~DW_CAPTURE_FEATURES)
		return fail(r, "features 0x%x are newer than this dunwind reads (0x%x): "
			    "use a newer dunwind", h->features, DW_CAPTURE_FEATURES);
	if ((h->features & DW_CAPTURE_PACKED) && h->version < 4)
		return fail(r, "packed records in a version-%u capture", h->version);
	if (h->header_size < sizeof(*h) || h->header_size > DW_CAPTURE_HEADER_MAX ||
	    h->header_size % 8)
		return fail(r, "bad header size %u", h->header_size);
	if (len < h->header_size)
		return fail(r, "truncated: the header is cut short (%zu of %u bytes)",
			    len, h->header_size);
	if (h->record_bytes != len - h->header_size) {
		/*
		 * Never finished (the recorder was killed, the disk filled) or
		 * cut afterwards: the whole records it holds are read.
		 */
		if ((h->record_bytes == 0 && h->record_count == 0) ||
		    h->record_bytes > len - h->header_size) {
			r->cut = 1;
			return 0;
		}
		return fail(r, "%zu bytes of trailing garbage after the %llu record bytes",
			    len - h->header_size - (size_t)h->record_bytes,
			    (unsigned long long)h->record_bytes);
	}
	return 0;
}

/* A cut capture ends at @pos: say what is missing, keep what is whole. */
static void cut_at(struct dw_capture_reader *r, __u64 pos, __u64 count)
{
	int finished = r->hdr.record_bytes || r->hdr.record_count;

	/* A compressed capture's header counts compressed bytes. */
	if (finished)
		r->missing = r->hdr.record_bytes - (r->hdr.compression ? r->zlen : pos);
	else
		r->missing = r->len - pos;
	r->len = pos;
	r->whole = count;
}

/**
 * dw_capture_warn_cut() - say what a capture cut short is missing
 * @r:		reader from dw_capture_parse() or dw_capture_open() with @r->cut
 *		set; nothing is said otherwise
 *
 * Context: user space.  Reading a cut capture succeeds (its whole records
 * are used): whoever uses them says so once, through dw_warn(), naming the
 * capture (a second read of the same file need not).
 */
void dw_capture_warn_cut(const struct dw_capture_reader *r)
{
	const char *name = dw_capture_name(r);

	if (!r->cut)
		return;
	if (r->hdr.record_bytes || r->hdr.record_count)
		dw_warn("%s: cut short: %llu of %llu records read, %llu %sbytes missing at "
			"the end\n", name, (unsigned long long)r->whole,
			(unsigned long long)r->hdr.record_count, (unsigned long long)r->missing,
			r->hdr.compression ? "compressed " : "");
	else
		dw_warn("%s: cut short (the recording was killed, or its disk filled): %llu "
			"whole records read, %llu bytes of a record missing at the end\n",
			name, (unsigned long long)r->whole, (unsigned long long)r->missing);
}

static int check_records(struct dw_capture_reader *r)
{
	__u64 pos = 0, count = 0;

	while (pos < r->len) {
		const struct dunwind_rec_header *rec = (const void *)(r->data + pos);
		__u64 off = pos + r->hdr.header_size;
		__u64 left = r->len - pos;

		/* A cut capture's last record may be partial. */
		if (r->cut && (left < sizeof(*rec) || rec->size > left))
			break;
		if (left < sizeof(*rec))
			return fail(r, "record at offset %llu: truncated (%llu bytes left)",
				    (unsigned long long)off, (unsigned long long)left);
		if (rec->size < sizeof(*rec) || rec->size % 8)
			return fail(r, "record at offset %llu: bad size %u",
				    (unsigned long long)off, rec->size);
		if (rec->size > left)
			return fail(r, "record at offset %llu: size %u runs past the end of "
				    "the file",
				    (unsigned long long)off, rec->size);
		if (rec->type == DUNWIND_REC_BUSY)
			return fail(r, "record at offset %llu: type 0 (busy) in a capture",
				    (unsigned long long)off);
		if (rec->type == DW_REC_PACK && !(r->hdr.features & DW_CAPTURE_PACKED))
			return fail(r, "record at offset %llu: packed records in a capture "
				    "whose header says none", (unsigned long long)off);
		if (dunwind_rec_check(rec, rec->size))
			return fail(r, "record at offset %llu (%s): contents disagree with "
				    "its size %u",
				    (unsigned long long)off, type_name(rec->type), rec->size);
		pos += rec->size;
		count++;
	}
	if (r->cut) {
		cut_at(r, pos, count);
		return 0;
	}
	if (count != r->hdr.record_count)
		return fail(r, "the header counts %llu records, the file holds %llu",
			    (unsigned long long)r->hdr.record_count, (unsigned long long)count);
	return 0;
}

/* Where unpacked records go: a buffer that grows, up to @max bytes. */
struct unpacked {
	unsigned char *data;
	__u64 len, cap, max;
};

static int put_unpacked(const struct dunwind_rec_header *rec, void *arg)
{
	struct unpacked *u = arg;

	if (rec->size > u->max - u->len)
		return -E2BIG;
	if (u->len + rec->size > u->cap) {
		__u64 cap = u->cap * 2;
		void *p;

		while (cap < u->len + rec->size)
			cap *= 2;
		p = realloc(u->data, cap);
		if (!p)
			return -ENOMEM;
		u->data = p;
		u->cap = cap;
	}
	memcpy(u->data + u->len, rec, rec->size);
	u->len += rec->size;
	return 0;
}

/*
 * Replace the checked records of a packed capture by what they stand for:
 * each DW_REC_PACK by its records (capture/pack.h), the others as they
 * are.  0, -EINVAL (a malformed pack, said), -E2BIG or -ENOMEM (said).
 */
static int unpack(struct dw_capture_reader *r)
{
	struct unpacked u = { .cap = 4096 };
	struct dw_pack_reader pr;
	__u64 pos = 0;
	int err = 0;

	u.max = r->len > (~0ULL >> 11) ? ~0ULL : r->len * DW_PACK_EXPAND_MAX + 65536;
	u.data = malloc(u.cap);
	if (!u.data) {
		dw_warn("%s: out of memory unpacking its records\n", dw_capture_name(r));
		return -ENOMEM;
	}
	dw_pack_reader_init(&pr);
	while (!err && pos < r->len) {
		const struct dunwind_rec_header *rec = (const void *)(r->data + pos);

		if (rec->type == DW_REC_PACK) {
			err = dw_pack_unpack(&pr, rec, put_unpacked, &u);
			r->packs++;
		} else {
			err = put_unpacked(rec, &u);
		}
		if (err == -EINVAL)
			err = fail(r, "record at offset %llu (packed records): %s",
				   (unsigned long long)(pos + r->hdr.header_size), pr.why);
		else if (err == -E2BIG)
			dw_warn("%s: its packed records unpack to more than %u times its "
				"%llu bytes: refused as malformed\n", dw_capture_name(r),
				DW_PACK_EXPAND_MAX, (unsigned long long)r->len);
		else if (err == -ENOMEM)
			dw_warn("%s: out of memory unpacking its records (%llu bytes so far)\n",
				dw_capture_name(r), (unsigned long long)u.len);
		pos += rec->size;
	}
	dw_pack_reader_release(&pr);
	if (err) {
		free(u.data);
		return err;
	}
	free(r->data);
	r->data = u.data;
	r->len = u.len;
	return 0;
}

/* The @r->len record bytes at @src, as they are: 0 or -ENOMEM. */
static int copy_records(struct dw_capture_reader *r, const unsigned char *src)
{
	r->data = malloc(r->len ? r->len : 1);
	if (!r->data) {
		dw_warn("%s: out of memory (%llu bytes of records)\n", dw_capture_name(r),
			(unsigned long long)r->len);
		return -ENOMEM;
	}
	memcpy(r->data, src, r->len);
	return 0;
}

/* dw_capture_parse() for a reader whose @path is set. */
static int parse(struct dw_capture_reader *r, const void *buf, size_t len)
{
	const unsigned char *src;
	int err;

	err = check_header(r, buf, len);
	if (err)
		return err;
	r->len = r->cut ? len - r->hdr.header_size : r->hdr.record_bytes;
	src = (const unsigned char *)buf + r->hdr.header_size;
	err = r->hdr.compression ? dw_capture_zstd_read(r, src, r->len) : copy_records(r, src);
	if (!err)
		err = check_records(r);
	if (!err && (r->hdr.features & DW_CAPTURE_PACKED))
		err = unpack(r);
	if (err) {
		free(r->data);
		r->data = NULL;
		r->len = 0;
	}
	return err;
}

/**
 * dw_capture_parse() - validate a capture held in memory and copy its records
 * @r:		reader to initialise; release with dw_capture_release()
 * @buf:	the whole file (any alignment)
 * @len:	its length
 *
 * Context: user space.  Checks the header, that the records exactly fill
 * the rest of the file (decompressed first if the capture is compressed),
 * and every record with dunwind_rec_check(); then unpacks a packed
 * capture's DW_REC_PACKs into the records they stand for (@r->packs
 * counts them), so that its reader sees what an unpacked capture holds.  A capture cut short (its
 * header never finished, or counting more bytes than follow) is read up to
 * its last whole record: @r->cut, @r->missing and @r->whole are set
 * (dw_capture_warn_cut() says what is missing).
 * Return: 0; -EINVAL if the capture is malformed, -E2BIG or -ENOMEM, each
 * said through dw_warn() naming the record or byte concerned.
 */
int dw_capture_parse(struct dw_capture_reader *r, const void *buf, size_t len)
{
	memset(r, 0, sizeof(*r));
	return parse(r, buf, len);
}

/**
 * dw_capture_open() - read and validate the capture file @path
 * @r:		reader to initialise; release with dw_capture_release()
 * @path:	file name
 *
 * Context: user space, blocking I/O; reads the whole file into memory.
 * @r->path is @path (kept, not copied) for dw_capture_warn_cut().
 * Return: 0; -errno from open()/read() (-ENOENT: no such file), -ENOMEM,
 * -E2BIG, or -EINVAL for a malformed capture; each said through dw_warn()
 * naming @path.
 */
int dw_capture_open(struct dw_capture_reader *r, const char *path)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd, err;

	memset(r, 0, sizeof(*r));
	r->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err == -ENOENT)
			dw_warn("%s: no such file: record one with 'dunwind record' or give "
				"-i FILE\n", path);
		else
			dw_warn("%s: cannot open it: %s\n", path, strerror(-err));
		return err;
	}
	for (;;) {
		ssize_t n;

		if (DW_ARRAY_RESERVE(buf, cap, len + 1, 1 << 16)) {
			err = -ENOMEM;
			dw_warn("%s: out of memory reading it (%zu bytes so far)\n", path, len);
			goto out;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			dw_warn("%s: read failed at byte %zu: %s\n", path, len, strerror(-err));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	err = parse(r, buf, len);
out:
	free(buf);
	close(fd);
	return err;
}

/**
 * dw_capture_next() - the next record of a known type
 * @r:		reader from dw_capture_parse() or dw_capture_open()
 *
 * Context: user space.  Records of unknown types are skipped (and counted
 * in @r->skipped).  The record stays valid until dw_capture_release().
 * Return: the record, 8-byte aligned and checked; NULL at the end.
 */
const struct dunwind_rec_header *dw_capture_next(struct dw_capture_reader *r)
{
	while (r->data && r->pos < r->len) {
		const struct dunwind_rec_header *rec = (const void *)(r->data + r->pos);

		r->pos += rec->size;
		/* Every type below DUNWIND_REC_MAX is known (BUSY was refused). */
		if (rec->type < DUNWIND_REC_MAX || rec->type == DUNWIND_REC_SAMPLE_STACK)
			return rec;
		r->skipped++;
	}
	return NULL;
}

/**
 * dw_capture_next_any() - the next record, whatever its type
 * @r:		reader from dw_capture_parse() or dw_capture_open()
 *
 * Context: user space.  For readers of capture-only types (>= 64, such as
 * the kernel symbol snapshot); a record of a type the caller does not
 * know must be skipped by it (and may be counted in @r->skipped).  Its
 * header is sound: size >= 8, a multiple of 8, within the file.
 * Return: the record; NULL at the end.
 */
const struct dunwind_rec_header *dw_capture_next_any(struct dw_capture_reader *r)
{
	const struct dunwind_rec_header *rec;

	if (!r->data || r->pos >= r->len)
		return NULL;
	rec = (const void *)(r->data + r->pos);
	r->pos += rec->size;
	return rec;
}

/**
 * dw_capture_release() - free what the reader holds
 * @r:		reader; may be one whose open failed
 *
 * Context: user space.
 */
void dw_capture_release(struct dw_capture_reader *r)
{
	free(r->data);
	r->data = NULL;
	r->len = 0;
	r->pos = 0;
}
