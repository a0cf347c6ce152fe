/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suite's architecture does not have (issue 31): the tests that
 * need it SKIP, saying why.  x86_64 has everything.
 */
#ifndef DW_SELFTEST_ARCH_H
#define DW_SELFTEST_ARCH_H

#include <time.h>
#include <sys/syscall.h>

#if defined(__aarch64__)
/*
 * dunwind's %rbx extension (DUNWIND_REG_RBX, Documentation/sframe.rst) is
 * one of AMD64 tables: an AArch64 table has no %rbx to follow.
 */
#define DW_ARCH_NO_RBX \
	"x86-64 only: DUNWIND_REG_RBX is the AMD64 tables' %rbx extension, no AArch64 one"
/*
 * lazy_bind_test's resolver keeps its CFA in %rbx on x86-64 only: the CFI
 * of bookworm's aarch64 ld.so bases every CFA on sp, x29 or x0.
 */
#define DW_ARCH_NO_RBX_CFA \
	"x86-64 only: aarch64's ld.so has no CFA in a callee-saved register (sp, x29, x0) " \
	"for the %rbx extension to follow"
/*
 * sframe_reg_test's qsort_unregistered_breaks shows that x86-64 walks
 * through Debian's libc need its table.  Debian's aarch64 libc keeps frame
 * records on qsort's path (x29/x30 saved and x29 set), so the frame-pointer
 * walk reaches main without one: 2139 of 2139 stacks on 6.12-arm64.
 */
#define DW_ARCH_LIBC_FRAME_RECORDS \
	"arm64: Debian's aarch64 libc keeps frame records on qsort's path: frame pointers " \
	"reach main without its table (2139 of 2139 stacks measured on 6.12-arm64)"
/*
 * vdso_test: the 6.12 arm64 vDSO has no CFI: its linker script
 * (arch/arm64/kernel/vdso/vdso.lds.S) discards .eh_frame and
 * .eh_frame_hdr, so the generator answers -ENODATA.
 */
#define DW_ARCH_VDSO_NO_CFI \
	"arm64: the 6.12 vDSO has no CFI (vdso.lds.S discards .eh_frame): no table to generate"
/*
 * tools/toolchain fetches Debian unstable's x86-64 gcc 16 and binutils
 * 2.47: the SFrame v3 workloads and the container's root are built with
 * them, on x86-64 only (selftests/Makefile's TOOLCHAIN3).
 */
#define DW_ARCH_NO_TOOLCHAIN3 \
	"arm64: the unstable toolchain (SFrame v3 workloads, the container's root) is " \
	"x86-64's; the arm64 suite is built without it"
#define DW_SKIP_WITHOUT(what)	SKIP(return, "%s", what)
#define DW_SKIP_UNLESS_A64(what)	do { } while (0)
#else
#define DW_SKIP_WITHOUT(what)	do { } while (0)
#define DW_SKIP_UNLESS_A64(what)	SKIP(return, "%s", what)
#endif

/* What only an aarch64 suite tests (DW_SKIP_UNLESS_A64). */
#define DW_ARCH_ONLY_A64_TABLE \
	"aarch64 only: the tables generated here are AMD64 ones, which may carry %rbx"

/* Why a workload that needs the assembler's --gsframe was not built. */
#define DW_NO_GSFRAME_WORKLOAD	"the assembler lacks --gsframe (binutils >= 2.40)"

/*
 * nanosleep(@ts) by a raw system call, inlined where it is used: the user
 * IP at kernel entry is in the caller's own code, whose unwind information
 * the test controls (libc's wrapper has none here).  Return: 0 or -errno.
 */
static inline long dw_raw_nanosleep(const struct timespec *ts)
{
	long ret;
#if defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_nanosleep;
	register long x0 __asm__("x0") = (long)ts;
	register long x1 __asm__("x1") = 0;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	ret = x0;
#else
	__asm__ volatile("syscall" : "=a"(ret)
			 : "0"((long)SYS_nanosleep), "D"(ts), "S"(0L)
			 : "rcx", "r11", "memory");
#endif
	return ret;
}

/* read(@fd, @buf, @len) by a raw system call, as dw_raw_nanosleep(). */
static inline long dw_raw_read(int fd, void *buf, unsigned long len)
{
	long ret;
#if defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_read;
	register long x0 __asm__("x0") = fd;
	register long x1 __asm__("x1") = (long)buf;
	register long x2 __asm__("x2") = (long)len;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	ret = x0;
#else
	__asm__ volatile("syscall" : "=a"(ret)
			 : "0"((long)SYS_read), "D"((long)fd), "S"(buf), "d"(len)
			 : "rcx", "r11", "memory");
#endif
	return ret;
}

#endif /* DW_SELFTEST_ARCH_H */
