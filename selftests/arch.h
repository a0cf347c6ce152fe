/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suite's architecture does not have yet (issue 31): the tests
 * that need it SKIP, saying which.  x86_64 has everything.
 */
#ifndef DW_SELFTEST_ARCH_H
#define DW_SELFTEST_ARCH_H

#if defined(__aarch64__)
/* The recorder's table generator reads x86-64 ELF files only. */
#define DW_ARCH_NO_TABLES \
	"the recorder generates no SFrame tables from aarch64 ELF files yet (issue 31)"
/* sframe_huge writes an AMD64 table; the module's decoder takes the CPU's ABI only. */
#define DW_ARCH_NO_SFRAME \
	"no aarch64 SFrame tables in the module or the workloads yet (issue 31)"
#define DW_SKIP_WITHOUT(what)	SKIP(return, "%s", what)
/* Why a workload that needs the assembler's --gsframe was not built. */
#define DW_NO_GSFRAME_WORKLOAD	DW_ARCH_NO_SFRAME
#else
#define DW_NO_GSFRAME_WORKLOAD	"the assembler lacks --gsframe (binutils >= 2.40)"
#define DW_SKIP_WITHOUT(what)	do { } while (0)
#endif

#endif /* DW_SELFTEST_ARCH_H */
