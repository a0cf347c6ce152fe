/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The IPs of a SAMPLE_STACK record, coded compactly: each the zigzag
 * LEB128 of its difference from the one before (the first from 0), as
 * uapi/linux/dunwind.h describes.  Return addresses of one stack lie close
 * together: 1 to 3 bytes within a file, about 6 across files, instead of 8.
 * Shared by the module (which codes) and user space (which decodes).
 * Pure C: no kernel-only or libc-only calls.
 */
#ifndef DUNWIND_LIB_IPCODE_H
#define DUNWIND_LIB_IPCODE_H

#include <linux/dunwind.h>

/**
 * dunwind_ipcode_encode() - code @nr IPs into @dst
 * @dst:	room for @nr * DUNWIND_IPCODE_MAX bytes
 * @ips:	the IPs
 * @nr:		how many
 *
 * Return: the bytes written.
 */
static inline __u32 dunwind_ipcode_encode(__u8 *dst, const __u64 *ips, __u32 nr)
{
	__u64 prev = 0, d, z;
	__u32 len = 0, i;

	for (i = 0; i < nr; i++) {
		d = ips[i] - prev;
		z = (d << 1) ^ (__u64)((__s64)d >> 63);
		prev = ips[i];
		while (z >= 0x80) {
			dst[len++] = (__u8)(z | 0x80);
			z >>= 7;
		}
		dst[len++] = (__u8)z;
	}
	return len;
}

/**
 * dunwind_ipcode_decode() - decode @nr IPs from @len bytes at @src
 * @src:	the coded IPs (hostile input)
 * @len:	bytes at @src
 * @ips:	room for @nr IPs, or NULL to check only
 * @nr:		how many
 *
 * Return: the bytes the @nr IPs took, or -22 (EINVAL) if they run past
 * @len or one takes more than DUNWIND_IPCODE_MAX bytes.
 */
static inline int dunwind_ipcode_decode(const __u8 *src, __u32 len, __u64 *ips, __u32 nr)
{
	__u64 prev = 0, z;
	__u32 pos = 0, i, k;
	__u8 b;

	for (i = 0; i < nr; i++) {
		z = 0;
		for (k = 0;; k++) {
			if (pos >= len || k == DUNWIND_IPCODE_MAX)
				return -22;
			b = src[pos++];
			z |= (__u64)(b & 0x7f) << (7 * k);
			if (!(b & 0x80))
				break;
		}
		prev += (z >> 1) ^ (0 - (z & 1));
		if (ips)
			ips[i] = prev;
	}
	return (int)pos;
}

#endif /* DUNWIND_LIB_IPCODE_H */
