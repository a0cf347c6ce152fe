// SPDX-License-Identifier: GPL-2.0
/* The interpreter frame walker shared with user space (lib/interp.c), built into the module. */
#include <linux/build_bug.h>	/* static_assert() in uapi/linux/dunwind.h */
#include "../lib/interp.c"
