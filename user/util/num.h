/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Number parsing, once: a whole string, no sign, in a range.  Every
 * option value and every number read from a text file goes through here.
 */
#ifndef DW_UTIL_NUM_H
#define DW_UTIL_NUM_H

/*
 * dw_parse_ull() - the whole of @s as an unsigned number in [@min, @max]
 * @s:		the text ("-" signs are refused, unlike strtoull's)
 * @base:	10, 16, or 0 for C's prefixes (0x, 0)
 * @min, @max:	the range
 * @v:		set on success
 *
 * Return: 0, -EINVAL if @s is not a number, -ERANGE if out of range.
 */
int dw_parse_ull(const char *s, int base, unsigned long long min, unsigned long long max,
		 unsigned long long *v);

/* dw_parse_double() - the whole of @s as a number in [@min, @max]; 0 or -EINVAL/-ERANGE. */
int dw_parse_double(const char *s, double min, double max, double *v);

#endif
