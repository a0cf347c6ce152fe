// SPDX-License-Identifier: GPL-2.0
/* The SFrame decoder shared with user space (lib/sframe.c), built into the module. */
#include "../lib/sframe.c"
