/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growable byte buffer that remembers its first failure: write into it
 * without checking each call, check ->err once at the end.
 *
 *	dw_buf_put_u32(&b, n);
 *	dw_buf_put(&b, name, len);
 *	if (b.err)
 *		return b.err;
 */
#ifndef DW_UTIL_BUF_H
#define DW_UTIL_BUF_H

#include <stddef.h>
#include <linux/types.h>

struct dw_buf {
	unsigned char *p;
	size_t len, cap;
	int err;			/* -ENOMEM once a write failed: no more are made */
};

void dw_buf_put(struct dw_buf *b, const void *d, size_t n);
void dw_buf_put_u32(struct dw_buf *b, __u32 v);
void dw_buf_put_u64(struct dw_buf *b, __u64 v);

#endif
