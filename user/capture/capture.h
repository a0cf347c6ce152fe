/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dunwind capture file: a fixed header followed by the ring's records,
 * byte for byte.  Documentation/capture.rst describes the format.
 */
#ifndef DW_CAPTURE_H
#define DW_CAPTURE_H

#include <stddef.h>
#include <stdio.h>
#include <linux/dunwind.h>

#define DW_CAPTURE_MAGIC	"DUNWCAP"	/* 8 bytes with the NUL */
/*
 * 2: records may be SAMPLE_STACKs (DUNWIND_CFG_SAMPLE_STACK), which a
 * version-1 reader would skip, losing their samples.  3: the records are
 * zstd-compressed (@compression), which an older reader cannot read.  4:
 * records may be packed (DW_CAPTURE_PACKED in @features, capture/pack.h),
 * which an older reader would skip.  A capture is written with the lowest
 * version that holds what it has.
 */
#define DW_CAPTURE_VERSION	4
#define DW_CAPTURE_ZSTD		1		/* @compression: one zstd stream */
#define DW_CAPTURE_PACKED	(1U << 0)	/* @features: DW_REC_PACK records */
#define DW_CAPTURE_FEATURES	DW_CAPTURE_PACKED	/* the features this reads */
#define DW_CAPTURE_ENDIAN	0x01020304U
#define DW_CAPTURE_HEADER_MAX	4096		/* readers refuse larger headers */

/*
 * On-disk header, native byte order (see @endian), 128 bytes in version 1.
 *
 * @magic:		"DUNWCAP\0".
 * @version:		1, or 2 with DUNWIND_CFG_SAMPLE_STACK in @config_flags,
 *			or 3 when @compression is set, or 4 when @features has
 *			DW_CAPTURE_PACKED.
 * @header_size:	bytes from the start of the file to the first record;
 *			a multiple of 8, >= 128, <= DW_CAPTURE_HEADER_MAX.
 * @endian:		0x01020304 as the writer stored a u32.
 * @page_size:		the recording machine's page size.
 * @record_bytes:	bytes of records after the header (the rest of the file);
 *			compressed bytes when @compression is set.
 * @record_count:	number of records in those bytes (once decompressed).
 * @created_realtime_ns: CLOCK_REALTIME when the capture was created.
 * @created_monotonic_ns: CLOCK_MONOTONIC then (sample times use it).
 * @created_boottime_ns: CLOCK_BOOTTIME then (to tell a reused pid).
 * @pid, @tid:		the target, as passed to DUNWIND_IOC_CONFIG.
 * @sample_freq, @sample_period: as passed to DUNWIND_IOC_CONFIG.
 * @config_flags:	DUNWIND_CFG_* passed to DUNWIND_IOC_CONFIG.
 * @max_user_frames, @ring_pages: as passed to DUNWIND_IOC_CONFIG.
 * @event:		the sampling event (enum dunwind_event, as passed to
 *			DUNWIND_IOC_CONFIG); 0, cpu-clock, in older captures.
 * @boot_id:		/proc/sys/kernel/random/boot_id of the recording boot,
 *			as 16 bytes; all zero if unknown.  Kernel addresses and
 *			live /proc data only describe the capture on that boot.
 * @compression:	0: the records as they are; DW_CAPTURE_ZSTD: the
 *			bytes after the header are a zstd stream (version 3).
 * @features:		DW_CAPTURE_PACKED: records may be DW_REC_PACKs
 *			(version 4); zero in older captures.
 */
struct dw_capture_header {
	char magic[8];
	__u32 version;
	__u32 header_size;
	__u32 endian;
	__u32 page_size;
	__u64 record_bytes;
	__u64 record_count;
	__u64 created_realtime_ns;
	__u64 created_monotonic_ns;
	__u64 created_boottime_ns;
	__s32 pid;
	__s32 tid;
	__u64 sample_freq;
	__u64 sample_period;
	__u32 config_flags;
	__u32 max_user_frames;
	__u32 ring_pages;
	__u32 event;			/* was __reserved0 (zero: cpu-clock) */
	__u8 boot_id[16];
	__u32 compression;		/* was half of __reserved (zero: none) */
	__u32 features;			/* was __reserved (zero: none) */
};
_Static_assert(sizeof(struct dw_capture_header) == 128, "capture header");
/* Documentation/capture.rst gives these offsets. */
_Static_assert(__builtin_offsetof(struct dw_capture_header, record_bytes) == 24, "record_bytes");
_Static_assert(__builtin_offsetof(struct dw_capture_header, created_boottime_ns) == 56, "boottime");
_Static_assert(__builtin_offsetof(struct dw_capture_header, pid) == 64, "pid");
_Static_assert(__builtin_offsetof(struct dw_capture_header, config_flags) == 88, "flags");
_Static_assert(__builtin_offsetof(struct dw_capture_header, boot_id) == 104, "boot_id");
_Static_assert(__builtin_offsetof(struct dw_capture_header, compression) == 120, "compression");
_Static_assert(__builtin_offsetof(struct dw_capture_header, features) == 124, "features");

struct dw_capture_zstd;
struct dw_pack_writer;

/*
 * @z:		the compressor after dw_capture_compress(); NULL: records are
 *		written as they are.
 * @pack:	the packer after dw_capture_pack(); NULL: no record is packed.
 * @raw_bytes:	bytes of records handed to dw_capture_write() (before
 *		packing and compression).
 * @raw_count:	records handed to it (@hdr.record_count: those stored, a
 *		pack counting as one).
 * @batch:	records not yet in the file (DW_CAPTURE_CHUNK bytes), the
 *		first @batch_len of them used.
 * @err:	the first error writing a batch (-errno), 0: none; every
 *		later write and flush returns it.
 */
struct dw_capture_writer {
	FILE *f;
	const char *path;
	struct dw_capture_header hdr;
	struct dw_capture_zstd *z;
	struct dw_pack_writer *pack;
	__u64 raw_bytes;
	__u64 raw_count;
	unsigned char *batch;
	size_t batch_len;
	int err;
};

/*
 * A capture file read and validated as a whole: @data holds the records,
 * 8-byte aligned.  Why a capture is refused is said through dw_warn() when
 * it is read; what a capture cut short (@cut) and still read is missing,
 * by dw_capture_warn_cut().
 */
struct dw_capture_reader {
	struct dw_capture_header hdr;
	unsigned char *data;		/* the whole records */
	__u64 len;
	__u64 pos;			/* iterator */
	unsigned long skipped;		/* records of unknown type */
	int cut;			/* the file ends early: read up to its last whole record */
	__u64 missing;			/* bytes known to be missing at the end (cut) */
	__u64 zlen;			/* compressed: bytes of the stream in the file */
	__u64 whole;			/* cut: the whole records read */
	__u64 packs;			/* packed: DW_REC_PACKs unpacked */
	const char *path;		/* dw_capture_open()'s @path (messages); NULL: parsed */
};

/* Writes reach the file in batches of this many bytes (and at each flush);
   every record fits one (its size field is 16 bits). */
#define DW_CAPTURE_CHUNK	(64 * 1024)

int dw_capture_create(struct dw_capture_writer *w, const char *path,
		      const struct dunwind_config *cfg);
int dw_capture_create_new(struct dw_capture_writer *w, const char *path,
			  const struct dunwind_config *cfg, int overwrite);
int dw_capture_compress(struct dw_capture_writer *w, int level);
int dw_capture_pack(struct dw_capture_writer *w);
int dw_capture_rewrite_header(struct dw_capture_writer *w);
int dw_capture_write(struct dw_capture_writer *w, const struct dunwind_rec_header *rec);
int dw_capture_write_checked(struct dw_capture_writer *w, const struct dunwind_rec_header *rec);
void *dw_capture_reserve(struct dw_capture_writer *w, __u32 size);
int dw_capture_flush(struct dw_capture_writer *w);
int dw_capture_close(struct dw_capture_writer *w);

int dw_capture_parse(struct dw_capture_reader *r, const void *buf, size_t len);
int dw_capture_open(struct dw_capture_reader *r, const char *path);
const struct dunwind_rec_header *dw_capture_next(struct dw_capture_reader *r);
const struct dunwind_rec_header *dw_capture_next_any(struct dw_capture_reader *r);
void dw_capture_warn_cut(const struct dw_capture_reader *r);
const char *dw_capture_name(const struct dw_capture_reader *r);
int dw_capture_same_boot(const struct dw_capture_header *h);
void dw_capture_release(struct dw_capture_reader *r);

#endif
