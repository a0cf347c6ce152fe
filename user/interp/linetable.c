// SPDX-License-Identifier: GPL-2.0
/* CPython's location table: see linetable.h. */
#include <errno.h>

#include "interp/linetable.h"

/* Lines beyond this are taken for a corrupted table. */
#define PY_MAX_LINE	(1 << 30)

/* An unsigned varint at *@i: 6 bits a byte, bit 6 set while more follow. */
static int py_varint(const __u8 *t, size_t len, size_t *i, __u32 *v)
{
	__u32 shift = 0, b;

	*v = 0;
	do {
		if (*i >= len || shift > 24)
			return -EINVAL;
		b = t[(*i)++];
		if (b & 0x80)			/* the next entry's first byte */
			return -EINVAL;
		*v |= (b & 63) << shift;
		shift += 6;
	} while (b & 64);
	return 0;
}

static int py_svarint(const __u8 *t, size_t len, size_t *i, __s64 *v)
{
	__u32 u;
	int err = py_varint(t, len, i, &u);

	if (!err)
		*v = (u & 1) ? -(__s64)(u >> 1) : (__s64)(u >> 1);
	return err;
}

/* Skip @n plain bytes (columns), which must not start an entry. */
static int py_skip(const __u8 *t, size_t len, size_t *i, unsigned int n)
{
	while (n--) {
		if (*i >= len || (t[*i] & 0x80))
			return -EINVAL;
		(*i)++;
	}
	return 0;
}

/* Decode the entry at *@i: its code units in *@units, its line delta, no location. */
static int py_entry(const __u8 *t, size_t len, size_t *i, __u32 *units, __s64 *delta,
		    int *none)
{
	__u8 first = t[(*i)++];
	__u32 code = first >> 3 & 15, u;
	int err = 0;

	if (!(first & 0x80))
		return -EINVAL;
	*units = (first & 7U) + 1;
	*delta = 0;
	*none = code == 15;
	if (code <= 9)
		err = py_skip(t, len, i, 1);
	else if (code <= 12) {
		*delta = code - 10;
		err = py_skip(t, len, i, 2);
	} else if (code == 13) {
		err = py_svarint(t, len, i, delta);
	} else if (code == 14) {
		err = py_svarint(t, len, i, delta);
		if (!err)
			err = py_varint(t, len, i, &u);		/* end line delta */
		if (!err)
			err = py_varint(t, len, i, &u);		/* start column + 1 */
		if (!err)
			err = py_varint(t, len, i, &u);		/* end column + 1 */
	}
	return err;
}

int dw_py_line(const __u8 *table, size_t len, int firstlineno, __s32 insn, int *line)
{
	__u64 at = 0, target;
	__s64 cur = firstlineno, delta;
	__u32 units;
	size_t i = 0;
	int none, err;

	if (insn < 0) {
		*line = firstlineno;
		return 0;
	}
	target = (__u64)insn / 2;
	while (i < len) {
		err = py_entry(table, len, &i, &units, &delta, &none);
		if (err)
			return err;
		cur += delta;
		if (cur < -PY_MAX_LINE || cur > PY_MAX_LINE)
			return -EINVAL;
		if (target < at + units) {
			*line = none ? -1 : (int)cur;
			return 0;
		}
		at += units;
	}
	return -ENOENT;
}
