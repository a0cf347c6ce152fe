// SPDX-License-Identifier: GPL-2.0
/* Overlayfs for the container selftests (overlay.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/dunwind.h>

#include "overlay.h"

/* Make overlayfs available: it is a module in Debian's kernels. 0 or -errno. */
static int ovl_load(void)
{
	int fd, ret = 0;

	fd = open(DW_OVL_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		ret = -errno;
	close(fd);
	return ret;
}

int dw_ovl_ready(char *why, size_t len)
{
	int ret;

	if (access(DUNWIND_DEVICE, F_OK)) {
		snprintf(why, len, "no %s: is the module loaded?", DUNWIND_DEVICE);
		return 0;
	}
	ret = ovl_load();
	if (ret == -ENOENT) {
		snprintf(why, len, "no %s: tools/vm/selftests adds it when 'tools/kernel env' "
			 "gives the kernel's MODDIR", DW_OVL_KO);
		return 0;
	}
	if (ret) {
		snprintf(why, len, "cannot load %s: %s", DW_OVL_KO, strerror(-ret));
		return ret;
	}
	return 1;
}

int dw_ovl_scratch(const char *top, int *mounted)
{
	static const char *const dirs[] = { "lower", "upper", "work", "merged" };
	char path[4096];
	size_t i;

	mkdir(top, 0755);
	if (mount("tmpfs", top, "tmpfs", 0, "size=64m"))
		return -errno;
	*mounted = 1;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, dirs[i]);
		if (mkdir(path, 0755))
			return -errno;
	}
	return 0;
}
