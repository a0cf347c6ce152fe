// SPDX-License-Identifier: GPL-2.0
/*
 * The few ELF facts the module needs about a mapped file: the address of
 * its first PT_LOAD (to compute the load bias), its PT_GNU_SFRAME segment,
 * and its GNU build-id.  Read through a callback, from the process's
 * memory (the image as mapped) or from the file itself: both are hostile,
 * every header is checked and every loop is bounded.
 */
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "dunwind.h"

#define DUNWIND_ELF_MAX_PHNUM	128
#define DUNWIND_ELF_MAX_PHOFF	(16 * PAGE_SIZE)
#define DUNWIND_ELF_MAX_NOTES	4096	/* bytes of PT_NOTE scanned per segment */
#define DUNWIND_NT_GNU_BUILD_ID	3

/* Find NT_GNU_BUILD_ID in the notes at [off, off + len), one note at a time. */
static void dunwind_elf_build_id(const struct dunwind_elf_src *src, u64 off, u64 len,
				 struct dunwind_elf_info *info)
{
	u64 pos = 0;

	len = min_t(u64, len, DUNWIND_ELF_MAX_NOTES);
	while (pos + sizeof(Elf64_Nhdr) <= len) {
		struct {
			Elf64_Nhdr nh;
			char name[4];
		} note;
		u64 desc, next;

		if (src->read(src->ctx, off + pos, &note, sizeof(note.nh)))
			return;
		desc = pos + sizeof(note.nh) + ALIGN((u64)note.nh.n_namesz, 4);
		next = desc + ALIGN((u64)note.nh.n_descsz, 4);
		if (note.nh.n_namesz > len || note.nh.n_descsz > len || next > len)
			return;
		if (note.nh.n_type == DUNWIND_NT_GNU_BUILD_ID && note.nh.n_namesz == 4 &&
		    note.nh.n_descsz && note.nh.n_descsz <= DUNWIND_BUILD_ID_MAX &&
		    !src->read(src->ctx, off + pos + sizeof(note.nh), note.name, 4) &&
		    !memcmp(note.name, "GNU", 4) &&
		    !src->read(src->ctx, off + desc, info->build_id, note.nh.n_descsz)) {
			info->build_id_size = note.nh.n_descsz;
			return;
		}
		pos = next;
	}
}

/**
 * dunwind_elf_parse() - read the ELF header, program headers and build-id
 * @src:	reader; offsets are from the ELF header
 * @mapped:	true: @src reads the image as mapped (segments at p_vaddr -
 *		load address); false: the file (segments at p_offset)
 * @info:	result; @info->sframe_size is 0 when there is no PT_GNU_SFRAME,
 *		@info->build_id_size 0 when there is no build-id
 *
 * Context: may sleep and fault (the callback decides).
 * Return: 0; -ENOEXEC (not a 64-bit little-endian x86-64 ELF with a PT_LOAD
 * at offset 0, or headers out of range); or the callback's error.
 */
int dunwind_elf_parse(const struct dunwind_elf_src *src, bool mapped,
		      struct dunwind_elf_info *info)
{
	u64 note_off[4], note_len[4];
	unsigned int i, nr_notes = 0;
	Elf64_Ehdr ehdr;
	Elf64_Phdr phdr;
	bool have_load = false;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = src->read(src->ctx, 0, &ehdr, sizeof(ehdr));
	if (ret)
		return ret;
	if (memcmp(ehdr.e_ident, ELFMAG, SELFMAG) || ehdr.e_ident[EI_CLASS] != ELFCLASS64 ||
	    ehdr.e_ident[EI_DATA] != ELFDATA2LSB || ehdr.e_machine != EM_X86_64 ||
	    ehdr.e_phentsize != sizeof(phdr) || !ehdr.e_phnum ||
	    ehdr.e_phnum > DUNWIND_ELF_MAX_PHNUM || ehdr.e_phoff > DUNWIND_ELF_MAX_PHOFF)
		return -ENOEXEC;
	for (i = 0; i < ehdr.e_phnum; i++) {
		ret = src->read(src->ctx, ehdr.e_phoff + i * sizeof(phdr), &phdr, sizeof(phdr));
		if (ret)
			return ret;
		switch (phdr.p_type) {
		case PT_LOAD:
			if (!phdr.p_offset && !have_load) {
				info->load_vaddr = phdr.p_vaddr;
				have_load = true;
			}
			break;
		case DUNWIND_SFRAME_PT_GNU:
			info->sframe_vaddr = phdr.p_vaddr;
			info->sframe_offset = phdr.p_offset;
			info->sframe_size = phdr.p_memsz;
			break;
		case PT_NOTE:
			if (nr_notes < ARRAY_SIZE(note_off)) {
				note_off[nr_notes] = mapped ? phdr.p_vaddr : phdr.p_offset;
				note_len[nr_notes++] = phdr.p_filesz;
			}
			break;
		}
	}
	if (!have_load)
		return -ENOEXEC;
	if (info->sframe_size && (info->sframe_vaddr < info->load_vaddr ||
				  info->sframe_size > DUNWIND_ELF_MAX_SFRAME))
		return -ENOEXEC;
	for (i = 0; i < nr_notes && !info->build_id_size; i++) {
		u64 off = note_off[i];

		if (mapped) {
			if (off < info->load_vaddr)
				continue;
			off -= info->load_vaddr;
		}
		dunwind_elf_build_id(src, off, note_len[i], info);
	}
	return 0;
}

/**
 * dunwind_elf_mapped_header() - where @vma's file has its offset 0 mapped
 * @mm:		the address space, mmap lock held
 * @vma:	a file mapping in @mm
 *
 * The usual layout maps a file's segments at one bias, so offset 0 sits
 * at vm_start - pgoff; it counts only if a mapping of the same file with
 * offset 0 really starts there.
 * Context: mmap lock held (read).
 * Return: the user address of the ELF header, or 0.
 */
unsigned long dunwind_elf_mapped_header(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *hvma;
	unsigned long base;

	mmap_assert_locked(mm);
	if (!vma->vm_file || (vma->vm_pgoff << PAGE_SHIFT) > vma->vm_start)
		return 0;
	base = vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT);
	hvma = find_vma(mm, base);
	if (hvma && hvma->vm_start == base && hvma->vm_file == vma->vm_file && !hvma->vm_pgoff)
		return base;
	return 0;
}

/**
 * dunwind_uread() - read @len bytes at user address @ctx + @off
 * @ctx:	base user address
 * @off:	offset from it
 * @dst:	kernel buffer
 * @len:	bytes
 *
 * The read callback of both the ELF reader and the SFrame decoder
 * (struct dunwind_elf_src, struct dunwind_sframe_src) over current's memory.
 * Context: faultable (task_work).
 * Return: 0, or -EFAULT (== -DUNWIND_SFRAME_EFAULT) on overflow or a fault.
 */
int dunwind_uread(void *ctx, u64 off, void *dst, u32 len)
{
	unsigned long addr = (unsigned long)ctx + off;

	BUILD_BUG_ON(EFAULT != DUNWIND_SFRAME_EFAULT);
	if (addr < off || addr >= TASK_SIZE_MAX ||
	    copy_from_user(dst, (const void __user *)addr, len))
		return -EFAULT;
	return 0;
}

/**
 * dunwind_elf_parse_user() - dunwind_elf_parse() of the image mapped at @ehdr
 * @ehdr:	user address of the ELF header (file offset 0 as mapped)
 * @info:	result
 *
 * Context: faultable (task_work), current's address space.
 * Return: as dunwind_elf_parse().
 */
int dunwind_elf_parse_user(unsigned long ehdr, struct dunwind_elf_info *info)
{
	struct dunwind_elf_src src = { .read = dunwind_uread, .ctx = (void *)ehdr };

	might_fault();
	return dunwind_elf_parse(&src, true, info);
}

static int dunwind_elf_fread(void *ctx, u64 off, void *dst, u32 len)
{
	loff_t pos = off;
	ssize_t n = kernel_read(ctx, dst, len, &pos);

	if (n < 0)
		return n;
	return n == len ? 0 : -ENOEXEC;
}

/**
 * dunwind_elf_parse_file() - dunwind_elf_parse() of a file
 * @file:	an open regular file
 * @info:	result
 *
 * Context: process (may sleep).
 * Return: as dunwind_elf_parse().
 */
int dunwind_elf_parse_file(struct file *file, struct dunwind_elf_info *info)
{
	struct dunwind_elf_src src = { .read = dunwind_elf_fread, .ctx = file };

	return dunwind_elf_parse(&src, false, info);
}
