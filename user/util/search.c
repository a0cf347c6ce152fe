// SPDX-License-Identifier: GPL-2.0
/* Binary search over a sorted 64-bit key: see search.h. */
#include <string.h>

#include "util/search.h"

/**
 * dw_upper_bound() - how many elements have a key at or below @key
 * @base:	the array, sorted by the key (ascending)
 * @nr:		its elements
 * @size:	bytes per element
 * @key_off:	offset of the 64-bit key in an element
 * @key:	the key looked for
 *
 * Context: any; O(log @nr).
 * Return: the index of the first element whose key is above @key (@nr if
 * none is).
 */
size_t dw_upper_bound(const void *base, size_t nr, size_t size, size_t key_off, uint64_t key)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v;

		memcpy(&v, (const char *)base + mid * size + key_off, sizeof(v));
		if (v <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
