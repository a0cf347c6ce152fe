/* SPDX-License-Identifier: GPL-2.0 */
/* Unload and load the dunwind module from a selftest (rmmod_test, stress_test). */
#ifndef DW_SELFTEST_MODULE_H
#define DW_SELFTEST_MODULE_H

/* delete_module("dunwind", O_NONBLOCK). 0 or -errno. */
int dw_module_unload(void);
/*
 * dw_module_unload(), retried every 20 ms for up to @ms while it is busy
 * (-EWOULDBLOCK, -EBUSY: walks still pending).  0 or the last -errno;
 * *@tries (if not NULL) gets the number of attempts.
 */
int dw_module_unload_wait(int ms, int *tries);
/* finit_module() of the file at @path. 0 or -errno. */
int dw_module_load(const char *path);
/* Wait up to @ms for the device node to come back and open. fd or -errno. */
int dw_device_wait(int ms);

#endif
