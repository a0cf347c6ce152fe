// SPDX-License-Identifier: GPL-2.0
/* Number parsing: whole strings, no sign, a range. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "util/num.h"

int dw_parse_ull(const char *s, int base, unsigned long long min, unsigned long long max,
		 unsigned long long *v)
{
	unsigned long long n;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, base);
	if (end == s || *end)
		return -EINVAL;
	if (errno || n < min || n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

int dw_parse_double(const char *s, double min, double max, double *v)
{
	char *end;
	double d;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end)
		return -EINVAL;
	if (errno || !(d >= min && d <= max))
		return -ERANGE;
	*v = d;
	return 0;
}
