/* SPDX-License-Identifier: GPL-2.0 */
/* A process's CPU time from /proc/PID/stat (a zombie's too, until it is reaped). */
#ifndef DW_UTIL_PROC_CPU_H
#define DW_UTIL_PROC_CPU_H

int dw_proc_cpu_parse(const char *stat, int children, unsigned long long *ticks);
int dw_proc_cpu_ns(int pid, int children, unsigned long long *ns);

#endif
