/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may record what (the module applies perf_event_open()'s policy,
 * kernel.perf_event_paranoid): what the caller has and what to change.
 */
#ifndef DW_RECORD_PERMISSION_H
#define DW_RECORD_PERMISSION_H

#include <stdbool.h>

/* CAP_PERFMON or CAP_SYS_ADMIN in the effective set (root has both). */
bool dw_perm_privileged(void);
/* kernel.perf_event_paranoid into *@val: 0, or -errno (-ERANGE: not a number). */
int dw_perm_paranoid(int *val);
/*
 * Say (dw_warn()) why @what failed with EACCES or EPERM and what to change:
 * the sysctl, the target's owner, root.  @system_wide and @off_cpu: what
 * was asked for.
 */
void dw_perm_explain(const char *what, bool system_wide, bool off_cpu);

#endif
