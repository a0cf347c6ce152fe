// SPDX-License-Identifier: GPL-2.0
/*
 * Prints CPython's layout as offsetof() in its own internal headers says
 * it, one "field value" line per field of struct dw_cpython_layout.
 * Built by cpython_layout_test against python3.11-dev's headers (and
 * unstable's 3.13 and 3.14 when they are unpacked under out/unstable):
 *
 *   cc -I/usr/include/python3.11 cpython_layout_gen.c
 *
 * Not part of libdunwind: it needs the interpreter's headers.
 */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_code.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>
#include <stddef.h>
#include <stdio.h>

#define P(field, value)	printf("%s %zu\n", #field, (size_t)(value))

int main(void)
{
	P(rt_interp_head, offsetof(_PyRuntimeState, interpreters.head));
	P(is_next, offsetof(PyInterpreterState, next));
	P(is_threads_head, offsetof(PyInterpreterState, threads.head));
	P(ts_next, offsetof(PyThreadState, next));
	P(ts_native_tid, offsetof(PyThreadState, native_thread_id));
#if PY_VERSION_HEX < 0x030d0000
	P(ts_cframe, offsetof(PyThreadState, cframe));
	P(cframe_current, offsetof(_PyCFrame, current_frame));
	P(fr_code, offsetof(_PyInterpreterFrame, f_code));
	P(fr_insn, offsetof(_PyInterpreterFrame, prev_instr));
#else
	P(ts_current_frame, offsetof(PyThreadState, current_frame));
	P(fr_code, offsetof(_PyInterpreterFrame, f_executable));
	P(fr_insn, offsetof(_PyInterpreterFrame, instr_ptr));
#endif
	P(fr_prev, offsetof(_PyInterpreterFrame, previous));
#if PY_VERSION_HEX < 0x030c0000
	P(fr_entry, offsetof(_PyInterpreterFrame, is_entry));
#else
	P(fr_entry, offsetof(_PyInterpreterFrame, owner));
#endif
#if PY_VERSION_HEX >= 0x030e0000
	P(entry_value, FRAME_OWNED_BY_INTERPRETER);	/* and CSTACK above it */
#elif PY_VERSION_HEX >= 0x030d0000
	P(entry_value, FRAME_OWNED_BY_CSTACK);
#endif
	P(co_filename, offsetof(PyCodeObject, co_filename));
	P(co_name, offsetof(PyCodeObject, co_name));
	P(co_qualname, offsetof(PyCodeObject, co_qualname));
	P(co_linetable, offsetof(PyCodeObject, co_linetable));
	P(co_firstlineno, offsetof(PyCodeObject, co_firstlineno));
	P(co_code, offsetof(PyCodeObject, co_code_adaptive));
	P(ob_type, offsetof(PyObject, ob_type));
	P(bytes_size, offsetof(PyVarObject, ob_size));
	P(bytes_sval, offsetof(PyBytesObject, ob_sval));
	P(str_state, offsetof(PyASCIIObject, state));
	P(str_length, offsetof(PyASCIIObject, length));
	P(str_ascii_size, sizeof(PyASCIIObject));
	P(str_compact_size, sizeof(PyCompactUnicodeObject));
	return 0;
}
