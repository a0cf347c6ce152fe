/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Little-endian loads from a byte buffer (no alignment assumed) and two's
 * complement reinterpretation without implementation-defined casts: the
 * one reader of the ELF and SFrame decoders (elfread.c, sframe.c).  Only
 * <linux/types.h>, as they.
 */
#ifndef DUNWIND_LIB_LE_H
#define DUNWIND_LIB_LE_H

#include <linux/types.h>

static inline __u32 dunwind_le16(const __u8 *p)
{
	return (__u32)p[0] | (__u32)p[1] << 8;
}

static inline __u32 dunwind_le32(const __u8 *p)
{
	return (__u32)p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 | (__u32)p[3] << 24;
}

static inline __u64 dunwind_le64(const __u8 *p)
{
	return (__u64)dunwind_le32(p) | (__u64)dunwind_le32(p + 4) << 32;
}

/* @v as a signed 64-bit number. */
static inline __s64 dunwind_s64(__u64 v)
{
	if (v >> 63)
		return -(__s64)(~v) - 1;
	return (__s64)v;
}

/* The low @bytes (1 to 4) of @v, sign-extended. */
static inline __s32 dunwind_sext(__u32 v, __u32 bytes)
{
	__u32 bits = bytes * 8;

	if (bits < 32 && (v >> (bits - 1)) & 1)
		v |= ~0u << bits;
	if (v >> 31)
		return -(__s32)(~v) - 1;
	return (__s32)v;
}

#endif /* DUNWIND_LIB_LE_H */
