// SPDX-License-Identifier: GPL-2.0
/*
 * rmmod_test: the module cannot be removed while a session is open, can be
 * once it is closed, and loads again (from $DUNWIND_KO) for later tests.
 * Runs last in the suite: it unloads the module.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "workload.h"

static int delete_module(const char *name, int flags)
{
	return syscall(SYS_delete_module, name, flags) ? -errno : 0;
}

static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return ret;
}

/* Wait up to @ms for the device node to come back and open. fd or -errno. */
static int wait_device(int ms)
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

FIXTURE(rmmod) {
	const char *ko;
};

FIXTURE_SETUP(rmmod)
{
	self->ko = getenv("DUNWIND_KO");
	if (!self->ko || !*self->ko)
		SKIP(return, "DUNWIND_KO is not set: cannot re-load the module after unloading it");
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(rmmod)
{
	/* Leave the module loaded whatever happened. */
	if (self->ko && access(DUNWIND_DEVICE, F_OK))
		load_module(self->ko);
}

TEST_F_TIMEOUT(rmmod, busy_while_open_then_unloads_and_reloads, 60)
{
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	int ret, i, fd;

	/* A live session with samples in flight. */
	ret = dw_workload_start(&w, "read_loop", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start read_loop: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 1000);
	ret = dw_session_open(&s, NULL, &cfg);
	if (!ret)
		ret = dw_session_start(&s);
	if (!ret)
		ret = dw_records_collect(&s, &r, 300);
	if (ret)
		dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));

	ret = delete_module("dunwind", O_NONBLOCK);
	EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY)
		TH_LOG("delete_module with a session open: %d (%s)", ret, strerror(-ret));
	ASSERT_EQ(0, access(DUNWIND_DEVICE, F_OK));

	/* Close with the target still running: pending walks may hold the module a while. */
	dw_session_close(&s);
	for (i = 0; i < 100; i++) {
		ret = delete_module("dunwind", O_NONBLOCK);
		if (ret != -EWOULDBLOCK && ret != -EBUSY)
			break;
		usleep(20000);
	}
	dw_workload_stop(&w);
	EXPECT_EQ(0, ret) TH_LOG("delete_module after close: %s", strerror(-ret));
	EXPECT_TRUE(r.nr_samples > 0);
	dw_records_free(&r);

	if (!ret) {
		EXPECT_NE(0, access(DUNWIND_DEVICE, F_OK))
			TH_LOG("device still there after unload");
		ret = load_module(self->ko);
		ASSERT_EQ(0, ret) TH_LOG("finit_module(%s): %s", self->ko, strerror(-ret));
	}
	fd = wait_device(2000);
	ASSERT_GE(fd, 0) TH_LOG("no usable %s after re-loading: %s", DUNWIND_DEVICE,
				strerror(-fd));
	close(fd);
}

TEST_HARNESS_MAIN
