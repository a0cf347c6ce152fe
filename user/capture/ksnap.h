/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbol snapshot stored in a capture: the recording machine's
 * /proc/kallsyms (text symbols only) and /proc/modules, zlib-compressed
 * and cut into DW_REC_KSYMS records.  Documentation/capture.rst describes
 * the record.  Readers that do not know the type skip it by its size.
 */
#ifndef DW_KSNAP_H
#define DW_KSNAP_H

#include <stddef.h>
#include <linux/dunwind.h>

#include "capture/capture.h"
#include "symbols/kallsyms.h"

/* A capture-only record type: above every type the module writes. */
#define DW_REC_KSYMS		64

#define DW_KSYMS_KALLSYMS	1	/* "ADDR TYPE NAME [MOD]" lines */
#define DW_KSYMS_MODULES	2	/* /proc/modules lines */

/* Data bytes per record: the record size field is 16 bits. */
#define DW_KSYMS_CHUNK		32768
/* Readers refuse snapshots that inflate to more than this. */
#define DW_KSYMS_RAW_MAX	(256U << 20)

/*
 * @kind:	DW_KSYMS_*.
 * @seq:	chunk number of this kind, from 0, consecutive.
 * @len:	bytes of @data used; the record is padded with zeros to 8.
 * @__reserved:	zero.
 * @total:	compressed bytes of all chunks of this kind together.
 * @raw:	bytes once inflated (the zlib stream's content).
 */
struct dw_rec_ksyms {
	struct dunwind_rec_header hdr;
	__u32 kind;
	__u32 seq;
	__u32 len;
	__u32 __reserved;
	__u64 total;
	__u64 raw;
	__u8 data[];
};

/* Bytes of a DW_REC_KSYMS record carrying @len bytes of data. */
static inline __u32 dw_rec_ksyms_size(__u32 len)
{
	return (__u32)((sizeof(struct dw_rec_ksyms) + len + 7) & ~7UL);
}

int dw_ksnap_write(struct dw_capture_writer *w, const char *kallsyms, const char *modules);
int dw_ksnap_write_ips(struct dw_capture_writer *w, const char *kallsyms, const char *modules,
		       const __u64 *ips, size_t nips);

struct dw_ksnap;
struct dw_ksnap *dw_ksnap_new(void);
int dw_ksnap_add(struct dw_ksnap *k, const struct dunwind_rec_header *rec);
struct dw_kallsyms *dw_ksnap_symbols(struct dw_ksnap *k, char *err, size_t errlen);
int dw_ksnap_present(const struct dw_ksnap *k);
void dw_ksnap_free(struct dw_ksnap *k);

#endif
