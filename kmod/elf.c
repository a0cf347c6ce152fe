// SPDX-License-Identifier: GPL-2.0
/*
 * Where the module reads ELF files from: the process's memory (the image
 * as mapped) or the file itself.  Both are hostile; the reader that checks
 * every header and bounds every loop is lib/elfread.c (kmod/elfread.c
 * builds it in), shared with user space.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "dunwind.h"

/**
 * dunwind_elf_vdso() - where @mm has the kernel's vDSO image mapped
 * @mm:		the address space
 *
 * The image (ELF header first) lies whole in the one mapping that starts
 * there; the kernel keeps the address across mremap().  What is mapped
 * there is still the process's to change: it is read as hostile as any.
 * Context: any.
 * Return: the user address of the vDSO's ELF header, or 0 (none).
 */
unsigned long dunwind_elf_vdso(struct mm_struct *mm)
{
	return (unsigned long)READ_ONCE(mm->context.vdso);
}

/**
 * dunwind_elf_mapped_header() - where @vma's file has its offset 0 mapped
 * @mm:		the address space, mmap lock held
 * @vma:	a file mapping in @mm, or the vDSO's
 *
 * The usual layout maps a file's segments at one bias, so offset 0 sits
 * at vm_start - pgoff; it counts only if a mapping of the same file with
 * offset 0 really starts there.  The vDSO's image starts its mapping.
 * Context: mmap lock held (read).
 * Return: the user address of the ELF header, or 0.
 */
unsigned long dunwind_elf_mapped_header(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *hvma;
	unsigned long base;

	mmap_assert_locked(mm);
	if (!vma->vm_file)
		return vma->vm_start == dunwind_elf_vdso(mm) ? vma->vm_start : 0;
	if ((vma->vm_pgoff << PAGE_SHIFT) > vma->vm_start)
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
 * Every read is a preemption point, and a dying thread reads no more: a
 * table the process points us at cannot hold the CPU or delay its exit.
 * Context: faultable (task_work).
 * Return: 0; -EFAULT (== -DUNWIND_SFRAME_EFAULT) on overflow or a fault;
 * -EINTR if a fatal signal is pending.
 */
int dunwind_uread(void *ctx, u64 off, void *dst, u32 len)
{
	unsigned long addr = (unsigned long)ctx + off;

	BUILD_BUG_ON(EFAULT != DUNWIND_SFRAME_EFAULT);
	if (fatal_signal_pending(current))
		return -EINTR;
	cond_resched();
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

	BUILD_BUG_ON(ENOEXEC != DUNWIND_ELF_ENOEXEC);
	return dunwind_elf_parse(&src, false, info);
}
