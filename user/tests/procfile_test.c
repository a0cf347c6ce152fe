// SPDX-License-Identifier: GPL-2.0
/*
 * A live process's mapped file: through /proc/PID/root while the path is
 * the mapped file; through /proc/PID/map_files once the path names another
 * file (a package upgrade) or is gone; the path as is when neither is
 * readable.  The process is this test, mapping a copy of its own binary.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "tap.h"
#include "symbols/dso.h"
#include "symbols/procfile.h"

static char dir[] = "/tmp/dw_procfile_test.XXXXXX";

int main(void)
{
	unsigned char id[20];
	const unsigned char *idp;
	char lib[160], other[160], cmd[512], buf[4200];
	enum dw_proc_file_how how;
	struct dw_dso *d;
	uint64_t start;
	void *map;
	int fd, n;

	if (!mkdtemp(dir))
		return 1;
	snprintf(lib, sizeof(lib), "%s/libx.so", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s && cp /bin/sh %s", getpid(), lib, other);
	if (system(cmd)) {
		printf("Bail out! cannot copy the files\n");
		return 1;
	}
	d = dw_dso_get(lib, NULL, 0);
	n = d ? dw_dso_build_id(d, &idp) : 0;
	if (n != 20) {
		tap_skip("mapped files", "this test binary has no GNU build-id");
		return tap_done();
	}
	memcpy(id, idp, sizeof(id));
	dw_dso_cache_free();
	dw_dso_set_quiet(1);
	fd = open(lib, O_RDONLY);
	map = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (map == MAP_FAILED) {
		printf("Bail out! cannot map %s\n", lib);
		return 1;
	}
	start = (uint64_t)(uintptr_t)map;

	how = dw_proc_file(getpid(), lib, start, start + 4096, id, sizeof(id), buf, sizeof(buf));
	snprintf(cmd, sizeof(cmd), "/proc/%d/root%s", getpid(), lib);
	ok(how == DW_PROC_FILE_ROOT && !strcmp(buf, cmd), "the path is the mapped file: "
	   "read through the process's root (%s)", buf);
	dw_dso_cache_free();

	/* An upgrade: another file renamed over the path. */
	if (rename(other, lib)) {
		printf("Bail out! rename\n");
		return 1;
	}
	how = dw_proc_file(getpid(), lib, start, start + 4096, id, sizeof(id), buf, sizeof(buf));
	if (geteuid())
		tap_skip("replaced: map_files", "/proc/PID/map_files needs root (CAP_SYS_ADMIN)");
	else
		ok(how == DW_PROC_FILE_MAPPED && strstr(buf, "/map_files/") &&
		   dw_dso_usable(dw_dso_get(buf, id, sizeof(id))),
		   "the path names another file: the mapped one through map_files (%s)", buf);
	dw_dso_cache_free();

	how = dw_proc_file(getpid(), lib, start, start + 4096, NULL, 0, buf, sizeof(buf));
	ok(how == DW_PROC_FILE_ROOT, "without a recorded build-id the path is taken as it is");
	dw_dso_cache_free();

	munmap(map, 4096);
	how = dw_proc_file(getpid(), lib, start, start + 4096, id, sizeof(id), buf, sizeof(buf));
	ok(how == DW_PROC_FILE_NONE && !strcmp(buf, lib),
	   "not mapped any more and replaced: the path, for the build-id check to refuse");
	dw_dso_cache_free();

	unlink(lib);
	rmdir(dir);
	return tap_done();
}
