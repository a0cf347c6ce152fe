/* SPDX-License-Identifier: GPL-2.0 */
/* A user symbol snapshot read from its text, as a capture's DW_REC_USYMS record holds it. */
#ifndef DW_TEST_USNAP_TEXT_H
#define DW_TEST_USNAP_TEXT_H

#include <string.h>
#include <zlib.h>

#include "capture/usnap.h"

/* The snapshot of @text, loaded (*@err: dw_usnap_load()'s answer); NULL if it could not be built. */
static inline struct dw_usnap *usnap_text(const char *text, size_t len, int *err)
{
	union {
		struct dw_rec_zchunk r;
		__u64 raw[1024];
	} rec;
	uLongf zlen = sizeof(rec) - sizeof(rec.r);
	struct dw_usnap *u = dw_usnap_new();

	memset(&rec, 0, sizeof(rec));
	if (!u || compress2(rec.r.data, &zlen, (const Bytef *)text, len, 6) != Z_OK) {
		dw_usnap_free(u);
		return NULL;
	}
	rec.r.hdr.type = DW_REC_USYMS;
	rec.r.hdr.size = (__u16)dw_rec_zchunk_size((__u32)zlen);
	rec.r.kind = DW_USYMS_TEXT;
	rec.r.len = (__u32)zlen;
	rec.r.total = zlen;
	rec.r.raw = len;
	dw_usnap_add(u, &rec.r.hdr);
	*err = dw_usnap_load(u);
	return u;
}

#endif
