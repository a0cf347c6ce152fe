// SPDX-License-Identifier: GPL-2.0
/*
 * unpriv_test: perf_event_open()'s policy for users without CAP_PERFMON
 * (uapi/linux/dunwind.h, DUNWIND_IOC_CONFIG).  The test runs as root, sets
 * kernel.perf_event_paranoid and makes /dev/dunwind 0666 (restored after),
 * then forks a child that drops to uid/gid UNPRIV_ID with no capabilities
 * (setresuid clears them) and tries what a user would; the child reports
 * through shared memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "workload.h"

#define UNPRIV_ID	4321
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* What the unprivileged child saw. */
struct unpriv_result {
	int ret;			/* 0 or -errno of the operation tried */
	int uid;			/* its uid then */
	size_t samples, stacks;		/* SAMPLE and USER_STACK records */
	size_t kernel_mode;		/* samples taken in the kernel */
	size_t with_kernel_ips;		/* ... that carry kernel IPs */
	size_t hidden;			/* ... flagged DUNWIND_SAMPLE_KERNEL_HIDDEN */
};

FIXTURE(unpriv) {
	struct unpriv_result *res;
	char paranoid[16];
	mode_t dev_mode;
	struct dw_workload root_wl;	/* root's own read_loop */
};

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

FIXTURE_SETUP(unpriv)
{
	struct stat st;
	int fd, ret;
	ssize_t n;

	self->res = MAP_FAILED;
	self->root_wl.pid = 0;
	self->paranoid[0] = 0;
	if (geteuid())
		SKIP(return, "must run as root (it drops to uid %d itself)", UNPRIV_ID);
	if (stat(DUNWIND_DEVICE, &st))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	self->dev_mode = st.st_mode & 07777;
	fd = open(PARANOID, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", PARANOID, strerror(errno));
	n = read(fd, self->paranoid, sizeof(self->paranoid) - 1);
	close(fd);
	ASSERT_LT(0, n);
	self->paranoid[n] = 0;
	ASSERT_EQ(0, chmod(DUNWIND_DEVICE, 0666));
	self->res = mmap(NULL, sizeof(*self->res), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->res);
	ret = dw_workload_start(&self->root_wl, "read_loop", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start read_loop: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(unpriv)
{
	if (self->root_wl.pid)
		dw_workload_stop(&self->root_wl);
	if (self->paranoid[0]) {
		write_str(PARANOID, self->paranoid);
		chmod(DUNWIND_DEVICE, self->dev_mode);
	}
	if (self->res != MAP_FAILED)
		munmap(self->res, sizeof(*self->res));
}

/* Count what the records of an unprivileged profile show. */
static void unpriv_count(struct unpriv_result *res, const struct dw_records *r)
{
	size_t i;

	res->samples = r->nr_samples;
	res->stacks = r->nr_stacks;
	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_sample *s = (const void *)r->v[i];

		if (r->v[i]->type != DUNWIND_REC_SAMPLE || (s->flags & DUNWIND_SAMPLE_USER_MODE))
			continue;
		res->kernel_mode++;
		res->with_kernel_ips += s->nr_kernel > 0;
		res->hidden += !!(s->flags & DUNWIND_SAMPLE_KERNEL_HIDDEN);
	}
}

/* The child's part, as UNPRIV_ID: profile @pid (0: its own read_loop). */
static void unpriv_profile(struct unpriv_result *res, int pid, __u32 flags)
{
	struct dw_records_opts o = { .ms = 1500, .max_ms = 10000, .min_samples = 100 };
	struct dunwind_config cfg;
	struct dw_workload w = {};
	struct dw_records r = {};

	if (!pid) {
		res->ret = dw_workload_start(&w, "read_loop", NULL, 10000);
		if (res->ret)
			return;
		pid = w.pid;
	}
	dw_records_config(&cfg, (flags & DUNWIND_CFG_SYSTEM_WIDE) ? 0 : pid, 0, 1000);
	cfg.flags = flags;
	cfg.ring_pages = 256;	/* 1 MiB: within the default RLIMIT_MEMLOCK */
	res->ret = dw_records_profile_opts(&r, &cfg, &o, NULL);
	if (!res->ret)
		unpriv_count(res, &r);
	dw_records_free(&r);
	if (w.pid)
		dw_workload_stop(&w);
}

/* The child's part: register a (bogus) table; the capability check comes first. */
static void unpriv_register(struct unpriv_result *res)
{
	struct dunwind_sframe_reg reg = { .size = sizeof(reg), .fd = 0 };
	int fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		res->ret = -errno;
		return;
	}
	res->ret = ioctl(fd, DUNWIND_IOC_SFRAME_REGISTER, &reg) ? -errno : 0;
	close(fd);
}

enum unpriv_op { OP_PROFILE_OWN, OP_PROFILE_ROOTS, OP_SYSTEM_WIDE, OP_REGISTER };

/*
 * With kernel.perf_event_paranoid at @paranoid, fork a child that drops
 * to UNPRIV_ID and does @op; wait for it.  0 or -errno (setup).
 */
static int run_unpriv(FIXTURE_DATA(unpriv) *self, const char *paranoid, enum unpriv_op op)
{
	int ret, status;
	pid_t pid;

	ret = write_str(PARANOID, paranoid);
	if (ret)
		return ret;
	memset(self->res, 0, sizeof(*self->res));
	self->res->ret = -EINPROGRESS;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID) ||
		    setresuid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID))
			_exit(1);
		self->res->uid = getuid();
		if (op == OP_PROFILE_OWN)
			unpriv_profile(self->res, 0, 0);
		else if (op == OP_PROFILE_ROOTS)
			unpriv_profile(self->res, self->root_wl.pid, 0);
		else if (op == OP_SYSTEM_WIDE)
			unpriv_profile(self->res, 0, DUNWIND_CFG_SYSTEM_WIDE);
		else
			unpriv_register(self->res);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

TEST_F_TIMEOUT(unpriv, own_process_has_user_stacks, 120)
{
	ASSERT_EQ(0, run_unpriv(self, "2", OP_PROFILE_OWN));
	ASSERT_EQ(UNPRIV_ID, self->res->uid);
	ASSERT_EQ(0, self->res->ret) TH_LOG("session failed: %s", strerror(-self->res->ret));
	EXPECT_GE(self->res->samples, 50);
	/* One walk per kernel entry: read_loop's 16 MiB reads are few. */
	EXPECT_GE(self->res->stacks, 3);
}

TEST_F_TIMEOUT(unpriv, paranoid_2_hides_kernel_stacks, 120)
{
	ASSERT_EQ(0, run_unpriv(self, "2", OP_PROFILE_OWN));
	ASSERT_EQ(0, self->res->ret) TH_LOG("session failed: %s", strerror(-self->res->ret));
	TH_LOG("%zu of %zu samples in kernel mode", self->res->kernel_mode, self->res->samples);
	ASSERT_GE(self->res->kernel_mode, 10) TH_LOG("read_loop should spend most time in read()");
	EXPECT_EQ(0, self->res->with_kernel_ips);
	EXPECT_EQ(self->res->kernel_mode, self->res->hidden);
}

TEST_F_TIMEOUT(unpriv, paranoid_1_gives_kernel_stacks, 120)
{
	ASSERT_EQ(0, run_unpriv(self, "1", OP_PROFILE_OWN));
	ASSERT_EQ(0, self->res->ret) TH_LOG("session failed: %s", strerror(-self->res->ret));
	ASSERT_GE(self->res->kernel_mode, 10) TH_LOG("read_loop should spend most time in read()");
	EXPECT_EQ(self->res->kernel_mode, self->res->with_kernel_ips);
	EXPECT_EQ(0, self->res->hidden);
}

TEST_F_TIMEOUT(unpriv, other_users_process_is_eacces, 60)
{
	ASSERT_EQ(0, run_unpriv(self, "1", OP_PROFILE_ROOTS));
	EXPECT_EQ(-EACCES, self->res->ret) TH_LOG("got %s", strerror(-self->res->ret));
}

TEST_F_TIMEOUT(unpriv, paranoid_3_is_eacces, 60)
{
	ASSERT_EQ(0, run_unpriv(self, "3", OP_PROFILE_OWN));
	EXPECT_EQ(-EACCES, self->res->ret) TH_LOG("got %s", strerror(-self->res->ret));
}

TEST_F_TIMEOUT(unpriv, system_wide_at_paranoid_1_is_eacces, 60)
{
	ASSERT_EQ(0, run_unpriv(self, "1", OP_SYSTEM_WIDE));
	EXPECT_EQ(-EACCES, self->res->ret) TH_LOG("got %s", strerror(-self->res->ret));
}

TEST_F_TIMEOUT(unpriv, registration_is_eperm, 60)
{
	ASSERT_EQ(0, run_unpriv(self, "-1", OP_REGISTER));
	EXPECT_EQ(-EPERM, self->res->ret) TH_LOG("got %s", strerror(-self->res->ret));
}

TEST_HARNESS_MAIN
