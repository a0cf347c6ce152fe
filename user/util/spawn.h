/* SPDX-License-Identifier: GPL-2.0 */
/* A command started held on a pipe, and its exit status as a shell says it. */
#ifndef DW_SPAWN_H
#define DW_SPAWN_H

int dw_spawn_held(char **cmd, int *go);
int dw_exit_status(int status);

#endif
