// SPDX-License-Identifier: GPL-2.0
/* Unload and load the dunwind module (see module.h). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <linux/dunwind.h>
#include "module.h"

/**
 * dw_module_unload() - remove the dunwind module, without waiting
 * Context: user space, CAP_SYS_MODULE.
 * Return: 0 or -errno (-EWOULDBLOCK/-EBUSY while it is in use).
 */
int dw_module_unload(void)
{
	return syscall(SYS_delete_module, "dunwind", O_NONBLOCK) ? -errno : 0;
}

/**
 * dw_module_unload_wait() - dw_module_unload() until it is no longer busy
 * Context: user space; sleeps up to @ms.
 * Return: 0 or the last -errno.
 */
int dw_module_unload_wait(int ms, int *tries)
{
	int ret, n = 0;

	for (;;) {
		ret = dw_module_unload();
		n++;
		if ((ret != -EWOULDBLOCK && ret != -EBUSY) || ms <= 0)
			break;
		usleep(20000);
		ms -= 20;
	}
	if (tries)
		*tries = n;
	return ret;
}

/**
 * dw_module_load() - load the module file at @path
 * Context: user space, CAP_SYS_MODULE.
 * Return: 0 or -errno.
 */
int dw_module_load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return ret;
}

/**
 * dw_device_wait() - wait for /dev/dunwind to open
 * Context: user space; sleeps up to @ms.
 * Return: an open fd, or -errno.
 */
int dw_device_wait(int ms)
{
	int fd = -ENOENT;

	for (; ms > 0; ms -= 20) {
		fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		fd = -errno;
		usleep(20000);
	}
	return fd;
}
