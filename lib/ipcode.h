/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The IPs of a SAMPLE_STACK record, coded compactly: each the zigzag
 * LEB128 of its difference from the one before (the first from 0), as
 * uapi/linux/dunwind.h describes.  Return addresses of one stack lie close
 * together: 1 to 3 bytes within a file, about 6 across files, instead of 8.
 * Its zigzag and LEB128 steps also code the capture's packed records
 * (user/capture/pack.c).
 * Shared by the module (which codes) and user space (which decodes).
 * Pure C: no kernel-only or libc-only calls.
 */
#ifndef DUNWIND_LIB_IPCODE_H
#define DUNWIND_LIB_IPCODE_H

#include <linux/dunwind.h>

/* A signed difference as an unsigned number that is small either way. */
static inline __u64 dunwind_zigzag(__u64 d)
{
	return (d << 1) ^ (__u64)((__s64)d >> 63);
}

static inline __u64 dunwind_unzigzag(__u64 z)
{
	return (z >> 1) ^ (0 - (z & 1));
}

/*
 * @z as LEB128 at @dst (room for DUNWIND_IPCODE_MAX bytes); the bytes
 * written.  Two bytes a round while three or more are left: a difference
 * across files takes seven, and the module codes every IP of a walk.
 */
static inline __u32 dunwind_leb128_put(__u8 *dst, __u64 z)
{
	__u32 n = 0;

	while (z >= 0x4000) {
		dst[n] = (__u8)(z | 0x80);
		dst[n + 1] = (__u8)(z >> 7 | 0x80);
		n += 2;
		z >>= 14;
	}
	if (z >= 0x80) {
		dst[n++] = (__u8)(z | 0x80);
		z >>= 7;
	}
	dst[n++] = (__u8)z;
	return n;
}

/*
 * The LEB128 value at @src[*@pos] (hostile input, @len bytes): 0 with
 * *@pos past it, or -22 (EINVAL) if it runs past @len or takes more than
 * DUNWIND_IPCODE_MAX bytes.
 */
static inline int dunwind_leb128_get(const __u8 *src, __u32 len, __u32 *pos, __u64 *z)
{
	__u64 v = 0;
	__u32 k;
	__u8 b;

	for (k = 0; k < DUNWIND_IPCODE_MAX; k++) {
		if (*pos >= len)
			return -22;
		b = src[(*pos)++];
		v |= (__u64)(b & 0x7f) << (7 * k);
		if (!(b & 0x80)) {
			*z = v;
			return 0;
		}
	}
	return -22;
}

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
	__u64 prev = 0;
	__u32 len = 0, i;

	for (i = 0; i < nr; i++) {
		len += dunwind_leb128_put(dst + len, dunwind_zigzag(ips[i] - prev));
		prev = ips[i];
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
	__u32 pos = 0, i;

	for (i = 0; i < nr; i++) {
		if (dunwind_leb128_get(src, len, &pos, &z))
			return -22;
		prev += dunwind_unzigzag(z);
		if (ips)
			ips[i] = prev;
	}
	return (int)pos;
}

/* 8 bytes at @src as a word whose bits 8i..8i+7 hold byte i. */
static inline __u64 dunwind_ipcode_word(const __u8 *src)
{
	__u64 w;

	__builtin_memcpy(&w, src, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The top bits of the bytes of @w that end an IP (or are padding). */
static inline __u64 dunwind_ipcode_ends(__u64 w)
{
	return ~w & 0x8080808080808080ULL;
}

/* How many bytes @ends (from dunwind_ipcode_ends()) marks: 0..8. */
static inline __u32 dunwind_ipcode_count(__u64 ends)
{
	return (__u32)(((ends >> 7) * 0x0101010101010101ULL) >> 56);
}

/*
 * Runs of bytes with the top bit set, in bits (8 a byte): an IP of n
 * bytes is a run of n - 1 such bytes, then its last byte.
 */
#define DUNWIND_IPCODE_RUN_MAX	(8 * (DUNWIND_IPCODE_MAX - 1))

/**
 * dunwind_ipcode_check() - do @len bytes at @src hold @nr coded IPs, then padding?
 * @src:	the coded IPs and their padding (hostile input), any alignment
 * @len:	bytes at @src, a multiple of 8
 * @nr:		how many IPs they must hold
 *
 * The verdict of dunwind_ipcode_decode(@src, @len, NULL, @nr) followed by
 * the check that fewer than 8 bytes, all zero, come after the IPs, taken
 * 8 bytes at a time: the @nr-th last byte of an IP must lie in the last 8
 * bytes, followed by zeros only, and no IP may take more than
 * DUNWIND_IPCODE_MAX bytes.  For readers that check IPs they do not need
 * (the recorder).
 *
 * Return: the bytes the @nr IPs took, or -22 (EINVAL).
 */
static inline int dunwind_ipcode_check(const __u8 *src, __u32 len, __u32 nr)
{
	__u32 pos, last = len - 8, seen = 0, run = 0, need, b;
	__u64 w, ends;

	if (len % 8 || !nr || !len)
		return len || nr ? -22 : 0;
	for (pos = 0; pos < last; pos += 8) {
		ends = dunwind_ipcode_ends(dunwind_ipcode_word(src + pos));
		if (!ends) {
			run += 64;	/* all 8 bytes continue one IP */
			if (run > DUNWIND_IPCODE_RUN_MAX)
				return -22;
			continue;
		}
		/* The run so far goes on up to the first end (bit 8k + 7). */
		if (run + (__u32)__builtin_ctzll(ends) - 7 > DUNWIND_IPCODE_RUN_MAX)
			return -22;
		seen += dunwind_ipcode_count(ends);
		run = (__u32)__builtin_clzll(ends);	/* the bytes after the last end */
	}
	/* The last 8 bytes: the rest of the IPs, then zeros only. */
	w = dunwind_ipcode_word(src + last);
	ends = dunwind_ipcode_ends(w);
	if (seen >= nr || !ends || run + (__u32)__builtin_ctzll(ends) - 7 > DUNWIND_IPCODE_RUN_MAX)
		return -22;
	need = nr - seen;
	if (dunwind_ipcode_count(ends) < need)
		return -22;
	while (--need)
		ends &= ends - 1;
	b = (__u32)__builtin_ctzll(ends) / 8;	/* the last IP's last byte */
	if (b < 7 && w >> (8 * (b + 1)))
		return -22;
	return (int)(last + b + 1);
}

#endif /* DUNWIND_LIB_IPCODE_H */
