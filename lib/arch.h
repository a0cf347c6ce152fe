/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The architecture the readers in lib/ accept (the one they are built
 * for): its ELF machine and its SFrame ABI.  One file per architecture.
 */
#ifndef DUNWIND_LIB_ARCH_H
#define DUNWIND_LIB_ARCH_H

#if defined(__x86_64__)
#include "arch_x86.h"
#elif defined(__aarch64__)
#include "arch_arm64.h"
#else
#error "dunwind: no lib/arch_*.h for this architecture (x86_64 and arm64 so far)"
#endif

#endif /* DUNWIND_LIB_ARCH_H */
