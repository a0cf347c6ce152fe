/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The few ELF facts dunwind needs about a file: the address of its first
 * PT_LOAD (for the load bias), its PT_GNU_SFRAME segment and its GNU
 * build-id.  Shared by the kernel module (kmod/elf.c reads user memory or
 * the file) and user space (user/sframe/sframe_reg.c reads the file), so
 * both compute the same build-id for the same file.
 *
 * Pure C like sframe.c: only <linux/types.h>, no libc or kernel calls, every
 * byte through the caller's read callback, every loop bounded.
 */
#ifndef DUNWIND_LIB_ELFREAD_H
#define DUNWIND_LIB_ELFREAD_H

#include <linux/types.h>

/* Error code, returned negated (Linux errno): not an ELF file we read. */
#define DUNWIND_ELF_ENOEXEC	8

#define DUNWIND_BUILD_ID_MAX	20
#define DUNWIND_ELF_MAX_SFRAME	(256U << 20)	/* largest PT_GNU_SFRAME accepted */
#define DUNWIND_ELF_MAX_PHNUM	128
#define DUNWIND_ELF_MAX_PHOFF	(16U * 4096)
#define DUNWIND_ELF_MAX_NOTES	4096		/* bytes of PT_NOTE scanned per segment */

/*
 * struct dunwind_elf_src - where the file's bytes come from.
 * @read:	copy @len bytes at offset @off (from the ELF header) into @dst;
 *		return 0 or a negative errno (passed up).  At most 64 bytes.
 * @ctx:	passed to @read.
 */
struct dunwind_elf_src {
	int (*read)(void *ctx, __u64 off, void *dst, __u32 len);
	void *ctx;
};

struct dunwind_elf_info {
	__u64 load_vaddr;		/* p_vaddr of the PT_LOAD at offset 0 */
	__u64 sframe_vaddr;		/* PT_GNU_SFRAME, if sframe_size */
	__u64 sframe_offset;
	__u64 sframe_size;
	__u8 build_id[DUNWIND_BUILD_ID_MAX];
	__u32 build_id_size;		/* 0: none */
};

/**
 * dunwind_elf_parse() - read the ELF header, program headers and build-id
 * @src:	reader; offsets are from the ELF header
 * @mapped:	nonzero: @src reads the image as mapped (segments at p_vaddr -
 *		load address); 0: the file (segments at p_offset)
 * @info:	result; @info->sframe_size is 0 when there is no PT_GNU_SFRAME,
 *		@info->build_id_size 0 when there is no build-id
 *
 * Context: any in which the callback may run.
 * Return: 0; -DUNWIND_ELF_ENOEXEC (not a 64-bit little-endian x86-64 ELF
 * with a PT_LOAD at offset 0, or headers out of range); or the callback's
 * error.
 */
int dunwind_elf_parse(const struct dunwind_elf_src *src, int mapped,
		      struct dunwind_elf_info *info);

#endif /* DUNWIND_LIB_ELFREAD_H */
