// SPDX-License-Identifier: GPL-2.0
/* The file execvp() would run for a command name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/exec_path.h"

/**
 * dw_find_in_path() - the file execvp() would run for @name
 * @name:	a command name, or a path (then taken as it is)
 * @buf:	receives the path
 * @len:	size of @buf
 *
 * Context: user space.
 * Return: 0, or -ENOENT when no executable file has that name.
 */
int dw_find_in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return access(buf, X_OK) ? -ENOENT : 0;
	}
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (snprintf(buf, len, "%.*s/%s", (int)(end - p), end == p ? "." : p, name) <
		    (int)len && !access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}
