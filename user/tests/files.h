/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files and command output for the host tests: write a file, read one
 * whole, read what a shell command prints.  Written once here for every
 * tests/<name>_test.c that needs them.
 */
#ifndef DW_TEST_FILES_H
#define DW_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write @len bytes of @buf to @path (created or truncated): 0, or -1. */
static inline int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* Write the string @text to @path: 0, or -1. */
static inline int write_text(const char *path, const char *text)
{
	return write_file(path, text, strlen(text));
}

/* All of @path, NUL-terminated, its size in *@len; NULL if unreadable.  free() it. */
static inline char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/*
 * The text of @path, "" if unreadable: for a look at a command's output.
 * It lives until the next call (copy what must outlive that).
 */
static inline const char *read_text(const char *path)
{
	static char *last;
	size_t len;

	free(last);
	last = read_file(path, &len);
	return last ? last : "";
}

/* What `sh -c @cmd` prints on stdout; NULL if it cannot run or exits non-zero.  free() it. */
static inline char *cmd_output(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL, chunk[4096];
	size_t len = 0, n;
	FILE *m;

	if (!p)
		return NULL;
	m = open_memstream(&buf, &len);
	while (m && (n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, m);
	if (m)
		fclose(m);
	if (pclose(p) || !m) {
		free(buf);
		return NULL;
	}
	return buf;
}

#endif
