/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where CPython keeps what a profiler reads: the offsets of its runtime,
 * interpreter and thread states, frames, code objects, bytes and str
 * objects, for one version.  3.11 has them as data here (derived with
 * offsetof from Debian's python3.11-dev internal headers;
 * user/tests/cpython_layout_gen.c prints them again and
 * cpython_layout_test checks they agree); 3.13 and later publish them in
 * _Py_DebugOffsets at the start of _PyRuntime, read by
 * dw_cpython_layout_from_debug().
 */
#ifndef DW_INTERP_CPYTHON_LAYOUT_H
#define DW_INTERP_CPYTHON_LAYOUT_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/dunwind.h>

#define DW_PY_VERSION(maj, min)	((__u32)(maj) << 24 | (__u32)(min) << 16)
#define DW_PY_MINOR(hex)	((hex) >> 16 & 0xff)

struct dw_cpython_layout {
	__u32 version;			/* PY_VERSION_HEX */
	/* _PyRuntime -> this thread's state */
	__u32 rt_interp_head;		/* _PyRuntimeState.interpreters.head */
	__u32 is_next;			/* PyInterpreterState.next */
	__u32 is_threads_head;		/* PyInterpreterState.threads.head */
	__u32 ts_next;			/* PyThreadState.next */
	__u32 ts_native_tid;		/* PyThreadState.native_thread_id */
	__u32 ts_cframe;		/* 3.11/3.12 PyThreadState.cframe; 0: none */
	__u32 cframe_current;		/* _PyCFrame.current_frame */
	__u32 ts_current_frame;		/* 3.13+ PyThreadState.current_frame */
	/* _PyInterpreterFrame */
	__u32 fr_code;			/* f_code / f_executable */
	__u32 fr_prev;			/* previous */
	__u32 fr_insn;			/* prev_instr / instr_ptr */
	__u32 fr_entry;			/* is_entry (3.11) / owner */
	__u8 fr_entry_size;
	__u8 entry_cmp;			/* DUNWIND_INTERP_CMP_* */
	__u8 entry_shim;		/* the entry frame is a shim (3.12+) */
	__u8 code_tag_mask;		/* 3.14: _PyStackRef's tag bit */
	__u64 entry_mask, entry_value;
	/* PyCodeObject */
	__u32 co_filename, co_name, co_qualname, co_linetable, co_firstlineno;
	__u32 co_code;			/* co_code_adaptive: the first instruction */
	/* objects */
	__u32 ob_type;			/* PyObject.ob_type */
	__u32 bytes_size;		/* PyVarObject.ob_size of a bytes object */
	__u32 bytes_sval;		/* PyBytesObject.ob_sval */
	__u32 str_state;		/* PyASCIIObject.state (bit field word) */
	__u32 str_length;		/* PyASCIIObject.length */
	__u32 str_ascii_size;		/* sizeof(PyASCIIObject): an ASCII str's data */
	__u32 str_compact_size;		/* sizeof(PyCompactUnicodeObject) */
};

/* The layout of a version kept as data, or NULL (3.13+: read _Py_DebugOffsets). */
const struct dw_cpython_layout *dw_cpython_layout_known(__u32 version);

/* The magic that starts _Py_DebugOffsets (3.13+). */
#define DW_PY_DEBUG_COOKIE	"xdebugpy"

/*
 * dw_cpython_layout_from_debug() - the layout _Py_DebugOffsets gives
 * @buf, @len:	the first bytes of the runtime (.PyRuntime section data)
 * @out:	filled
 * Return: 0; -ENOENT (no cookie: before 3.13); -EOPNOTSUPP (a version
 * whose struct we do not know, or a free-threaded build); -EINVAL (an
 * offset out of range).
 */
int dw_cpython_layout_from_debug(const void *buf, size_t len, struct dw_cpython_layout *out);

/* The descriptor that walks this layout's frames; @runtime_vaddr as in the file. */
void dw_cpython_desc(const struct dw_cpython_layout *l, __u64 runtime_vaddr,
		     struct dunwind_interp_desc *d);

#endif
