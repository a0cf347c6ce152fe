/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP output for the host unit tests: "ok N - name" or
 * "not ok N - name", then a plan line.  tests/run adds them up.
 */
#ifndef DW_TEST_TAP_H
#define DW_TEST_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3)))
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

/* A test that cannot run here: counted as passed, says why. */
__attribute__((format(printf, 2, 3)))
static inline void tap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - %s # SKIP ", ++tap_count, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

#endif
