/* SPDX-License-Identifier: GPL-2.0 */
/* The running boot's id; dw_capture_same_boot() (capture.h) compares it. */
#ifndef DW_CAPTURE_BOOT_ID_H
#define DW_CAPTURE_BOOT_ID_H

#include <linux/types.h>

int dw_boot_id_read(__u8 id[16]);

#endif
