/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Growable arrays and buffers, once: capacity doubles from a first size.
 *
 *	if (DW_ARRAY_RESERVE(t->rows, t->cap, t->nr + 1, 1024))
 *		return -ENOMEM;
 *	t->rows[t->nr++] = row;
 */
#ifndef DW_UTIL_ARRAY_H
#define DW_UTIL_ARRAY_H

#include <stddef.h>

int dw_array_reserve(void *arr, size_t *cap, size_t need, size_t size, size_t first);

/* Room for @need elements in the array @arr of capacity @cap (a size_t). */
#define DW_ARRAY_RESERVE(arr, cap, need, first) \
	dw_array_reserve(&(arr), &(cap), (need), sizeof(*(arr)), (first))

#endif
