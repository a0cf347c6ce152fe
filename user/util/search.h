/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binary search, once, over arrays sorted by a 64-bit unsigned key (a
 * start address): how many elements start at or below @key.  The one
 * that may hold @key is then the last of those:
 *
 *	n = DW_UPPER_BOUND(t->syms, t->nr, start, addr);
 *	if (!n || addr - t->syms[n - 1].start >= t->syms[n - 1].size)
 *		return NULL;
 */
#ifndef DW_UTIL_SEARCH_H
#define DW_UTIL_SEARCH_H

#include <stddef.h>
#include <stdint.h>

size_t dw_upper_bound(const void *base, size_t nr, size_t size, size_t key_off, uint64_t key);

/* Elements of @arr[0..@nr) whose member @field (64 bits, sorted) is <= @key. */
#define DW_UPPER_BOUND(arr, nr, field, key)						\
	((void)sizeof(char[sizeof((arr)->field) == sizeof(uint64_t) ? 1 : -1]),		\
	 dw_upper_bound((arr), (nr), sizeof(*(arr)), offsetof(__typeof__(*(arr)), field), (key)))

#endif
