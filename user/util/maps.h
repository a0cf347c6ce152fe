/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/PID/maps, read once here: an iterator over its lines.
 *
 *	struct dw_proc_maps it;
 *	const struct dw_maps_line *l;
 *
 *	err = dw_proc_maps_open(&it, pid);
 *	while (!err && (l = dw_proc_maps_next(&it)))
 *		...;
 *	dw_proc_maps_close(&it);
 */
#ifndef DW_UTIL_MAPS_H
#define DW_UTIL_MAPS_H

#include <stdio.h>

struct dw_maps_line {
	unsigned long long start, end;	/* [start, end) */
	unsigned long long offset;	/* file offset of start */
	unsigned long long ino;		/* 0: not a file */
	unsigned int dev_major, dev_minor;
	char perms[8];			/* "r-xp" */
	const char *path;		/* "" anonymous; "[heap]"; without " (deleted)" */
	int deleted;			/* the path ended in " (deleted)" */
};

struct dw_proc_maps {
	FILE *f;
	char *line;
	size_t cap;
	struct dw_maps_line cur;
};

int dw_proc_maps_open(struct dw_proc_maps *it, int pid);
void dw_proc_maps_from(struct dw_proc_maps *it, FILE *f);
int dw_maps_parse_line(char *line, struct dw_maps_line *l);
const struct dw_maps_line *dw_proc_maps_next(struct dw_proc_maps *it);
void dw_proc_maps_close(struct dw_proc_maps *it);

#endif
