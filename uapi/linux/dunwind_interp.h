/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dunwind: interpreter descriptors (issue 26, Python frames).
 *
 * A descriptor tells a walk, as data, how to find the calling thread's
 * chain of interpreter frames and what to read from each frame: a short
 * program of steps from a base address (the interpreter's runtime, or the
 * thread's TLS base) to the newest frame, then the offsets of each frame's
 * code object, instruction pointer and previous frame, and the test that
 * marks the frame where one C-level call of the eval loop began.  No
 * interpreter code is needed to walk: CPython 3.11 to 3.14 differ only in
 * the numbers, and another interpreter (Ruby, Perl) would be more data.
 *
 * lib/interp.c validates descriptors and walks them.  Like every structure
 * of uapi/linux/dunwind.h this one is fixed width, little-endian x86_64,
 * has its size first and reserved fields that must be zero.  It will join
 * that header with the ioctl that registers it; Documentation/python.rst
 * is its prose version.
 */
#ifndef _UAPI_LINUX_DUNWIND_INTERP_H
#define _UAPI_LINUX_DUNWIND_INTERP_H

#include <linux/types.h>

/* Steps a program may have, loops it may nest, iterations a loop may take. */
#define DUNWIND_INTERP_MAX_STEPS	12
#define DUNWIND_INTERP_MAX_LOOPS	2
#define DUNWIND_INTERP_MAX_ITER		1024
/* Largest offset a step or a frame field may name (bytes). */
#define DUNWIND_INTERP_MAX_OFF		(1U << 20)
/* Bytes of a frame a walk reads at once: every frame field lies below this. */
#define DUNWIND_INTERP_FRAME_MAX	128

/*
 * One step of the program that finds the newest frame.  The walk keeps one
 * address, "cur"; each step changes it.
 *
 * DUNWIND_INTERP_OP_BASE: cur = base[@arg] + @imm (DUNWIND_INTERP_BASE_*).
 * DUNWIND_INTERP_OP_DEREF: cur = the 8-byte pointer at cur + @arg (8-aligned).
 *	A null pointer inside a loop goes on with the loop's next node;
 *	outside one it means "no frames" (the walk ends with none).
 * DUNWIND_INTERP_OP_EACH: cur is the first node of a list whose next
 *	pointer is at @arg (8-aligned); the steps that follow run for each
 *	node, at most @imm (1..DUNWIND_INTERP_MAX_ITER) nodes.
 * DUNWIND_INTERP_OP_MATCH: the @size-byte (4 or 8) value at cur + @arg
 *	(aligned to @size) must equal the key @flags names
 *	(DUNWIND_INTERP_KEY_*).  On a mismatch the innermost loop goes on
 *	with its next node; with no loop left the thread has no interpreter
 *	state.  A match ends every loop: cur is this thread's state.
 */
struct dunwind_interp_step {
	__u8 op;
	__u8 size;
	__u16 flags;
	__u32 arg;
	__s64 imm;
};

#define DUNWIND_INTERP_OP_BASE		1
#define DUNWIND_INTERP_OP_DEREF		2
#define DUNWIND_INTERP_OP_EACH		3
#define DUNWIND_INTERP_OP_MATCH		4

/* Bases the walker passes in (struct dunwind_interp_env). */
#define DUNWIND_INTERP_BASE_RUNTIME	0	/* load bias + @runtime_vaddr */
#define DUNWIND_INTERP_BASE_TLS		1	/* the thread's TLS base (%fs) */

/* Keys a MATCH compares with. */
#define DUNWIND_INTERP_KEY_TID		0	/* the thread's id (gettid()) */
#define DUNWIND_INTERP_KEY_TLS		1	/* its TLS base (glibc: pthread_self()) */

/*
 * struct dunwind_interp_desc - how to walk one interpreter's frames.
 *
 * @size:		sizeof(struct dunwind_interp_desc) as the caller knows it.
 * @flags:		must be zero.
 * @kind:		DUNWIND_INTERP_CPYTHON (informative: the walk is generic).
 * @version:		the interpreter's version, (major << 16 | minor << 8 |
 *			micro), informative.
 * @runtime_vaddr:	ELF virtual address of the runtime (CPython: _PyRuntime)
 *			in the file the descriptor is registered for.
 * @nr_steps:		steps used in @steps, 1..DUNWIND_INTERP_MAX_STEPS; the
 *			first is a BASE, every EACH is followed by a MATCH.
 * @steps:		the program; unused steps are zero.
 * @frame_code:		offset in a frame of the code object pointer.
 * @frame_prev:		of the previous (calling) frame's pointer.
 * @frame_insn:		of the instruction pointer.
 * @code_tag_mask:	low bits of the code pointer that are tags, cleared
 *			before use (CPython 3.14's _PyStackRef: 1); at most 7.
 * @code_insn:		offset in a code object of its first instruction;
 *			a frame's instruction offset is insn - (code + @code_insn).
 * @insn_align:		instructions are aligned to this (1, 2, 4 or 8).
 * @entry_off:		offset in a frame of the value the entry test reads.
 * @entry_size:		its size, 1, 2, 4 or 8, @entry_off aligned to it.
 * @entry_cmp:		DUNWIND_INTERP_CMP_EQ: the frame is an entry when
 *			(value & @entry_mask) == @entry_value; _GE: when
 *			(value & @entry_mask) >= @entry_value.
 * @entry_flags:	DUNWIND_INTERP_ENTRY_SHIM: an entry frame only marks the
 *			boundary and is not itself emitted (3.12+'s frame owned
 *			by the C stack); without it the entry frame is the
 *			outermost frame of its eval-loop call (3.11's is_entry).
 * @entry_mask, @entry_value: the test; @entry_mask non-zero and within
 *			@entry_size bytes, @entry_value within @entry_mask.
 * @__reserved*:	must be zero.
 *
 * Frame fields (@frame_*, @entry_off + @entry_size) lie within the first
 * DUNWIND_INTERP_FRAME_MAX bytes of a frame; pointers are 8-aligned.
 */
struct dunwind_interp_desc {
	__u32 size;
	__u32 flags;
	__u32 kind;
	__u32 version;
	__u64 runtime_vaddr;
	__u32 nr_steps;
	__u32 __reserved0;
	struct dunwind_interp_step steps[DUNWIND_INTERP_MAX_STEPS];
	__u32 frame_code;
	__u32 frame_prev;
	__u32 frame_insn;
	__u32 code_tag_mask;
	__u32 code_insn;
	__u32 insn_align;
	__u32 entry_off;
	__u8 entry_size;
	__u8 entry_cmp;
	__u16 entry_flags;
	__u64 entry_mask;
	__u64 entry_value;
	__u64 __reserved[4];
};
#define DUNWIND_INTERP_DESC_SIZE_VER0	304

#define DUNWIND_INTERP_CPYTHON		1

#define DUNWIND_INTERP_CMP_EQ		0
#define DUNWIND_INTERP_CMP_GE		1

#define DUNWIND_INTERP_ENTRY_SHIM	(1U << 0)

/*
 * One interpreter frame as a walk emits it: the code object's address and
 * the instruction's byte offset in it (negative before the first
 * instruction ran: CPython 3.11's prev_instr of a frame just pushed).
 * DUNWIND_INTERP_FRAME_ENTRY: the outermost frame of one C-level call of
 * the eval loop; the native frames of that call come after it.
 */
struct dunwind_interp_frame {
	__u64 code;
	__s32 insn;
	__u32 flags;
};

#define DUNWIND_INTERP_FRAME_ENTRY	(1U << 0)

/* Why an interpreter walk ended. */
enum dunwind_interp_stop {
	DUNWIND_INTERP_STOP_END		= 0,	/* the oldest frame: previous is null */
	DUNWIND_INTERP_STOP_NO_THREAD	= 1,	/* no interpreter state for this thread */
	DUNWIND_INTERP_STOP_MAX_DEPTH	= 2,	/* the caller's frame array is full */
	DUNWIND_INTERP_STOP_FAULT	= 3,	/* a read failed */
	/* A frame or pointer misaligned, a null code object, an instruction out of range. */
	DUNWIND_INTERP_STOP_BAD_FRAME	= 4,
	DUNWIND_INTERP_STOP_CYCLE	= 5,	/* the chain comes back to a frame */
	DUNWIND_INTERP_STOP_BOUND	= 6,	/* a loop or read budget ran out */
	DUNWIND_INTERP_STOP_MAX		= 7,
};

#ifndef __KERNEL__
#define __DUNWIND_INTERP_ASSERT(c, m) _Static_assert(c, m)
#else
#define __DUNWIND_INTERP_ASSERT(c, m) static_assert(c, m)
#endif
__DUNWIND_INTERP_ASSERT(sizeof(struct dunwind_interp_step) == 16, "interp step");
__DUNWIND_INTERP_ASSERT(sizeof(struct dunwind_interp_desc) == DUNWIND_INTERP_DESC_SIZE_VER0,
			"interp desc");
__DUNWIND_INTERP_ASSERT(sizeof(struct dunwind_interp_frame) == 16, "interp frame");
#undef __DUNWIND_INTERP_ASSERT

#endif /* _UAPI_LINUX_DUNWIND_INTERP_H */
