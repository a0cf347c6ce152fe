// SPDX-License-Identifier: GPL-2.0
/* Who may record what, and what to change when it is not allowed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "record/permission.h"
#include "util/log.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"

static bool has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1U << (cap % 32));
}

bool dw_perm_privileged(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return geteuid() == 0;
	return has_cap(d, CAP_PERFMON) || has_cap(d, CAP_SYS_ADMIN);
}

int dw_perm_paranoid(int *val)
{
	FILE *f = fopen(PARANOID_PATH, "re");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%d", val);
	fclose(f);
	return n == 1 ? 0 : -ERANGE;
}

void dw_perm_explain(const char *what, bool system_wide, bool off_cpu)
{
	int need = off_cpu ? -1 : system_wide ? 0 : 2;
	int val;

	dw_warn("%s: permission denied\n", what);
	if (dw_perm_privileged()) {
		dw_warn("you have CAP_PERFMON: a security module (SELinux, "
			"AppArmor) must have refused it\n");
		return;
	}
	if (dw_perm_paranoid(&val))
		dw_warn("cannot read %s: run as root\n", PARANOID_PATH);
	else if (val > need)
		dw_warn("kernel.perf_event_paranoid is %d: without CAP_PERFMON "
			"this needs %d or lower ('sudo sysctl kernel.perf_event_paranoid=%d'), "
			"or run as root\n", val, need, need);
	else
		dw_warn("without CAP_PERFMON you may profile only your own "
			"processes (same user, not setuid): run as root for others\n");
	if (access("/dev/dunwind", R_OK | W_OK))
		dw_warn("/dev/dunwind is not open to you: the udev rule "
			"(make install-udev) gives it to group 'dunwind'\n");
}
