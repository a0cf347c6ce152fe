// SPDX-License-Identifier: GPL-2.0
/*
 * mix_lib: the library half of the mixed-method workloads.  lib_a() ->
 * lib_b() -> lib_leaf() spins until dw_mix_stop is set.  Built twice: with
 * SFrame and no frame pointers (libmix_sf.so), and with frame pointers and
 * no .sframe (libmix_fp.so); the Makefile checks which is which.
 */
#define NOIPA __attribute__((noipa, noinline))

volatile unsigned long dw_mix_stop;

/* A volatile local array gives the leaf a frame when frame pointers are on. */
NOIPA static unsigned long lib_leaf(void)
{
	volatile unsigned long buf[16];
	unsigned long i = 0;

	buf[0] = 0;
	while (!dw_mix_stop) {
		buf[i & 15] += i;
		i++;
	}
	return buf[0];
}

/* Each caller uses the result, so no call becomes a tail jump. */
NOIPA static unsigned long lib_b(void)
{
	return lib_leaf() + 3;
}

NOIPA unsigned long lib_a(void)
{
	return lib_b() * 5;
}
