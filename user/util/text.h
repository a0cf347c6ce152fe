/* SPDX-License-Identifier: GPL-2.0 */
/* Text read line by line, from a file or from memory (text.c). */
#ifndef DW_UTIL_TEXT_H
#define DW_UTIL_TEXT_H

#include <stddef.h>
#include <stdio.h>

FILE *dw_text_open(const char *text, size_t len, int empty_errno);
int dw_text_lines(FILE *f, int (*fn)(char *line, void *arg), void *arg);

#endif
