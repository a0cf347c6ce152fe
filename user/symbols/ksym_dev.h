/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols asked of the module (DUNWIND_IOC_KSYM), as kallsyms lines. */
#ifndef DW_KSYM_DEV_H
#define DW_KSYM_DEV_H

#include <stddef.h>
#include <linux/dunwind.h>

int dw_ksym_dev(int dev_fd, __u64 addr, struct dunwind_ksym *k);
char *dw_ksym_dev_lines(int dev_fd, const __u64 *ips, size_t nips, size_t *len);

#endif
