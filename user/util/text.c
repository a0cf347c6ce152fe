// SPDX-License-Identifier: GPL-2.0
/* Text read line by line: see text.h. */
#include <errno.h>
#include <stdlib.h>

#include "util/text.h"

/**
 * dw_text_open() - a read-only stream over @len bytes of text
 * @text:	the text (need not be NUL-terminated; not copied)
 * @len:	its length
 * @empty_errno: errno when @len is 0 (what an empty text means to the caller)
 *
 * Context: user space.  The readers of files take it as a file: one
 * parser serves a file and a copy of one (a capture's snapshot).
 * Return: the stream (fclose() it), or NULL with errno set.
 */
FILE *dw_text_open(const char *text, size_t len, int empty_errno)
{
	if (!len) {
		errno = empty_errno;
		return NULL;
	}
	return fmemopen((void *)text, len, "r");
}

/**
 * dw_text_lines() - call @fn on each line of @f, then close @f
 * @f:		stream (fopen(), dw_text_open())
 * @fn:		gets the line (with its newline, if any; it may change it) and @arg
 * @arg:	passed to @fn
 *
 * Context: user space, blocking I/O.
 * Return: 0, or the first non-zero value @fn returned (the lines after
 * it are not read).
 */
int dw_text_lines(FILE *f, int (*fn)(char *line, void *arg), void *arg)
{
	size_t cap = 0;
	char *line = NULL;
	int ret = 0;

	while (!ret && getline(&line, &cap, f) > 0)
		ret = fn(line, arg);
	free(line);
	fclose(f);
	return ret;
}
