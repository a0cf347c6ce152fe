// SPDX-License-Identifier: GPL-2.0
/*
 * debuginfod client: libdebuginfod.so.1 is opened on first use when
 * DEBUGINFOD_URLS names a server; its functions are looked up by name.
 * The library keeps its own on-disk cache ($DEBUGINFOD_CACHE_PATH or
 * ~/.cache/debuginfod_client); callers cache what they opened per
 * build-id, so each build-id is asked for at most once per kind.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/debuginfod.h"

typedef void *(*begin_fn)(void);
typedef int (*find_fn)(void *client, const unsigned char *id, int id_len, char **path);
typedef void (*end_fn)(void *client);

static struct {
	int tried;
	void *lib;
	void *client;
	find_fn find_debuginfo, find_executable;
	end_fn end;
} dfd;

/**
 * dw_debuginfod_enabled() - can debuginfod be asked?
 *
 * Context: user space; loads libdebuginfod on the first call.
 * Return: 1 if DEBUGINFOD_URLS is set and libdebuginfod.so.1 loaded, else 0.
 */
int dw_debuginfod_enabled(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	begin_fn begin;

	if (dfd.tried)
		return dfd.client != NULL;
	dfd.tried = 1;
	if (!urls || !*urls)
		return 0;
	dfd.lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!dfd.lib)
		return 0;
	begin = (begin_fn)dlsym(dfd.lib, "debuginfod_begin");
	dfd.find_debuginfo = (find_fn)dlsym(dfd.lib, "debuginfod_find_debuginfo");
	dfd.find_executable = (find_fn)dlsym(dfd.lib, "debuginfod_find_executable");
	dfd.end = (end_fn)dlsym(dfd.lib, "debuginfod_end");
	if (begin && dfd.find_debuginfo && dfd.find_executable && dfd.end)
		dfd.client = begin();
	if (!dfd.client) {
		dlclose(dfd.lib);
		dfd.lib = NULL;
	}
	return dfd.client != NULL;
}

/**
 * dw_debuginfod_find() - fetch a file by build-id
 * @kind:	debug info or the executable itself
 * @build_id:	GNU build-id bytes
 * @build_id_size: 1..64
 * @path:	set to the cached file's path (malloc'd, the caller frees)
 *		on success, else NULL
 *
 * Context: user space; blocks on the network (libdebuginfod's timeouts).
 * Return: an open read-only file descriptor, -ENOSYS if debuginfod is not
 * configured or libdebuginfod is missing, -EINVAL for a bad build-id, or
 * libdebuginfod's -errno (-ENOENT: no server has it).
 */
int dw_debuginfod_find(enum dw_debuginfod_kind kind, const unsigned char *build_id,
		       size_t build_id_size, char **path)
{
	find_fn fn;

	*path = NULL;
	if (!build_id_size || build_id_size > 64)
		return -EINVAL;
	if (!dw_debuginfod_enabled())
		return -ENOSYS;
	fn = kind == DW_DEBUGINFOD_EXECUTABLE ? dfd.find_executable : dfd.find_debuginfo;
	return fn(dfd.client, build_id, (int)build_id_size, path);
}

/**
 * dw_debuginfod_close() - release the client and the library
 *
 * Context: user space.
 */
void dw_debuginfod_close(void)
{
	if (dfd.client)
		dfd.end(dfd.client);
	if (dfd.lib)
		dlclose(dfd.lib);
	memset(&dfd, 0, sizeof(dfd));
}
