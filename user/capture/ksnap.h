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
#include "capture/zchunk.h"
#include "symbols/kallsyms.h"

/* A capture-only record type: above every type the module writes. */
#define DW_REC_KSYMS		64

/* Its records are deflated chunks (capture/zchunk.h) of two kinds. */
#define DW_KSYMS_KALLSYMS	1	/* "ADDR TYPE NAME [MOD]" lines */
#define DW_KSYMS_MODULES	2	/* /proc/modules lines */

int dw_ksnap_write(struct dw_capture_writer *w, const char *kallsyms, const char *modules);
int dw_ksnap_write_ips(struct dw_capture_writer *w, const char *kallsyms, const char *modules,
		       const __u64 *ips, size_t nips);
int dw_ksnap_write_dev(struct dw_capture_writer *w, int dev_fd, const char *modules,
		       const __u64 *ips, size_t nips);

struct dw_ksnap;
struct dw_ksnap *dw_ksnap_new(void);
int dw_ksnap_add(struct dw_ksnap *k, const struct dunwind_rec_header *rec);
struct dw_kallsyms *dw_ksnap_symbols(struct dw_ksnap *k);
/* Why dw_ksnap_symbols() failed with @err (errno, either sign), in words. */
const char *dw_ksnap_strerror(int err);
int dw_ksnap_present(const struct dw_ksnap *k);
void dw_ksnap_free(struct dw_ksnap *k);

#endif
