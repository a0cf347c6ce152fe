/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol names as people read them: C++ and Rust (legacy and v0) names
 * demangled with binutils' libiberty, symbol versions dropped
 * ("memcpy@@GLIBC_2.14" -> "memcpy"; our "func@plt" keeps its suffix).
 */
#ifndef DW_DEMANGLE_H
#define DW_DEMANGLE_H

#include <stddef.h>

char *dw_demangle(const char *name, int demangle);

#endif
