/* SPDX-License-Identifier: GPL-2.0 */
/* Overlayfs for the container selftests (ovl_test, container_test). */
#ifndef DW_SELFTEST_OVERLAY_H
#define DW_SELFTEST_OVERLAY_H

#include <stddef.h>

/*
 * overlay.ko for the booted kernel: tools/vm/selftests copies it here when
 * tools/kernel knows the kernel's modules; the tests SKIP without it.
 */
#define DW_OVL_KO	"/selftests-extra/overlay.ko"

/*
 * Can a test mount overlays and profile?  The module loaded, overlayfs
 * loaded from DW_OVL_KO.  1: yes; 0: SKIP, -errno: failed, the reason in
 * @why (@len bytes).
 */
int dw_ovl_ready(char *why, size_t len);
/*
 * A tmpfs at @top (created if need be; *@mounted set to 1 once mounted)
 * holding the empty directories of an overlay: lower, upper, work, merged.
 * 0 or -errno.
 */
int dw_ovl_scratch(const char *top, int *mounted);

#endif
