// SPDX-License-Identifier: GPL-2.0
/* The growable byte buffer: see buf.h. */
#include <errno.h>
#include <string.h>

#include "util/array.h"
#include "util/buf.h"

/**
 * dw_buf_put() - append bytes
 * @b:		buffer; nothing happens once @b->err is set
 * @d:		the bytes, or NULL for @n zero bytes
 * @n:		how many
 *
 * Context: user space.  On failure @b->err is -ENOMEM and @b keeps what
 * it held.
 */
void dw_buf_put(struct dw_buf *b, const void *d, size_t n)
{
	if (b->err)
		return;
	if (dw_array_reserve(&b->p, &b->cap, b->len + n, 1, 4096)) {
		b->err = -ENOMEM;
		return;
	}
	if (d)
		memcpy(b->p + b->len, d, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}

/* dw_buf_put_u32() - append @v in host byte order. */
void dw_buf_put_u32(struct dw_buf *b, __u32 v)
{
	dw_buf_put(b, &v, sizeof(v));
}

/* dw_buf_put_u64() - append @v in host byte order. */
void dw_buf_put_u64(struct dw_buf *b, __u64 v)
{
	dw_buf_put(b, &v, sizeof(v));
}
