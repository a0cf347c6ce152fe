// SPDX-License-Identifier: GPL-2.0
/*
 * Write the fuzz seed corpus: SFrame sections of every version and shape
 * the encoder makes (v1, v2, v2+PCREL, v3 default and flex, PC masks,
 * wide words, auxiliary header), mapped at 0x400200 like the fuzz target.
 *   gen_corpus DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sframe/sframe_enc.h"

#define SP DUNWIND_SFRAME_REG_SP
#define FP DUNWIND_SFRAME_REG_FP
#define R_UNDEF { DUNWIND_SFRAME_RULE_UNDEF, 0, 0, 0, 0 }
#define R_REG(r, d, o) { DUNWIND_SFRAME_RULE_REG, r, d, 0, o }
#define R_CFA(d, o) { DUNWIND_SFRAME_RULE_CFA, 0, d, 0, o }
#define ROW(pc, reg, off) { pc, 0, R_REG(reg, 0, off), R_CFA(1, -8), R_UNDEF, R_UNDEF, 0, 0 }
#define ROWF(pc, reg, off, fpo) \
	{ pc, 0, R_REG(reg, 0, off), R_CFA(1, -8), R_CFA(1, fpo), R_UNDEF, 0, 0 }

static const struct dw_sframe_enc_row r0[] = {
	ROW(0, SP, 8), ROWF(1, SP, 16, -16), ROWF(4, FP, 16, -16), ROWF(0x30, SP, 8, -16),
};
static const struct dw_sframe_enc_row r1[] = {
	ROW(0, SP, 8), ROW(0x120, SP, 0x1000), ROWF(0x200, SP, 0x12345, -0x11000),
};
static const struct dw_sframe_enc_row rplt[] = { ROW(0, SP, 8), ROW(0xb, SP, 16) };
static const struct dw_sframe_enc_row router[] = { { 0, 1, R_UNDEF, R_UNDEF, R_UNDEF, R_UNDEF, 0, 0 },
						   ROW(4, SP, 8) };
static const struct dw_sframe_enc_row rbig[] = { ROW(0, SP, 8), ROW(0x10005, SP, 24) };
static const struct dw_sframe_enc_row rflex[] = {
	ROW(0, SP, 8),
	{ 2, 0, R_REG(10, 0, 0), R_CFA(1, -8), R_UNDEF, R_UNDEF, 0, 0 },
	{ 6, 0, R_REG(10, 0, 0), R_CFA(1, -8), R_CFA(1, -16), R_UNDEF, 0, 0 },
	{ 9, 0, R_REG(FP, 1, -8), R_CFA(1, -8), R_CFA(1, -16), R_UNDEF, 0, 0 },
	{ 0xc, 0, R_REG(SP, 0, 8), R_REG(11, 0, 0), R_REG(3, 1, 16), R_UNDEF, 0, 0 },
};

/* dunwind's %rbx extension: CFA on %rbx, %rbx saved, lost (v3 flex only). */
static const struct dw_sframe_enc_row rrbx[] = {
	ROW(0, SP, 24),
	{ 1, 0, R_REG(SP, 0, 32), R_CFA(1, -8), R_UNDEF, R_CFA(1, -32), 0, 0 },
	{ 4, 0, R_REG(3, 0, 32), R_CFA(1, -8), R_UNDEF, R_CFA(1, -32), 0, 0 },
	{ 9, 0, R_REG(SP, 0, 32), R_CFA(1, -8), R_CFA(1, -24), R_UNDEF, 1, 0 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct dw_sframe_enc_func funcs[] = {
	{ 0x401000, 0x40, 0, 0, 0, N(r0), r0 },
	{ 0x401100, 0x300, 0, 0, 0, N(r1), r1 },
	{ 0x401400, 0x30, DUNWIND_SFRAME_PC_MASK, 16, 0, N(rplt), rplt },
	{ 0x401500, 0x10, 0, 0, 0, N(router), router },
	{ 0x402000, 0x20000, 0, 0, 0, N(rbig), rbig },
	{ 0x430000, 0x10, 0, 0, 1, N(rflex), rflex },
	{ 0x430100, 0x10, 0, 0, 0, N(rrbx), rrbx },
};

int main(int argc, char **argv)
{
	static const struct { const char *name; struct dw_sframe_enc_opts o; int n;
	} seeds[] = {
		{"v1", {.version = 1, .flags = 1}, 5},
		{"v1-one", {.version = 1, .flags = 1}, 1},
		{"v2", {.version = 2, .flags = 1}, 5},
		{"v2-pcrel", {.version = 2, .flags = 5}, 5},
		{"v2-unsorted", {.version = 2, .flags = 0}, 5},
		{"v2-wide", {.version = 2, .flags = 5, .min_word_size = 4, .min_fre_type = 2}, 5},
		{"v3", {.version = 3, .flags = 5}, 6},
		{"v3-abs", {.version = 3, .flags = 1}, 6},
		{"v3-aux", {.version = 3, .flags = 5, .auxhdr_len = 4, .min_word_size = 2}, 6},
		{"v3-empty", {.version = 3, .flags = 5}, 0},
		/* The same rows as an AArch64 table: the RA tracked, AMD64's registers flex. */
		{"v3-a64", {.version = 3, .flags = 5, .abi = DUNWIND_SFRAME_ABI_AARCH64_LE}, 6},
		/* An odd size: the fuzz target reads it with the %rbx extension. */
		{"v3-rbx", {.version = 3, .flags = 5}, 7},
	};
	char path[4096];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_corpus DIR\n");
		return 2;
	}
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct dw_sframe_enc_opts o = seeds[i].o;
		__u8 *buf = NULL;
		size_t len;
		FILE *fp;

		o.sec_vaddr = 0x400200;
		if (dw_sframe_encode(&o, funcs, (__u32)seeds[i].n, &buf, &len)) {
			fprintf(stderr, "gen_corpus: cannot encode %s\n", seeds[i].name);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", argv[1], seeds[i].name);
		fp = fopen(path, "wb");
		/* Bytes after the FRE sub-section are allowed: make the size odd. */
		if (seeds[i].n == 7 && !(len & 1) && fp)
			fputc(0, fp);
		if (!fp || fwrite(buf, 1, len, fp) != len || fclose(fp)) {
			perror(path);
			return 1;
		}
		free(buf);
	}
	printf("gen_corpus: %zu seeds in %s\n", i, argv[1]);
	return 0;
}
