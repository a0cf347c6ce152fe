// SPDX-License-Identifier: GPL-2.0
/*
 * libdl_spin.so for dl_spin: two frames of computation, built as a
 * distribution builds (no frame pointers, .eh_frame only).
 */
static volatile double sink;

__attribute__((noinline)) static double dl_spin_inner(int n)
{
	double x = 0;
	int i;

	for (i = 1; i <= n; i++)
		x += (i & 1 ? 1.0 : -1.0) / i;
	return x;
}

__attribute__((noinline)) void dl_spin_outer(void)
{
	for (;;)
		sink = sink + dl_spin_inner(100000);
}
