// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_test: every way to misuse the dunwind device fails with its
 * documented errno (uapi/linux/dunwind.h), and the valid paths succeed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "sysctl.h"

/* The config followed by a tail the module does not know. */
struct big_config {
	struct dunwind_config cfg;
	__u64 tail[2];
};

FIXTURE(dev) {
	int fd;
	struct dunwind_config cfg;
	long page;
};

FIXTURE_SETUP(dev)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "cannot open %s (%s): is the module loaded?", DUNWIND_DEVICE,
		     strerror(errno));
	dw_records_config(&self->cfg, getpid(), 0, 100);
	self->cfg.ring_pages = 4;
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ioctl() that returns -errno instead of -1. */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

/* Drop @cap from the effective set (it stays permitted). 0 or -errno. */
static int drop_effective_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[cap / 32].effective &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/* A session with a ring of @pages on a new fd: the fd, or -errno of CONFIG. */
static int config_ring(__u32 pages)
{
	struct dunwind_config cfg;
	int fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	dw_records_config(&cfg, getpid(), 0, 100);
	cfg.ring_pages = pages;
	ret = xioctl(fd, DUNWIND_IOC_CONFIG, &cfg);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/*
 * Without CAP_IPC_LOCK, rings are charged to the user's RLIMIT_MEMLOCK
 * (as perf's): a second ring over the limit is ENOMEM, and closing the
 * first gives its pages back.  In a child: capabilities and limits stay.
 */
TEST_F(dev, ring_charged_to_memlock_limit)
{
	const __u32 pages = 1024;
	int status, fd1, fd2;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct rlimit rl;

		rl.rlim_cur = rl.rlim_max = (rlim_t)self->page * (pages + 1) * 3 / 2;
		if (setrlimit(RLIMIT_MEMLOCK, &rl) || drop_effective_cap(CAP_IPC_LOCK))
			_exit(10);
		fd1 = config_ring(pages);
		if (fd1 < 0)
			_exit(11);
		fd2 = config_ring(pages);
		if (fd2 != -ENOMEM)
			_exit(12);
		close(fd1);
		fd2 = config_ring(pages);
		if (fd2 < 0)
			_exit(13);
		close(fd2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("10: no setup, 11: first ring refused, 12: second ring not ENOMEM, "
		       "13: ring refused after the first was closed");
}

#define MAX_RATE "/proc/sys/kernel/perf_event_max_sample_rate"

/* A frequency above kernel.perf_event_max_sample_rate is refused, as by perf. */
TEST_F(dev, config_freq_above_max_sample_rate_is_einval)
{
	long old, unused;
	int ret;

	ret = dw_sysctl_swap(MAX_RATE, 2000, &old);
	if (ret)
		SKIP(return, "cannot set %s: %s", MAX_RATE, strerror(-ret));
	self->cfg.sample_freq = 2001;
	ret = xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg);
	self->cfg.sample_freq = 2000;
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	dw_sysctl_swap(MAX_RATE, old, &unused);
}

TEST_F(dev, unknown_ioctl_is_enotty)
{
	EXPECT_EQ(-ENOTTY, xioctl(self->fd, _IO(DUNWIND_IOC_MAGIC, 99), NULL));
	EXPECT_EQ(-ENOTTY, xioctl(self->fd, _IO('T', 1), NULL));
}

TEST_F(dev, valid_config_and_mmap_succeed)
{
	size_t len = self->page * (1 + self->cfg.ring_pages);
	struct dunwind_ring_ctrl *ctrl;

	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	ctrl = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, ctrl);
	EXPECT_EQ(DUNWIND_ABI_VERSION, ctrl->version);
	EXPECT_EQ((__u64)self->page * self->cfg.ring_pages, ctrl->data_size);
	EXPECT_EQ((__u64)self->page, ctrl->data_offset);
	munmap(ctrl, len);
}

TEST_F(dev, config_smaller_than_ver0_is_einval)
{
	self->cfg.size = DUNWIND_CONFIG_SIZE_VER0 - 8;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	self->cfg.size = 0;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_larger_with_nonzero_tail_is_e2big)
{
	struct big_config big = { .cfg = self->cfg, .tail = { 0, 1 } };

	big.cfg.size = sizeof(big);
	EXPECT_EQ(-E2BIG, xioctl(self->fd, DUNWIND_IOC_CONFIG, &big));
}

TEST_F(dev, config_larger_with_zero_tail_is_accepted)
{
	struct big_config big = { .cfg = self->cfg };

	big.cfg.size = sizeof(big);
	EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &big));
}

TEST_F(dev, config_nonzero_reserved_is_einval)
{
	self->cfg.__reserved[0] = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_unknown_event_is_einval)
{
	self->cfg.event = DUNWIND_EVENT_MAX;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

/* task-clock, a software event, is there on every machine. */
TEST_F(dev, task_clock_event_starts)
{
	self->cfg.event = DUNWIND_EVENT_TASK_CLOCK;
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_START, NULL));
	EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_STOP, NULL));
}

/*
 * A hardware event starts where a PMU counts it; where none does (QEMU
 * TCG), START says so with perf's error, and the session stays usable.
 */
TEST_F(dev, cycles_event_starts_or_says_no_pmu)
{
	int ret;

	self->cfg.event = DUNWIND_EVENT_CYCLES;
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	ret = xioctl(self->fd, DUNWIND_IOC_START, NULL);
	if (ret) {
		EXPECT_TRUE(ret == -ENOENT || ret == -EOPNOTSUPP) TH_LOG("START: %s", strerror(-ret));
		EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_STOP, NULL));
	} else {
		EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_STOP, NULL));
	}
}

TEST_F(dev, config_pid_and_tid_is_einval)
{
	self->cfg.tid = gettid();
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_neither_pid_nor_tid_is_einval)
{
	self->cfg.pid = 0;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_missing_pid_is_esrch)
{
	pid_t gone = fork();

	ASSERT_GE(gone, 0);
	if (gone == 0)
		_exit(0);
	ASSERT_EQ(gone, waitpid(gone, NULL, 0));
	/* The reaped child's pid names no process now. */
	self->cfg.pid = gone;
	EXPECT_EQ(-ESRCH, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_missing_tid_is_esrch)
{
	pid_t gone = fork();

	ASSERT_GE(gone, 0);
	if (gone == 0)
		_exit(0);
	ASSERT_EQ(gone, waitpid(gone, NULL, 0));
	self->cfg.pid = 0;
	self->cfg.tid = gone;
	EXPECT_EQ(-ESRCH, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_freq_and_period_is_einval)
{
	self->cfg.sample_period = 1000000;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_neither_freq_nor_period_is_einval)
{
	self->cfg.sample_freq = 0;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_ring_pages_not_power_of_two_is_einval)
{
	self->cfg.ring_pages = 3;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	self->cfg.ring_pages = DUNWIND_MAX_RING_PAGES * 2;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_unknown_flags_is_einval)
{
	self->cfg.flags = 1U << 31;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	self->cfg.flags = DUNWIND_CFG_ALL + 1;
	if (self->cfg.flags & ~DUNWIND_CFG_ALL)
		EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_enable_on_exec_with_tid_is_einval)
{
	self->cfg.flags = DUNWIND_CFG_ENABLE_ON_EXEC;
	self->cfg.tid = self->cfg.pid;
	self->cfg.pid = 0;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_children_with_tid_is_einval)
{
	self->cfg.flags = DUNWIND_CFG_CHILDREN;
	self->cfg.tid = self->cfg.pid;
	self->cfg.pid = 0;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_frames_above_max_is_einval)
{
	self->cfg.max_user_frames = DUNWIND_MAX_USER_FRAMES + 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	self->cfg.max_user_frames = 0;
	self->cfg.max_kernel_frames = DUNWIND_MAX_KERNEL_FRAMES + 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_twice_is_ebusy)
{
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	EXPECT_EQ(-EBUSY, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, failed_config_leaves_session_configurable)
{
	self->cfg.ring_pages = 3;
	ASSERT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	self->cfg.ring_pages = 4;
	EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, start_before_config_is_einval)
{
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_START, NULL));
}

TEST_F(dev, mmap_before_config_is_einval)
{
	void *p = mmap(NULL, self->page * 5, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);

	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, mmap_of_wrong_length_is_einval)
{
	void *p;

	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	p = mmap(NULL, self->page * self->cfg.ring_pages, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, self->page * (2 + self->cfg.ring_pages), PROT_READ | PROT_WRITE,
		 MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, mmap_at_nonzero_offset_is_einval)
{
	void *p;

	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	p = mmap(NULL, self->page * (1 + self->cfg.ring_pages), PROT_READ | PROT_WRITE,
		 MAP_SHARED, self->fd, self->page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, stats_reports_its_size)
{
	struct dunwind_stats st = { .size = sizeof(st) };

	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_STATS, &st));
	EXPECT_EQ(sizeof(st), st.size);
	EXPECT_EQ(0, st.samples);
}

/* An older caller's smaller struct: filled up to its size, not beyond. */
TEST_F(dev, stats_with_ver0_size_fills_only_ver0)
{
	union {
		struct dunwind_stats st;
		unsigned char bytes[sizeof(struct dunwind_stats) + 64];
	} u;
	size_t i;

	memset(&u, 0xa5, sizeof(u));
	u.st.size = DUNWIND_STATS_SIZE_VER0;
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_STATS, &u.st));
	EXPECT_EQ(DUNWIND_STATS_SIZE_VER0, u.st.size);
	EXPECT_EQ(0, u.st.samples);
	for (i = DUNWIND_STATS_SIZE_VER0; i < sizeof(u); i++)
		if (u.bytes[i] != 0xa5)
			break;
	EXPECT_EQ(sizeof(u), i) TH_LOG("byte %zu past the caller's size was written", i);
}

/* A newer caller's larger struct: the module fills what it knows, zeroes the rest. */
TEST_F(dev, stats_with_larger_size_zeroes_the_tail)
{
	union {
		struct dunwind_stats st;
		unsigned char bytes[sizeof(struct dunwind_stats) + 64];
	} u;
	size_t i;

	memset(&u, 0xa5, sizeof(u));
	u.st.size = sizeof(u);
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_STATS, &u.st));
	ASSERT_GE(u.st.size, DUNWIND_STATS_SIZE_VER0);
	ASSERT_LE(u.st.size, sizeof(u));
	for (i = u.st.size; i < sizeof(u); i++)
		if (u.bytes[i])
			break;
	EXPECT_EQ(sizeof(u), i) TH_LOG("byte %zu past the module's size is not zero", i);
}

/*
 * A size above a page is E2BIG and writes nothing: the zeroed tail must
 * not reach as far as any u32 in the caller's buffer says.
 */
TEST_F(dev, stats_larger_than_a_page_is_e2big_and_writes_nothing)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	unsigned char *buf = malloc(2 * page);
	struct dunwind_stats *st = (void *)buf;

	ASSERT_NE(NULL, buf);
	memset(buf, 0xa5, 2 * page);
	st->size = (__u32)page + 8;
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	EXPECT_EQ(-E2BIG, xioctl(self->fd, DUNWIND_IOC_STATS, st));
	EXPECT_EQ(page + 8, st->size);
	for (i = sizeof(st->size); i < 2 * page; i++)
		if (buf[i] != 0xa5)
			break;
	EXPECT_EQ(2 * page, i) TH_LOG("byte %zu was written", i);
	free(buf);
}

TEST_F(dev, config_barrier_ms_without_the_flag_is_einval)
{
	self->cfg.barrier_ms = 100;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

TEST_F(dev, config_barrier_ms_above_max_is_einval)
{
	self->cfg.flags = DUNWIND_CFG_TABLE_BARRIER;
	self->cfg.barrier_ms = DUNWIND_MAX_BARRIER_MS + 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	self->cfg.barrier_ms = 0;
	EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
}

/* DUNWIND_IOC_SFRAME_NONE checks its argument as every extensible struct. */
TEST_F(dev, sframe_none_bad_argument_is_einval)
{
	struct dunwind_sframe_none n = { .size = sizeof(n), .ino = 42, .dev_major = 8 };

	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_SFRAME_NONE, &n))
		TH_LOG("accepted before CONFIG");
	self->cfg.flags = DUNWIND_CFG_TABLE_BARRIER;
	ASSERT_EQ(0, xioctl(self->fd, DUNWIND_IOC_CONFIG, &self->cfg));
	EXPECT_EQ(0, xioctl(self->fd, DUNWIND_IOC_SFRAME_NONE, &n));
	n.flags = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_SFRAME_NONE, &n));
	n.flags = 0;
	n.__reserved[1] = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_SFRAME_NONE, &n));
	n.__reserved[1] = 0;
	n.ino = 0;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_SFRAME_NONE, &n));
	n.ino = 42;
	n.size = DUNWIND_SFRAME_NONE_SIZE_VER0 - 8;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DUNWIND_IOC_SFRAME_NONE, &n));
	EXPECT_EQ(-EFAULT, xioctl(self->fd, DUNWIND_IOC_SFRAME_NONE, NULL));
}

TEST_HARNESS_MAIN
