// SPDX-License-Identifier: GPL-2.0
/*
 * DUNWIND_IOC_KSYM: the module names a kernel address as /proc/kallsyms
 * does (a function of the kernel image, one of the module's own), says
 * ENOENT where no symbol is, refuses a bad argument, and follows
 * kernel.kptr_restrict and perf_event_paranoid as /proc/kallsyms does.
 * 'dunwind record' names its capture's kernel frames with it, as
 * /proc/kallsyms would.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "sysctl.h"
#include "capture/capture.h"
#include "capture/ksnap.h"
#include "symbols/kallsyms.h"

#define KPTR_RESTRICT "/proc/sys/kernel/kptr_restrict"

FIXTURE(ksym) {
	int fd;
	struct dunwind_ksym k;
};

FIXTURE_SETUP(ksym)
{
	self->fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "cannot open %s (%s): is the module loaded?", DUNWIND_DEVICE,
		     strerror(errno));
	memset(&self->k, 0, sizeof(self->k));
	self->k.size = sizeof(self->k);
}

FIXTURE_TEARDOWN(ksym)
{
	if (self->fd >= 0)
		close(self->fd);
}

static int ask(int fd, struct dunwind_ksym *k)
{
	return ioctl(fd, DUNWIND_IOC_KSYM, k) < 0 ? -errno : 0;
}

/*
 * Text symbol @name of module @mod ("" for the kernel image) in
 * /proc/kallsyms: its address, and its length up to the next line that
 * starts higher.  0; -ENOENT; -EPERM if the file hides addresses.
 */
static int kallsyms_find(const char *name, const char *mod, unsigned long long *addr,
			 unsigned long long *len)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[700], n[512], m[64], t;
	int found = 0, ret = -ENOENT;
	unsigned long long a;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		m[0] = '\0';
		/* Text only: per-CPU symbols are at 0 whatever the policy. */
		if (sscanf(line, "%llx %c %511s [%63[^]]]", &a, &t, n, m) < 3 ||
		    (t != 't' && t != 'T'))
			continue;
		if (!a) {
			ret = -EPERM;
			break;
		}
		if (found && a > *addr) {
			*len = a - *addr;
			ret = 0;
			break;
		}
		if (!found && !strcmp(n, name) && !strcmp(m, mod)) {
			*addr = a;
			found = 1;
		}
	}
	fclose(f);
	return ret;
}

/* An address inside a function of the kernel image: its name, start and length. */
TEST_F(ksym, names_a_kernel_function_as_kallsyms_does)
{
	unsigned long long addr, len;
	int err = kallsyms_find("vfs_read", "", &addr, &len);

	if (err == -EPERM)
		SKIP(return, "/proc/kallsyms hides addresses from this user");
	ASSERT_EQ(0, err);
	self->k.addr = addr + len / 2;
	ASSERT_EQ(0, ask(self->fd, &self->k));
	EXPECT_STREQ("vfs_read", self->k.name);
	EXPECT_STREQ("", self->k.module);
	EXPECT_EQ(addr, self->k.start);
	EXPECT_EQ(len, self->k.len);
}

/* A function of the dunwind module: its module's name too. */
TEST_F(ksym, names_a_module_function_with_its_module)
{
	unsigned long long addr, len;
	int err = kallsyms_find("dunwind_ksym", "dunwind", &addr, &len);

	if (err == -EPERM)
		SKIP(return, "/proc/kallsyms hides addresses from this user");
	ASSERT_EQ(0, err);
	self->k.addr = addr + 1;
	ASSERT_EQ(0, ask(self->fd, &self->k));
	EXPECT_STREQ("dunwind_ksym", self->k.name);
	EXPECT_STREQ("dunwind", self->k.module);
	EXPECT_EQ(addr, self->k.start);
}

/* A user-space address is no kernel symbol: ENOENT, nothing named. */
TEST_F(ksym, an_address_no_symbol_holds_is_enoent)
{
	unsigned long long addr, len;

	if (kallsyms_find("vfs_read", "", &addr, &len) == -EPERM)
		SKIP(return, "/proc/kallsyms hides addresses from this user");
	self->k.addr = 0x10000;
	EXPECT_EQ(-ENOENT, ask(self->fd, &self->k));
	EXPECT_EQ(0, self->k.start);
	EXPECT_EQ(0, self->k.len);
	EXPECT_STREQ("", self->k.name);
}

/* Unknown flags, a size below VER0, an unreadable argument. */
TEST_F(ksym, a_bad_argument_is_refused)
{
	self->k.flags = 1;
	EXPECT_EQ(-EINVAL, ask(self->fd, &self->k));
	self->k.flags = 0;
	self->k.size = DUNWIND_KSYM_SIZE_VER0 - 8;
	EXPECT_EQ(-EINVAL, ask(self->fd, &self->k));
	EXPECT_EQ(-EFAULT, ask(self->fd, NULL));
}

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"

/* In a child that dropped root for nobody: DUNWIND_IOC_KSYM's -errno, or 1. */
static int ask_as_nobody(int fd, struct dunwind_ksym *k)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(1);
		_exit(-ask(fd, k));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return -WEXITSTATUS(st);
}

/*
 * Without CAP_SYSLOG, as for /proc/kallsyms: kptr_restrict 0 with
 * perf_event_paranoid 1 names (vfs_read), paranoid 2 does not (EPERM).
 */
TEST_F(ksym, an_unprivileged_caller_follows_the_kallsyms_policy)
{
	unsigned long long addr, len;
	long old_kptr, old_paranoid, ignored;
	int named, hidden;

	if (geteuid())
		SKIP(return, "needs root to set %s and %s", KPTR_RESTRICT, PARANOID);
	ASSERT_EQ(0, kallsyms_find("vfs_read", "", &addr, &len));
	self->k.addr = addr;
	ASSERT_EQ(0, dw_sysctl_swap(KPTR_RESTRICT, 0, &old_kptr));
	ASSERT_EQ(0, dw_sysctl_swap(PARANOID, 1, &old_paranoid));
	named = ask_as_nobody(self->fd, &self->k);
	dw_sysctl_swap(PARANOID, 2, &ignored);
	hidden = ask_as_nobody(self->fd, &self->k);
	dw_sysctl_swap(PARANOID, old_paranoid, &ignored);
	dw_sysctl_swap(KPTR_RESTRICT, old_kptr, &ignored);
	EXPECT_EQ(0, named);
	EXPECT_EQ(-EPERM, hidden);
}

/* kernel.kptr_restrict 2 hides kernel addresses from everyone: EPERM. */
TEST_F(ksym, hidden_addresses_are_eperm)
{
	long old;
	int err;

	if (geteuid())
		SKIP(return, "needs root to set %s", KPTR_RESTRICT);
	ASSERT_EQ(0, dw_sysctl_swap(KPTR_RESTRICT, 2, &old));
	self->k.addr = (unsigned long long)-4096;
	err = ask(self->fd, &self->k);
	ASSERT_EQ(0, dw_sysctl_swap(KPTR_RESTRICT, old, &old));
	EXPECT_EQ(-EPERM, err);
}

/* Is @name (of @mod, "kernel.kallsyms" for the image) a symbol at @start? */
static int alias_of(const char *name, const char *mod, unsigned long long start)
{
	/* The starts found so: a hot function's every sample reads the file once. */
	static unsigned long long seen[64];
	static unsigned int nr_seen;
	unsigned long long addr, len;
	unsigned int i;

	for (i = 0; i < nr_seen; i++)
		if (seen[i] == start)
			return 1;
	if (!strcmp(mod, "kernel.kallsyms"))
		mod = "";
	if (kallsyms_find(name, mod, &addr, &len) || addr != start)
		return 0;
	if (nr_seen < 64)
		seen[nr_seen++] = start;
	return 1;
}

/*
 * 'dunwind record' of a program in the kernel most of its time: the
 * capture's kernel symbol snapshot is the module's (the summary says so),
 * and names every kernel IP of every sample as /proc/kallsyms does (by
 * one of the names it has for that address).
 */
TEST(record_names_its_kernel_frames_by_the_module)
{
	const char *path = "/tmp/ksym_test.data";
	unsigned long long addr, len;
	const struct dunwind_rec_header *h;
	struct dw_kallsyms *live, *snap;
	struct dw_capture_reader r;
	struct dw_ksnap *k;
	size_t ips = 0, same = 0;
	int st, i;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	if (system("command -v dunwind >/dev/null 2>&1"))
		SKIP(return, "no dunwind in PATH (tools/vm/run adds out/dunwind)");
	if (kallsyms_find("vfs_read", "", &addr, &len) == -EPERM)
		SKIP(return, "/proc/kallsyms hides addresses from this user");
	st = system("dunwind record -f -F 2000 -o /tmp/ksym_test.data --no-symbol-snapshot -- "
		    "dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/tmp/ksym_test.err; "
		    "grep -q 'kernel symbols: .* named by the module' /tmp/ksym_test.err");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		system("cat /tmp/ksym_test.err");
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st)) TH_LOG("the summary does not say the module named them");
	live = dw_kallsyms_load(NULL);
	ASSERT_NE(NULL, live);
	k = dw_ksnap_new();
	ASSERT_NE(NULL, k);
	ASSERT_EQ(0, dw_capture_open(&r, path));
	while ((h = dw_capture_next_any(&r)))
		ASSERT_EQ(0, dw_ksnap_add(k, h));
	dw_capture_release(&r);
	snap = dw_ksnap_symbols(k);
	ASSERT_NE(NULL, snap);
	ASSERT_EQ(0, dw_capture_open(&r, path));
	while ((h = dw_capture_next(&r))) {
		const struct dunwind_rec_sample *s = (const void *)h;

		if (h->type != DUNWIND_REC_SAMPLE)
			continue;
		for (i = 0; i < s->nr_kernel; i++) {
			uint64_t off_live = 0, off_snap = 0;
			const char *mod_live, *mod_snap;
			const char *a = dw_kallsyms_lookup(live, s->ips[i], &off_live, &mod_live);
			const char *b = dw_kallsyms_lookup(snap, s->ips[i], &off_snap, &mod_snap);

			ips++;
			/* The same start and module; the same name, or another of that start. */
			if (a && b && off_live == off_snap && !strcmp(mod_live, mod_snap) &&
			    (!strcmp(a, b) || alias_of(b, mod_snap, s->ips[i] - off_snap)))
				same++;
			else if (ips - same == 1)
				TH_LOG("%llx: /proc/kallsyms %s+%llx [%s], the capture %s+%llx [%s]",
				       (unsigned long long)s->ips[i], a ? a : "-",
				       (unsigned long long)off_live, a ? mod_live : "-", b ? b : "-",
				       (unsigned long long)off_snap, b ? mod_snap : "-");
		}
	}
	dw_capture_release(&r);
	dw_kallsyms_free(snap);
	dw_ksnap_free(k);
	dw_kallsyms_free(live);
	unlink(path);
	unlink("/tmp/ksym_test.err");
	EXPECT_LE(1, ips);
	EXPECT_EQ(ips, same);
}

TEST_HARNESS_MAIN
