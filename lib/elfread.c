// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ELF facts (first PT_LOAD, PT_GNU_SFRAME, GNU build-id) shared by the
 * kernel module and user space.  See elfread.h.
 *
 * The same rules as sframe.c: no includes but lib/ headers, no libc; fields
 * are decoded from byte buffers (little-endian), so no ELF header of the
 * kernel or of libc is needed; every loop is bounded by a checked count.
 */
#include "elfread.h"
#include "arch.h"
#include "le.h"
#include "sframe.h"	/* DUNWIND_SFRAME_PT_GNU */

#define E(x)		(-DUNWIND_ELF_##x)

#define ELF_EHDR_SIZE	64
#define ELF_PHDR_SIZE	56
#define ELF_NHDR_SIZE	12
#define ELF_CLASS64	2
#define ELF_DATA2LSB	1
#define ELF_PT_LOAD	1
#define ELF_PT_NOTE	4
#define ELF_NT_GNU_BUILD_ID 3
#define ELF_MAX_NOTE_SEGS 4

static __u64 el_align4(__u64 v)
{
	return (v + 3) & ~(__u64)3;
}

/* Find NT_GNU_BUILD_ID in the notes at [off, off + len), one note at a time. */
static void el_build_id(const struct dunwind_elf_src *src, __u64 off, __u64 len,
			struct dunwind_elf_info *info)
{
	__u8 nh[ELF_NHDR_SIZE + 4];
	__u64 pos = 0;

	if (len > DUNWIND_ELF_MAX_NOTES)
		len = DUNWIND_ELF_MAX_NOTES;
	while (pos + ELF_NHDR_SIZE <= len) {
		__u32 namesz, descsz, type;
		__u64 desc, next;

		if (src->read(src->ctx, off + pos, nh, ELF_NHDR_SIZE))
			return;
		namesz = dunwind_le32(nh);
		descsz = dunwind_le32(nh + 4);
		type = dunwind_le32(nh + 8);
		desc = pos + ELF_NHDR_SIZE + el_align4(namesz);
		next = desc + el_align4(descsz);
		if (namesz > len || descsz > len || next > len)
			return;
		if (type == ELF_NT_GNU_BUILD_ID && namesz == 4 && descsz &&
		    descsz <= DUNWIND_BUILD_ID_MAX &&
		    !src->read(src->ctx, off + pos + ELF_NHDR_SIZE, nh + ELF_NHDR_SIZE, 4) &&
		    nh[12] == 'G' && nh[13] == 'N' && nh[14] == 'U' && nh[15] == 0 &&
		    !src->read(src->ctx, off + desc, info->build_id, descsz)) {
			info->build_id_size = descsz;
			return;
		}
		pos = next;
	}
}

/* The ELF header: 64-bit, little-endian, this architecture's, sane program headers. */
static int el_ehdr(const __u8 *eh, __u64 *phoff, __u32 *phnum)
{
	if (eh[0] != 0x7f || eh[1] != 'E' || eh[2] != 'L' || eh[3] != 'F' ||
	    eh[4] != ELF_CLASS64 || eh[5] != ELF_DATA2LSB ||
	    dunwind_le16(eh + 18) != DUNWIND_ARCH_ELF_MACHINE || dunwind_le16(eh + 54) != ELF_PHDR_SIZE)
		return E(ENOEXEC);
	*phoff = dunwind_le64(eh + 32);
	*phnum = dunwind_le16(eh + 56);
	if (!*phnum || *phnum > DUNWIND_ELF_MAX_PHNUM || *phoff > DUNWIND_ELF_MAX_PHOFF)
		return E(ENOEXEC);
	return 0;
}

int dunwind_elf_parse(const struct dunwind_elf_src *src, int mapped,
		      struct dunwind_elf_info *info)
{
	__u64 note_off[ELF_MAX_NOTE_SEGS], note_len[ELF_MAX_NOTE_SEGS], phoff;
	__u32 i, phnum, nr_notes = 0;
	__u8 buf[ELF_EHDR_SIZE], *d = (__u8 *)info;
	int have_load = 0, ret;

	for (i = 0; i < sizeof(*info); i++)
		d[i] = 0;
	ret = src->read(src->ctx, 0, buf, ELF_EHDR_SIZE);
	if (ret)
		return ret;
	ret = el_ehdr(buf, &phoff, &phnum);
	if (ret)
		return ret;
	for (i = 0; i < phnum; i++) {
		__u32 type;

		ret = src->read(src->ctx, phoff + (__u64)i * ELF_PHDR_SIZE, buf, ELF_PHDR_SIZE);
		if (ret)
			return ret;
		/* p_type 0, p_offset 8, p_vaddr 16, p_filesz 32, p_memsz 40 */
		type = dunwind_le32(buf);
		if (type == ELF_PT_LOAD && !dunwind_le64(buf + 8) && !have_load) {
			info->load_vaddr = dunwind_le64(buf + 16);
			have_load = 1;
		} else if (type == DUNWIND_SFRAME_PT_GNU) {
			info->sframe_vaddr = dunwind_le64(buf + 16);
			info->sframe_offset = dunwind_le64(buf + 8);
			info->sframe_size = dunwind_le64(buf + 40);
		} else if (type == ELF_PT_NOTE && nr_notes < ELF_MAX_NOTE_SEGS) {
			note_off[nr_notes] = dunwind_le64(buf + (mapped ? 16 : 8));
			note_len[nr_notes++] = dunwind_le64(buf + 32);
		}
	}
	if (!have_load)
		return E(ENOEXEC);
	if (info->sframe_size && (info->sframe_vaddr < info->load_vaddr ||
				  info->sframe_size > DUNWIND_ELF_MAX_SFRAME))
		return E(ENOEXEC);
	for (i = 0; i < nr_notes && !info->build_id_size; i++) {
		__u64 off = note_off[i];

		if (mapped) {
			if (off < info->load_vaddr)
				continue;
			off -= info->load_vaddr;
		}
		el_build_id(src, off, note_len[i], info);
	}
	return 0;
}
