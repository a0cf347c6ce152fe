/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seeded random fuzzer of /dev/dunwind's ioctls and mmap (stress_test):
 * configs, STARTs, STOPs, STATS, SFrame registrations (random tables, and
 * this program's table generated from its CFI, valid or spoiled),
 * interpreter registrations (random descriptors over this program's code,
 * walked when they pass validation), unknown commands,
 * bad pointers, mappings of any length, offset and protection, a hostile
 * data_tail, and files closed at random.  The same seed makes the same
 * calls (their results depend on the kernel).
 */
#ifndef DW_SELFTEST_DEVFUZZ_H
#define DW_SELFTEST_DEVFUZZ_H

struct dw_devfuzz_counts {
	unsigned long calls;		/* ioctls and mmaps made */
	unsigned long ok;		/* of those, succeeded */
	unsigned long unexpected;	/* failed with an errno the ABI does not name */
	unsigned long started;		/* STARTs that succeeded */
	unsigned long mapped;		/* mmaps that succeeded */
	unsigned long valid_tables;	/* registrations of a valid table, maybe spoiled */
	unsigned long registered;	/* registrations that succeeded */
	unsigned long interps;		/* interpreter registrations that succeeded */
	unsigned int first_bad_cmd;	/* the first unexpected failure's call */
	int first_bad_errno;
};

/*
 * @iters random calls from @seed on up to 3 files of /dev/dunwind, all
 * closed at the end.  0, or -errno if the device cannot be opened at all.
 */
int dw_devfuzz_run(unsigned long long seed, unsigned long iters, struct dw_devfuzz_counts *c);

#endif
