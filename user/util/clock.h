/* SPDX-License-Identifier: GPL-2.0 */
/* Clocks, once: nanoseconds of a clock, and the monotonic clock for timing. */
#ifndef DW_UTIL_CLOCK_H
#define DW_UTIL_CLOCK_H

#include <time.h>

/* dw_clock_ns() - @id's time in ns; 0 if the clock cannot be read. */
static inline unsigned long long dw_clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* dw_now_ns() - CLOCK_MONOTONIC in ns, for durations. */
static inline unsigned long long dw_now_ns(void)
{
	return dw_clock_ns(CLOCK_MONOTONIC);
}

/* dw_now_ms() - CLOCK_MONOTONIC in ms, for timeouts. */
static inline long long dw_now_ms(void)
{
	return (long long)(dw_now_ns() / 1000000ULL);
}

#endif
