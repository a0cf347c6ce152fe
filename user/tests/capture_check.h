/* SPDX-License-Identifier: GPL-2.0 */
/* Capture tests: parse a capture held in memory as a reader would, hostile or not. */
#ifndef DW_TEST_CAPTURE_CHECK_H
#define DW_TEST_CAPTURE_CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "record.h"
#include "capture/capture.h"
#include "util/log.h"

/* What the library said (its warnings) since said_clear(), printed nowhere. */
static char said[4096];

static inline int said_keep(enum dw_print_level level, const char *fmt, va_list args)
{
	size_t n = strlen(said);

	if (level == DW_WARN && n < sizeof(said) - 1)
		vsnprintf(said + n, sizeof(said) - n, fmt, args);
	return 0;
}

/* Start listening: what the library says goes to @said, not to stderr. */
static inline dw_print_fn_t said_clear(void)
{
	said[0] = '\0';
	return dw_set_print(said_keep);
}

/* The first MiB of @p (*@len bytes); free() it. */
static inline unsigned char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "r");
	unsigned char *buf = malloc(1 << 20);

	*len = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/*
 * Parse @buf; if accepted, walk every record.  *@bad counts records that
 * are not well formed and refusals that give no reason.  @out, if not
 * NULL, gets the reader (release it).  @said holds why it was refused, or
 * what a cut capture is missing (dw_capture_warn_cut()).
 * Return: the records read (>= 0), or the error (< 0).
 */
static inline int parse_count(const void *buf, size_t len, int *bad,
			      struct dw_capture_reader *out)
{
	const struct dunwind_rec_header *rec;
	struct dw_capture_reader r;
	dw_print_fn_t old = said_clear();
	int err = dw_capture_parse(&r, buf, len), n = 0;

	if (!err)
		dw_capture_warn_cut(&r);
	dw_set_print(old);
	if (err && !said[0])
		(*bad)++;		/* refused without saying why */
	while (!err && (rec = dw_capture_next(&r))) {
		if (dunwind_rec_check(rec, rec->size) || (uintptr_t)rec % 8)
			(*bad)++;
		n++;
	}
	if (out)
		*out = r;
	else
		dw_capture_release(&r);
	return err ? err : n;
}

/* Does parsing @buf fail with -EINVAL, saying @what? */
static inline int expect_error(const void *buf, size_t len, const char *what)
{
	struct dw_capture_reader r;
	int bad = 0, err = parse_count(buf, len, &bad, &r);
	int hit = err == -EINVAL && strstr(said, what) != NULL;

	if (!hit)
		ksft_print_msg("got %d '%s', wanted '%s'\n", err, said, what);
	dw_capture_release(&r);
	return hit;
}

#endif
