// SPDX-License-Identifier: GPL-2.0
/* Naming a CPython code object in a live process: see pycode.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "interp/linetable.h"
#include "interp/pycode.h"

/* Characters of a str read at most (names and paths are short). */
#define PY_STR_MAX	1024
/* Bytes dw_pycode_ident() reads at once. */
#define PY_IDENT_SPAN	512

int dw_pymem_pid_read(void *ctx, __u64 addr, void *dst, size_t len)
{
	struct iovec local = { dst, len }, remote = { (void *)(unsigned long)addr, len };
	ssize_t n = process_vm_readv(*(pid_t *)ctx, &local, 1, &remote, 1, 0);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EFAULT;
}

static int py_read(const struct dw_pymem *mem, __u64 addr, __u32 off, void *dst, size_t len)
{
	if (addr + off < addr || addr + off + len < addr + off)
		return -EFAULT;
	return mem->read(mem->ctx, addr + off, dst, len) ? -EFAULT : 0;
}

static int py_ptr(const struct dw_pymem *mem, __u64 addr, __u32 off, __u64 *v)
{
	int err = py_read(mem, addr, off, v, sizeof(*v));

	if (!err && (!*v || (*v & 7)))
		return -EINVAL;
	return err;
}

/* An object at @addr whose type must be @type (0: not checked). */
static int py_typed(const struct dw_cpython_layout *l, const struct dw_pymem *mem,
		    __u64 addr, __u64 type)
{
	__u64 t;
	int err;

	if (!addr || (addr & 7))
		return -EINVAL;
	err = py_read(mem, addr, l->ob_type, &t, sizeof(t));
	if (!err && type && t != type)
		return -EINVAL;
	return err;
}

/* Append code point @c as UTF-8 if it fits (with the NUL); 0 or -ENOSPC. */
static int py_utf8(char *out, size_t cap, size_t *n, __u32 c)
{
	__u8 b[4];
	size_t k, len;

	if (!c || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff)
		c = '?';
	if (c < 0x80) {
		b[0] = (__u8)c;
		len = 1;
	} else if (c < 0x800) {
		b[0] = (__u8)(0xc0 | c >> 6);
		b[1] = (__u8)(0x80 | (c & 63));
		len = 2;
	} else if (c < 0x10000) {
		b[0] = (__u8)(0xe0 | c >> 12);
		b[1] = (__u8)(0x80 | (c >> 6 & 63));
		b[2] = (__u8)(0x80 | (c & 63));
		len = 3;
	} else {
		b[0] = (__u8)(0xf0 | c >> 18);
		b[1] = (__u8)(0x80 | (c >> 12 & 63));
		b[2] = (__u8)(0x80 | (c >> 6 & 63));
		b[3] = (__u8)(0x80 | (c & 63));
		len = 4;
	}
	if (*n + len >= cap)
		return -ENOSPC;
	for (k = 0; k < len; k++)
		out[(*n)++] = (char)b[k];
	return 0;
}

/* A compact str at @addr as UTF-8 in @out (cut at @cap - 1 bytes). */
static int py_str(const struct dw_cpython_layout *l, const struct dw_pytypes *types,
		  const struct dw_pymem *mem, __u64 addr, char *out, size_t cap)
{
	__u32 state, kind, ascii, c, i;
	__u8 *data;
	__u64 len;
	size_t n = 0;
	int err;

	err = py_typed(l, mem, addr, types->str);
	if (!err)
		err = py_read(mem, addr, l->str_state, &state, sizeof(state));
	if (!err)
		err = py_read(mem, addr, l->str_length, &len, sizeof(len));
	if (err)
		return err;
	kind = state >> 2 & 7;
	ascii = state >> 6 & 1;
	if (!(state >> 5 & 1) || (kind != 1 && kind != 2 && kind != 4) || (ascii && kind != 1) ||
	    len > (1ULL << 40))
		return -EINVAL;
	if (len > PY_STR_MAX)
		len = PY_STR_MAX;
	data = malloc(len * kind + 1);
	if (!data)
		return -ENOMEM;
	err = py_read(mem, addr, ascii ? l->str_ascii_size : l->str_compact_size, data, len * kind);
	for (i = 0; !err && i < len; i++) {
		if (kind == 1)
			c = data[i];
		else if (kind == 2)
			c = (__u32)data[2 * i] | (__u32)data[2 * i + 1] << 8;
		else
			memcpy(&c, data + 4 * i, 4);
		if (ascii && c >= 0x80)
			err = -EINVAL;
		else if (py_utf8(out, cap, &n, c))
			break;
	}
	free(data);
	out[n] = 0;
	return err;
}

/* The bytes object @table: its size and bytes (malloc()ed) in @buf. */
static int py_table(const struct dw_cpython_layout *l, const struct dw_pytypes *types,
		    const struct dw_pymem *mem, __u64 table, __u8 **buf, size_t *len)
{
	__u64 size;
	int err;

	*buf = NULL;
	err = py_typed(l, mem, table, types->bytes);
	if (!err)
		err = py_read(mem, table, l->bytes_size, &size, sizeof(size));
	if (err)
		return err;
	if (size > DW_PYCODE_TABLE_MAX)
		return -EINVAL;
	*buf = malloc(size ? size : 1);
	if (!*buf)
		return -ENOMEM;
	err = py_read(mem, table, l->bytes_sval, *buf, size);
	if (err) {
		free(*buf);
		*buf = NULL;
	}
	*len = size;
	return err;
}

/* The line of @insn from the code object's line table. */
static int py_line(const struct dw_cpython_layout *l, const struct dw_pytypes *types,
		   const struct dw_pymem *mem, __u64 table, int first, __s32 insn, int *line)
{
	size_t size;
	__u8 *buf;
	int err;

	err = py_table(l, types, mem, table, &buf, &size);
	if (!err)
		err = dw_py_line(buf, size, first, insn, line);
	free(buf);
	return err == -ENOENT ? -EINVAL : err;
}

/**
 * dw_pycode_table() - the line table of code object @code, as bytes
 * @l, @types, @mem:	as for dw_pycode_read()
 * @code:		the code object
 * @table, @len:	set to the bytes (malloc()ed, the caller frees) and their count
 *
 * Context: user space.
 * Return: 0; -EFAULT, -EINVAL (not a code object, or its table not bytes
 * or over DW_PYCODE_TABLE_MAX) or -ENOMEM.
 */
int dw_pycode_table(const struct dw_cpython_layout *l, const struct dw_pytypes *types,
		    const struct dw_pymem *mem, __u64 code, __u8 **table, size_t *len)
{
	__u64 addr;
	int err;

	*table = NULL;
	*len = 0;
	err = py_typed(l, mem, code, types->code);
	if (!err)
		err = py_ptr(mem, code, l->co_linetable, &addr);
	return err ? err : py_table(l, types, mem, addr, table, len);
}

/**
 * dw_pycode_ident() - what tells one code object from another at @code
 * @l, @mem:	as for dw_pycode_read()
 * @code:	the code object
 * @id:		set to its type, qualname, filename and line table pointers
 *		and first line: another object at the same address differs
 *		in one of them (its strings are other objects)
 *
 * Context: user space.
 * Return: 0, or -EFAULT.
 */
int dw_pycode_ident(const struct dw_cpython_layout *l, const struct dw_pymem *mem, __u64 code,
		    __u64 id[DW_PYCODE_IDENT])
{
	const __u32 off[DW_PYCODE_IDENT] = {
		l->ob_type, l->co_qualname, l->co_filename, l->co_linetable, l->co_firstlineno,
	};
	__u32 lo = off[0], hi = off[0], i;
	__u8 buf[PY_IDENT_SPAN];
	int err = 0;

	for (i = 1; i < DW_PYCODE_IDENT; i++) {
		lo = off[i] < lo ? off[i] : lo;
		hi = off[i] > hi ? off[i] : hi;
	}
	hi += 8;
	/* One read where the fields are close (they are: the object's header). */
	if (hi - lo <= sizeof(buf))
		err = py_read(mem, code, lo, buf, hi - lo);
	for (i = 0; !err && i < DW_PYCODE_IDENT; i++) {
		__u32 n = i == DW_PYCODE_IDENT - 1 ? 4 : 8;

		id[i] = 0;
		if (hi - lo <= sizeof(buf))
			memcpy(&id[i], buf + off[i] - lo, n);
		else
			err = py_read(mem, code, off[i], &id[i], n);
	}
	return err;
}

int dw_pycode_read(const struct dw_cpython_layout *l, const struct dw_pytypes *types,
		   const struct dw_pymem *mem, __u64 code, __s32 insn,
		   struct dw_pycode_info *out)
{
	__u64 name, file, table;
	__s32 first = 0;
	int err;

	memset(out, 0, sizeof(*out));
	err = py_typed(l, mem, code, types->code);
	if (!err)
		err = py_ptr(mem, code, l->co_qualname, &name);
	if (!err)
		err = py_ptr(mem, code, l->co_filename, &file);
	if (!err)
		err = py_ptr(mem, code, l->co_linetable, &table);
	if (!err)
		err = py_read(mem, code, l->co_firstlineno, &first, sizeof(first));
	if (!err && (first < 0 || first > (1 << 30)))
		err = -EINVAL;
	if (!err)
		err = py_str(l, types, mem, name, out->name, sizeof(out->name));
	if (!err)
		err = py_str(l, types, mem, file, out->file, sizeof(out->file));
	if (!err)
		err = py_line(l, types, mem, table, first, insn, &out->line);
	out->firstlineno = first;
	return err;
}
