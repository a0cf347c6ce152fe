/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packed records (capture version 4, DW_CAPTURE_PACKED): the recorder
 * stores runs of SAMPLE, USER_STACK and SAMPLE_STACK records in DW_REC_PACK
 * records, each field the zigzag LEB128 of its difference from the same
 * field of the previous record of its type, each stack (the kernel IPs of
 * a SAMPLE, the user IPs of a USER_STACK, the words of a SAMPLE_STACK's
 * coded IPs) an id into a table of the stacks
 * the capture defined so far, as BPF stack maps do: a syscall-heavy
 * program's identical stacks are stored once.  Readers unpack them into
 * the very records they stand for (capture.c, record/replay.c), so nothing
 * else sees them.  Documentation/capture.rst, "Packed records".
 */
#ifndef DW_CAPTURE_PACK_H
#define DW_CAPTURE_PACK_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/dunwind.h>

/* A capture-only record type (the recorder's own, as DW_REC_KSYMS). */
#define DW_REC_PACK		67

/* Entry tags: the record type each stands for; 0 ends a pack (padding). */
#define DW_PACK_END		0

/* The largest pack: the largest record size that is a multiple of 8. */
#define DW_PACK_MAX		65528
/* Limits of the stack table, the same for writer and reader. */
#define DW_PACK_STACKS_MAX	(1U << 18)	/* stacks a capture defines */
#define DW_PACK_IPS_MAX		(1U << 22)	/* IPs of all of them */
#define DW_PACK_STACK_NR_MAX	8192		/* IPs of one */
/* A packed capture's records unpack to at most this many times its bytes. */
#define DW_PACK_EXPAND_MAX	1024
/* Fields of an entry, at most (the stack aside). */
#define DW_PACK_FIELDS		12
#define DW_PACK_KINDS		3

struct dw_pack_stack {
	__u32 off;		/* first IP in @ips */
	__u32 nr;
};

/*
 * What writer and reader both know after the same entries: the fields of
 * the previous entry of each kind and the stacks defined so far.
 */
struct dw_pack_state {
	__u64 prev[DW_PACK_KINDS][DW_PACK_FIELDS];
	struct dw_pack_stack *stacks;
	__u32 nr_stacks, cap_stacks;
	__u64 *ips;
	__u32 nr_ips, cap_ips;
};

/* The reader's state, file-wide: packs unpack in the order they came. */
struct dw_pack_reader {
	struct dw_pack_state st;
	__u64 *rec;		/* one unpacked record (DW_PACK_MAX bytes) */
	__u64 *tmp;		/* the IPs of a stack being defined */
	__u64 unpacked;		/* records unpacked so far */
	char why[160];		/* why the last pack was refused */
};

typedef int (*dw_pack_emit_fn)(const struct dunwind_rec_header *rec, void *arg);

void dw_pack_reader_init(struct dw_pack_reader *pr);
int dw_pack_unpack(struct dw_pack_reader *pr, const struct dunwind_rec_header *pack,
		   dw_pack_emit_fn emit, void *arg);
void dw_pack_reader_release(struct dw_pack_reader *pr);

struct dw_pack_writer;

struct dw_pack_writer *dw_pack_writer_new(void);
int dw_pack_add(struct dw_pack_writer *pw, const struct dunwind_rec_header *rec);
const struct dunwind_rec_header *dw_pack_close(struct dw_pack_writer *pw);
void *dw_pack_scratch(struct dw_pack_writer *pw);
void dw_pack_writer_free(struct dw_pack_writer *pw);

/* Shared by pack.c and pack_writer.c. */
struct dw_pack_field {
	__u8 off;
	__u8 width;
};

struct dw_pack_kind {
	__u32 type;
	__u16 fixed;		/* bytes before the IPs */
	__u8 nr_off;		/* offset of the u16 count of IPs */
	__u8 coded;		/* IPs coded as SAMPLE_STACK's: the stack is the
				   8-byte words that hold them, the count a field */
	__u8 nr_fields;
	struct dw_pack_field f[DW_PACK_FIELDS];
};

const struct dw_pack_kind *dw_pack_kind_of(__u32 type, unsigned int *idx);
int dw_pack_define(struct dw_pack_state *st, const __u64 *ips, __u32 nr);
void dw_pack_state_release(struct dw_pack_state *st);

#endif
