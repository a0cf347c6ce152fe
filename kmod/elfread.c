// SPDX-License-Identifier: GPL-2.0
/* The ELF reader shared with user space (lib/elfread.c), built into the module. */
#include "../lib/elfread.c"
