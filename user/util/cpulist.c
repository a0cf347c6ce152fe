// SPDX-License-Identifier: GPL-2.0
/* CPU lists as the kernel writes them ("0-3,8,10-11") into a byte bitmap. */
#include <errno.h>
#include <string.h>

#include "util/cpulist.h"

/* One decimal CPU number at *@p, advancing it.  0 or -EINVAL. */
static int cpu_number(const char **p, unsigned long *cpu)
{
	unsigned long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > 1UL << 24)
			return -EINVAL;
	}
	*p = s;
	*cpu = v;
	return 0;
}

/**
 * dw_cpulist_parse() - a CPU list into a bitmap
 * @s:		"N", "N-M", comma-separated (no spaces)
 * @bits:	receives CPU n as bit n % 8 of byte n / 8; zeroed first
 * @size:	bytes at @bits
 * @used:	receives the bytes up to the highest CPU's
 *
 * Context: user space.
 * Return: 0; -EINVAL for a malformed list or a range that ends before it
 * starts; -ERANGE for a CPU beyond @size * 8.
 */
int dw_cpulist_parse(const char *s, unsigned char *bits, size_t size, size_t *used)
{
	unsigned long a, b, c;

	memset(bits, 0, size);
	*used = 0;
	if (!*s)
		return -EINVAL;
	for (;;) {
		if (cpu_number(&s, &a))
			return -EINVAL;
		b = a;
		if (*s == '-') {
			s++;
			if (cpu_number(&s, &b) || b < a)
				return -EINVAL;
		}
		if (b >= size * 8)
			return -ERANGE;
		for (c = a; c <= b; c++)
			bits[c / 8] |= (unsigned char)(1U << (c % 8));
		if (b / 8 + 1 > *used)
			*used = b / 8 + 1;
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}
