// SPDX-License-Identifier: GPL-2.0
/*
 * A process's mapped file is read through /proc/PID/root only when the
 * path names that file inside the process's root: an absolute symbolic
 * link there is resolved by the kernel in the reader's root, so a
 * container's owner could point a root recorder at any host file.  The
 * process is a child of this test chrooted into a fresh directory.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "symbols/dso.h"
#include "symbols/procfile.h"

FIXTURE(chrooted) {
	char dir[64], host_file[128];
	pid_t pid;
	struct dw_dso_cache *dsos;
};

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/*
 * DIR/plain.so a file; DIR/escape.so -> HOST_FILE, an absolute link to a
 * file outside DIR; a child chrooted into DIR, waiting.
 */
FIXTURE_SETUP(chrooted)
{
	char path[192];
	int ready[2];
	char c;

	self->pid = 0;
	self->dsos = dw_dso_cache_new();
	ASSERT_NE(NULL, self->dsos);
	if (geteuid())
		SKIP(return, "chroot needs root");
	snprintf(self->dir, sizeof(self->dir), "/tmp/dw-procroot-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->host_file, sizeof(self->host_file), "%s.host", self->dir);
	ASSERT_EQ(0, write_file(self->host_file, "host\n"));
	snprintf(path, sizeof(path), "%s/plain.so", self->dir);
	ASSERT_EQ(0, write_file(path, "plain\n"));
	snprintf(path, sizeof(path), "%s/escape.so", self->dir);
	ASSERT_EQ(0, symlink(self->host_file, path));
	ASSERT_EQ(0, pipe(ready));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (!self->pid) {
		c = chroot(self->dir) ? 'n' : 'y';
		if (write(ready[1], &c, 1) != 1 || c != 'y')
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	ASSERT_EQ('y', c);
}

FIXTURE_TEARDOWN(chrooted)
{
	char cmd[320];

	dw_dso_cache_free(self->dsos);
	if (!self->pid)
		return;
	kill(self->pid, SIGKILL);
	waitpid(self->pid, NULL, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", self->dir, self->host_file);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(chrooted, a_file_inside_the_root_is_read_through_it)
{
	char buf[256], want[128];

	snprintf(want, sizeof(want), "/proc/%d/root/plain.so", self->pid);
	EXPECT_EQ(DW_PROC_FILE_ROOT,
		  dw_proc_file(self->dsos, self->pid, "/plain.so", 0x1000, 0x2000,
			       NULL, 0, buf, sizeof(buf)));
	EXPECT_STREQ(want, buf);
}

TEST_F(chrooted, an_absolute_link_out_of_the_root_is_not_followed)
{
	char buf[256];

	/* Through /proc/PID/root the link would reach HOST_FILE, readable. */
	snprintf(buf, sizeof(buf), "/proc/%d/root/escape.so", self->pid);
	ASSERT_EQ(0, access(buf, R_OK));
	EXPECT_NE(DW_PROC_FILE_ROOT,
		  dw_proc_file(self->dsos, self->pid, "/escape.so", 0x1000, 0x2000,
			       NULL, 0, buf, sizeof(buf)));
	EXPECT_STREQ("/escape.so", buf);
}

TEST_F(chrooted, a_fifo_is_no_mapped_file)
{
	char path[192], buf[256];

	snprintf(path, sizeof(path), "%s/fifo.so", self->dir);
	ASSERT_EQ(0, mkfifo(path, 0600));
	EXPECT_EQ(DW_PROC_FILE_NONE,
		  dw_proc_file(self->dsos, self->pid, "/fifo.so", 0x1000, 0x2000,
			       NULL, 0, buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
