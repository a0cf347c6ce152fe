// SPDX-License-Identifier: GPL-2.0
/*
 * ctr_enter: start a program as a container runtime does, for
 * container_test.  'ctr_enter DIR PROG [ARG]...' unshares the mount
 * namespace, mounts an overlay of DIR/lower (upper DIR/upper, work
 * DIR/work) on DIR/merged there only, chroots into it and execs PROG
 * (a path inside the container).  Nothing of the container is visible
 * from the caller's mount namespace.  Exits 127 with a message on error.
 */
#define _GNU_SOURCE	/* unshare() */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "ctr_enter: %s %s: %s\n", what, arg, strerror(errno));
	return 127;
}

int main(int argc, char **argv)
{
	char opts[3 * 4096 + 64], merged[4096 + 16];

	if (argc < 3) {
		fprintf(stderr, "usage: ctr_enter DIR PROG [ARG]...\n");
		return 127;
	}
	snprintf(merged, sizeof(merged), "%s/merged", argv[1]);
	snprintf(opts, sizeof(opts), "lowerdir=%s/lower,upperdir=%s/upper,workdir=%s/work",
		 argv[1], argv[1], argv[1]);
	if (unshare(CLONE_NEWNS))
		return fail("unshare", "CLONE_NEWNS");
	/* Our mounts stay ours: none propagates back to the caller's namespace. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail("make private", "/");
	if (mount("overlay", merged, "overlay", 0, opts))
		return fail("mount overlay on", merged);
	if (chroot(merged) || chdir("/"))
		return fail("chroot", merged);
	execv(argv[2], argv + 2);
	return fail("exec", argv[2]);
}
