/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recognising a CPython interpreter in an ELF file (the python3.x
 * executable, which Debian links statically with libpython, or
 * libpython3.x.so): its runtime (_PyRuntime, the .PyRuntime section), its
 * eval loop (_PyEval_EvalFrameDefault), its version (Py_Version, or
 * _Py_DebugOffsets' for 3.13+), the type objects a code object reader
 * checks, and the layout of that version (interp/cpython_layout.h).
 */
#ifndef DW_INTERP_CPYTHON_ELF_H
#define DW_INTERP_CPYTHON_ELF_H

#include <linux/types.h>

#include "interp/cpython_layout.h"

/* Addresses are the file's ELF virtual addresses (add the load bias). */
struct dw_cpython {
	__u32 version;			/* PY_VERSION_HEX */
	__u64 runtime;			/* _PyRuntime */
	__u64 eval_lo, eval_hi;		/* _PyEval_EvalFrameDefault, [lo, hi) */
	__u64 cold_lo, cold_hi;		/* its .cold part (.symtab, or cpython_cold.c), 0: none */
	__u64 text_vaddr, text_offset;	/* p_vaddr, p_offset of the PT_LOAD holding it */
	__u64 code_type, str_type, bytes_type;	/* PyCode_Type, PyUnicode_Type, PyBytes_Type */
	struct dw_cpython_layout layout;
};

/*
 * dw_cpython_elf() - recognise CPython in the ELF file at @path
 * Return: 0 with @py filled; -ENOENT (not a CPython interpreter: no
 * _PyRuntime or no eval loop); -EOPNOTSUPP (CPython of a version whose
 * layout we do not know: 3.12, or before 3.11); -EINVAL (malformed);
 * another -errno (cannot open or read it).
 */
int dw_cpython_elf(const char *path, struct dw_cpython *py);

#include <gelf.h>
int dw_cpython_cold(Elf *elf, int fd, struct dw_cpython *py);

#endif
