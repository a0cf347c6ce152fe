/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Naming a CPython code object in a live process: its qualname, file name
 * and the line of an instruction, read from the process's memory
 * (process_vm_readv) or any other reader.  The memory is hostile: every
 * object's type is checked against the interpreter's type objects, every
 * length is bounded before it is read, and a string must be a compact one
 * of a known kind.
 */
#ifndef DW_INTERP_PYCODE_H
#define DW_INTERP_PYCODE_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#include "interp/cpython_layout.h"

/* Longest name and file kept (bytes of UTF-8, with the NUL). */
#define DW_PYCODE_NAME_MAX	256
#define DW_PYCODE_FILE_MAX	1024
/* Largest line table read. */
#define DW_PYCODE_TABLE_MAX	(1U << 20)

struct dw_pymem {
	/* Copy @len bytes at @addr; 0 or -errno. */
	int (*read)(void *ctx, __u64 addr, void *dst, size_t len);
	void *ctx;
};

/* The interpreter's type objects in this process (load bias added); 0: unchecked. */
struct dw_pytypes {
	__u64 code, str, bytes;
};

struct dw_pycode_info {
	char name[DW_PYCODE_NAME_MAX];		/* co_qualname */
	char file[DW_PYCODE_FILE_MAX];		/* co_filename */
	int firstlineno;
	int line;				/* -1: the instruction has no line */
};

/*
 * dw_pycode_read() - name code object @code at instruction byte offset @insn
 * Return: 0; -EFAULT (a read failed); -EINVAL (not a code object, or
 * something in it is not what it should be); -ENOMEM.
 */
int dw_pycode_read(const struct dw_cpython_layout *l, const struct dw_pytypes *types,
		   const struct dw_pymem *mem, __u64 code, __s32 insn,
		   struct dw_pycode_info *out);

int dw_pycode_table(const struct dw_cpython_layout *l, const struct dw_pytypes *types,
		    const struct dw_pymem *mem, __u64 code, __u8 **table, size_t *len);

/* Words dw_pycode_ident() reads. */
#define DW_PYCODE_IDENT		5
int dw_pycode_ident(const struct dw_cpython_layout *l, const struct dw_pymem *mem, __u64 code,
		    __u64 id[DW_PYCODE_IDENT]);

/* A reader over process_vm_readv(); @ctx points to the pid_t. */
int dw_pymem_pid_read(void *ctx, __u64 addr, void *dst, size_t len);

#endif
