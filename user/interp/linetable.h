/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPython's location table (co_linetable, 3.11 and later): which source
 * line an instruction belongs to.  The table is a sequence of entries,
 * each covering 1..8 code units (2 bytes each): a first byte with bit 7
 * set, a 4-bit code and the length - 1, then 0..4 varints (6 bits a byte,
 * bit 6 "more follows") or 0..2 column bytes.  Codes 0-9: same line,
 * short column form; 10-12: line + (code - 10), two column bytes; 13: a
 * signed line delta only; 14: a signed line delta, end line, start and
 * end column; 15: no location.  Documentation/python.rst has the details.
 */
#ifndef DW_INTERP_LINETABLE_H
#define DW_INTERP_LINETABLE_H

#include <stddef.h>
#include <linux/types.h>

/*
 * dw_py_line() - the line of the instruction at byte offset @insn
 * @table, @len:	the co_linetable bytes (hostile: read within @len only)
 * @firstlineno:	co_firstlineno
 * @insn:		byte offset of the instruction; negative (a frame not
 *			started yet) gives @firstlineno
 * @line:		set to the line, or -1 for an instruction with no
 *			location (code 15)
 * Return: 0; -ENOENT (@insn past the table); -EINVAL (malformed).
 */
int dw_py_line(const __u8 *table, size_t len, int firstlineno, __s32 insn, int *line);

#endif
