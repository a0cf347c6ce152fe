// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the gap scanner's instruction decoder
 * (user/sframe/gap_insn.c), which reads the code of other people's
 * binaries: the input is machine code, decoded at every offset.  Traps on
 * a length of 0, beyond the bytes given or beyond x86's 15.
 */
#include <stdint.h>

#include "sframe/gap_insn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dw_gap_insn in;
	size_t i;
	int nop, len;

	for (i = 0; i < size; i++) {
		if (!dw_gap_decode(data + i, size - i, &in)) {
			if (!in.len || in.len > size - i || in.len > 15)
				__builtin_trap();
		}
		len = dw_gap_insn_len(data + i, size - i, &nop);
		if (len == 0 || (len > 0 && ((size_t)len > size - i || len > 15)))
			__builtin_trap();
	}
	return 0;
}
