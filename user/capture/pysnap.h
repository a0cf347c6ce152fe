/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture's Python code objects: one DW_REC_PYCODE record per code
 * object (per process, per address; again if the address came to hold
 * another one), written by the recorder while the process lives, so that
 * a report names Python frames on any machine, without the interpreter.
 * Documentation/capture.rst, "Python code objects".
 */
#ifndef DW_CAPTURE_PYSNAP_H
#define DW_CAPTURE_PYSNAP_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/dunwind.h>

#include "util/htab.h"

/* A capture-only record type (the recorder's own, as DW_REC_KSYMS). */
#define DW_REC_PYCODE		66

/* Is stack entry @e a Python frame (its code address follows)?  A stop? */
#define DW_IS_PY_FRAME(e) \
	(DUNWIND_IP_IS_INTERP(e) && DUNWIND_IP_INTERP_KIND(e) == DUNWIND_IP_INTERP_FRAME)
#define DW_IS_PY_STOP(e) \
	(DUNWIND_IP_IS_INTERP(e) && DUNWIND_IP_INTERP_KIND(e) == DUNWIND_IP_INTERP_STOP)

/*
 * A process's code object: the key of the snapshot's table and of the
 * recorder's naming cache (interp/pynames.c).
 */
struct dw_pycode_key {
	__u64 code;
	__u32 pid;
};

static inline uint64_t dw_pycode_hash(__u32 pid, __u64 code)
{
	return dw_hash_bytes(&code, sizeof(code), dw_hash_bytes(&pid, sizeof(pid), DW_HASH_INIT));
}

/* Longest qualname and file name stored (bytes, no NUL). */
#define DW_PYSNAP_NAME_MAX	255
#define DW_PYSNAP_FILE_MAX	1023

/*
 * struct dw_rec_pycode - one code object, as read in process @pid.
 * @time:	CLOCK_MONOTONIC of the stack it was read for: it names the
 *		stacks of @pid at @code from then on (until a later record).
 * @code:	the code object's address in @pid.
 * @firstlineno: co_firstlineno.
 * @name_len, @file_len: bytes of co_qualname and co_filename (UTF-8).
 * @table_len:	bytes of co_linetable (0: lines unknown).
 * @data:	the name, the file, the table, then zeros to a multiple of 8.
 */
struct dw_rec_pycode {
	struct dunwind_rec_header hdr;
	__u64 time;
	__u64 code;
	__u32 pid;
	__s32 firstlineno;
	__u16 name_len;
	__u16 file_len;
	__u32 table_len;
	__u8 data[];
};
_Static_assert(sizeof(struct dw_rec_pycode) == 40, "pycode record");

/* Largest table a record holds (records are at most 64 KiB - 8). */
#define DW_PYSNAP_TABLE_MAX	(0xfff8U - 40U - DW_PYSNAP_NAME_MAX - DW_PYSNAP_FILE_MAX)

int dw_pysnap_encode(void *buf, size_t cap, __u32 pid, __u64 code, __u64 time,
		     const char *name, const char *file, int firstlineno,
		     const __u8 *table, size_t table_len);

/* One code object read back. */
struct dw_pysnap_code {
	__u32 pid;
	int firstlineno;
	__u64 code, time;
	const char *name, *file;
	const __u8 *table;
	__u32 table_len;
	__u32 older;			/* index + 1 of the previous one of (pid, code) */
};

struct dw_pysnap {
	struct dw_pysnap_code *codes;
	size_t nr, cap;
	struct dw_htab ht;		/* (pid, code) -> its newest */
};

int dw_pysnap_add(struct dw_pysnap *s, const struct dunwind_rec_header *rec);
const struct dw_pysnap_code *dw_pysnap_find(const struct dw_pysnap *s, __u32 pid, __u64 code,
					    __u64 time);
void dw_pysnap_free(struct dw_pysnap *s);

#endif
