/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Interpreter frame walker shared by the kernel module and user space: it
 * validates a struct dunwind_interp_desc (uapi/linux/dunwind.h) and
 * runs it against a thread's memory, emitting (code object, instruction
 * offset) pairs and why it stopped.
 *
 * Pure C like sframe.c: only <linux/types.h> types, no libc or kernel
 * calls, no allocation, no division; every byte of the target's memory
 * comes through the caller's read callback, which may fail (the kernel
 * passes a faultable copy_from_user reader, host tests process_vm_readv or
 * a byte buffer).  Every loop is bounded: by the descriptor's iteration
 * counts, by DUNWIND_INTERP_MAX_READS and by the caller's frame array.
 */
#ifndef DUNWIND_LIB_INTERP_H
#define DUNWIND_LIB_INTERP_H

#include <linux/types.h>
#include <linux/dunwind.h>

/* Error code, returned negated (Linux errno): a malformed descriptor. */
#define DUNWIND_INTERP_EINVAL		22

/* Reads one walk may make in all, whatever the descriptor says. */
#define DUNWIND_INTERP_MAX_READS	4096
/* Frames one walk may emit (the caller's array may be smaller). */
#define DUNWIND_INTERP_MAX_FRAMES	1024
/*
 * Instruction offsets a walk accepts, bytes: -DUNWIND_INTERP_MIN_INSN (a
 * frame pushed but not started) up to DUNWIND_INTERP_MAX_INSN - 1.
 */
#define DUNWIND_INTERP_MIN_INSN		16
#define DUNWIND_INTERP_MAX_INSN		(1 << 26)

/*
 * struct dunwind_interp_mem - where the thread's memory comes from.
 * @read:	copy @len bytes at address @addr into @dst; return 0 or a
 *		negative errno.  The walker asks for at most
 *		DUNWIND_INTERP_FRAME_MAX bytes at a time, into an 8-aligned
 *		@dst, a multiple of 8 bytes but for a 4-byte MATCH; a
 *		frame's read starts 8-aligned, a pointer's wherever the
 *		pointers it followed lead.
 * @ctx:	passed to @read.
 */
struct dunwind_interp_mem {
	int (*read)(void *ctx, __u64 addr, void *dst, __u32 len);
	void *ctx;
};

/*
 * struct dunwind_interp_env - the thread being walked.
 * @base:	addresses DUNWIND_INTERP_OP_BASE starts from, indexed by
 *		DUNWIND_INTERP_BASE_*: the runtime's address in this process
 *		(load bias + runtime_vaddr) and the thread's TLS base.
 * @key:	values DUNWIND_INTERP_OP_MATCH compares with, indexed by
 *		DUNWIND_INTERP_KEY_*: the thread id and the TLS base.
 */
struct dunwind_interp_env {
	__u64 base[2];
	__u64 key[2];
};

/**
 * dunwind_interp_validate() - check a descriptor before it is used
 * @d:		the descriptor, @d->size bytes (at least
 *		DUNWIND_INTERP_DESC_SIZE_VER0) already copied in
 *
 * Checks flags, reserved fields, the program (ops, sizes, offsets,
 * alignment, loop nesting, a BASE first, a MATCH after every EACH) and the
 * frame layout.  Return: 0, or -DUNWIND_INTERP_EINVAL.
 */
int dunwind_interp_validate(const struct dunwind_interp_desc *d);

/**
 * dunwind_interp_walk() - emit one thread's interpreter frames, newest first
 * @d:		a descriptor (validated again here)
 * @env:	the thread's bases and keys
 * @mem:	reader of the thread's memory
 * @out:	frames, newest first
 * @max:	capacity of @out (at most DUNWIND_INTERP_MAX_FRAMES are used)
 * @nr:		set to the number of frames written
 *
 * Context: any in which @mem->read may run; the kernel walks where faults
 * are allowed.  No frame is invented: whatever cannot be read or checked
 * ends the walk with its reason.
 * Return: a DUNWIND_INTERP_STOP_* reason (>= 0), or -DUNWIND_INTERP_EINVAL
 * for a malformed descriptor (*@nr is then 0).
 */
int dunwind_interp_walk(const struct dunwind_interp_desc *d,
			const struct dunwind_interp_env *env,
			const struct dunwind_interp_mem *mem,
			struct dunwind_interp_frame *out, __u32 max, __u32 *nr);

/**
 * dunwind_interp_walk_valid() - dunwind_interp_walk() of a descriptor
 * known to be valid
 * @d:		a descriptor dunwind_interp_validate() accepted, unchanged
 *		since (the kernel's registrations: checked once, when
 *		registered)
 * @env, @mem, @out, @max, @nr: as for dunwind_interp_walk()
 *
 * Context: as dunwind_interp_walk().
 * Return: a DUNWIND_INTERP_STOP_* reason (>= 0).
 */
int dunwind_interp_walk_valid(const struct dunwind_interp_desc *d,
			      const struct dunwind_interp_env *env,
			      const struct dunwind_interp_mem *mem,
			      struct dunwind_interp_frame *out, __u32 max, __u32 *nr);

#endif /* DUNWIND_LIB_INTERP_H */
