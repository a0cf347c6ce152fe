// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/maps: see maps.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/maps.h"

/**
 * dw_proc_maps_open() - start reading a process's mappings
 * @it:		the iterator
 * @pid:	the process; 0: this one
 *
 * Context: user space.
 * Return: 0, or -errno (-ENOENT: no such process).
 */
int dw_proc_maps_open(struct dw_proc_maps *it, int pid)
{
	char path[64];

	memset(it, 0, sizeof(*it));
	snprintf(path, sizeof(path), "/proc/%d/maps", pid ? pid : getpid());
	it->f = fopen(path, "re");
	return it->f ? 0 : -errno;
}

/**
 * dw_proc_maps_from() - read mappings from a stream in the maps format
 * @it:		the iterator
 * @f:		the stream, closed by dw_proc_maps_close()
 *
 * Context: user space.
 */
void dw_proc_maps_from(struct dw_proc_maps *it, FILE *f)
{
	memset(it, 0, sizeof(*it));
	it->f = f;
}

/**
 * dw_maps_parse_line() - one line of /proc/PID/maps
 * @line:	the line, NUL-terminated; cut at its newline and " (deleted)"
 * @l:		set to what it says; @l->path points into @line
 *
 * Context: any.
 * Return: 0, or -EINVAL (not a mapping line: fields missing, an empty or
 * reversed range).
 */
int dw_maps_parse_line(char *line, struct dw_maps_line *l)
{
	char *path, *del;
	int pos = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &l->start, &l->end, l->perms,
		   &l->offset, &l->dev_major, &l->dev_minor, &l->ino, &pos) < 7 || !pos ||
	    l->start >= l->end)
		return -EINVAL;
	path = line + pos;
	path[strcspn(path, "\n")] = 0;
	del = strstr(path, " (deleted)");
	l->deleted = del && !del[10];
	if (l->deleted)
		*del = 0;
	l->path = path;
	return 0;
}

/**
 * dw_proc_maps_next() - the next mapping
 * @it:		the iterator
 *
 * Lines that do not parse are passed over (the kernel writes them; a
 * reader still checks).  The line is valid until the next call.
 *
 * Context: user space.
 * Return: the mapping, or NULL at the end.
 */
const struct dw_maps_line *dw_proc_maps_next(struct dw_proc_maps *it)
{
	while (it->f && getline(&it->line, &it->cap, it->f) > 0)
		if (!dw_maps_parse_line(it->line, &it->cur))
			return &it->cur;
	return NULL;
}

/* dw_proc_maps_close() - end reading (also after an error or before the end). */
void dw_proc_maps_close(struct dw_proc_maps *it)
{
	if (it->f)
		fclose(it->f);
	free(it->line);
	memset(it, 0, sizeof(*it));
}
