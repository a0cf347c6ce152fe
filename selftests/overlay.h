/* SPDX-License-Identifier: GPL-2.0 */
/* Overlayfs for the container selftests (ovl_test, container_test). */
#ifndef DW_SELFTEST_OVERLAY_H
#define DW_SELFTEST_OVERLAY_H

/*
 * overlay.ko for the booted kernel: tools/vm/selftests copies it here when
 * tools/kernel knows the kernel's modules; the tests SKIP without it.
 */
#define DW_OVL_KO	"/selftests-extra/overlay.ko"

/* Make overlayfs available (a module in Debian's kernels). 0 or -errno (-ENOENT: no DW_OVL_KO). */
int dw_ovl_load(void);
/* Copy @src to a new file @dst with @mode. 0 or -errno. */
int dw_copy_file(const char *src, const char *dst, unsigned int mode);

#endif
