// SPDX-License-Identifier: GPL-2.0
/* Growable arrays: see array.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

/**
 * dw_array_reserve() - make an array hold at least @need elements
 * @arr:	address of the array pointer (any element type)
 * @cap:	its capacity in elements, updated
 * @need:	elements it must hold
 * @size:	bytes per element
 * @first:	capacity of a first allocation; it doubles from there
 *
 * Context: user space.
 * Return: 0, or -ENOMEM with the array and @cap as they were.
 */
int dw_array_reserve(void *arr, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t ncap = *cap ? *cap : (first ? first : 1);
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return -ENOMEM;
	memcpy(&p, arr, sizeof(p));
	p = realloc(p, ncap * size);
	if (!p)
		return -ENOMEM;
	memcpy(arr, &p, sizeof(p));
	*cap = ncap;
	return 0;
}
