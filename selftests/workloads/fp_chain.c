// SPDX-License-Identifier: GPL-2.0
/*
 * fp_chain: a CPU-bound call chain main -> a -> b -> c -> leaf for the frame
 * pointer tests.  Built with frame pointers everywhere; with -DFRAMELESS_LEAF
 * the leaf touches no stack, so the compiler gives it no frame and an FP walk
 * that starts inside it cannot see c (the Makefile checks both shapes with
 * objdump); with -DEPILOGUE_LEAF (sf_epilogue) the leaf spins in its
 * epilogue, after 'pop %rbp' (arm64: after 'ldp x29, x30', the RA in x30
 * again); with -DUNCOVERED_B (sf_gap) b is assembly without CFI, which the
 * program's .sframe leaves out, and uses rbp (x29) for a number, as code
 * without frame pointers may; with -DFP_GAP_B (sf_fpgap) b is such
 * assembly that keeps a frame pointer, as V8's builtins do.
 * Prints "ready" on stdout just before entering the chain, then spins
 * until killed (or 120 s, SIGALRM).
 */
#include <stdio.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, noinline))

volatile unsigned long dw_fp_stop;
volatile unsigned long dw_fp_counter;

#if defined(EPILOGUE_LEAF)
/*
 * The leaf spins between 'pop %rbp' and 'ret', where its CFI (as compilers
 * write it: no restore for rbp) still says rbp was saved at CFA-16, now
 * below SP: a walk must take rbp as it is there, not call the frame bad.
 * arm64: it spins after 'ldp x29, x30', where its CFI (as gcc writes it)
 * restores both: the RA is in x30 again, which only the sample's registers
 * give.
 */
unsigned long leaf(void);
#if defined(__aarch64__)
asm(".text\n"
    ".globl leaf\n"
    ".type leaf, %function\n"
    "leaf:\n"
    ".cfi_startproc\n"
    "\tstp x29, x30, [sp, -16]!\n"
    ".cfi_def_cfa_offset 16\n"
    ".cfi_offset 29, -16\n"
    ".cfi_offset 30, -8\n"
    "\tldp x29, x30, [sp], 16\n"
    ".cfi_restore 30\n"
    ".cfi_restore 29\n"
    ".cfi_def_cfa_offset 0\n"
    "1:\tadrp x0, dw_fp_stop\n"
    "\tldr x0, [x0, :lo12:dw_fp_stop]\n"
    "\tcbz x0, 1b\n"
    "\tadrp x0, dw_fp_counter\n"
    "\tldr x0, [x0, :lo12:dw_fp_counter]\n"
    "\tret\n"
    ".cfi_endproc\n"
    ".size leaf, .-leaf\n");
#else
asm(".text\n"
    ".globl leaf\n"
    ".type leaf, @function\n"
    "leaf:\n"
    ".cfi_startproc\n"
    "\tpush %rbp\n"
    ".cfi_def_cfa_offset 16\n"
    ".cfi_offset %rbp, -16\n"
    "\tpop %rbp\n"
    ".cfi_def_cfa_offset 8\n"
    "1:\tcmpq $0, dw_fp_stop(%rip)\n"
    "\tje 1b\n"
    "\tmov dw_fp_counter(%rip), %rax\n"
    "\tret\n"
    ".cfi_endproc\n"
    ".size leaf, .-leaf\n");
#endif
#elif defined(FRAMELESS_LEAF)
/* No locals: everything lives in globals and registers, no push %rbp. */
NOIPA static unsigned long leaf(void)
{
	while (!dw_fp_stop)
		dw_fp_counter++;
	return dw_fp_counter;
}
#else
/* A volatile local array forces a stack frame: push %rbp; mov %rsp,%rbp. */
NOIPA static unsigned long leaf(void)
{
	volatile unsigned long buf[16];
	unsigned long i = 0;

	buf[0] = 0;
	while (!dw_fp_stop) {
		buf[i & 15] += i;
		i++;
	}
	return buf[0];
}
#endif

/* Each caller uses the result, so no call becomes a tail jump. */
#if defined(UNCOVERED_B) || defined(FP_GAP_B)
#define C_LINKAGE		/* b's assembly calls it */
#else
#define C_LINKAGE static
#endif
NOIPA C_LINKAGE unsigned long c(void)
{
	return leaf() + 3;
}

#if defined(UNCOVERED_B)
/*
 * c() * 5, with no frame pointer and no CFI: no table has a row for it.
 * rbp (x29) holds a small number across the call, not a frame's address.
 */
unsigned long b(void);
#if defined(__aarch64__)
asm(".text\n"
    ".globl b\n"
    ".type b, %function\n"
    "b:\n"
    "\tstp x29, x30, [sp, -16]!\n"
    "\tmov x29, 5\n"
    "\tbl c\n"
    "\tmul x0, x0, x29\n"
    "\tldp x29, x30, [sp], 16\n"
    "\tret\n"
    ".size b, .-b\n");
#else
asm(".text\n"
    ".globl b\n"
    ".type b, @function\n"
    "b:\n"
    "\tpush %rbp\n"
    "\tmov $5, %ebp\n"
    "\tcall c\n"
    "\timul %rbp, %rax\n"
    "\tpop %rbp\n"
    "\tret\n"
    ".size b, .-b\n");
#endif
#elif defined(FP_GAP_B)
/* c() * 5, with a frame pointer and no CFI: a gap in the table. */
unsigned long b(void);
#if defined(__aarch64__)
asm(".text\n"
    ".globl b\n"
    ".type b, %function\n"
    "b:\n"
    "\tstp x29, x30, [sp, -16]!\n"
    "\tmov x29, sp\n"
    "\tbl c\n"
    "\tadd x0, x0, x0, lsl 2\n"
    "\tldp x29, x30, [sp], 16\n"
    "\tret\n"
    ".size b, .-b\n");
#else
asm(".text\n"
    ".globl b\n"
    ".type b, @function\n"
    "b:\n"
    "\tpush %rbp\n"
    "\tmov %rsp, %rbp\n"
    "\tcall c\n"
    "\tlea (%rax,%rax,4), %rax\n"
    "\tpop %rbp\n"
    "\tret\n"
    ".size b, .-b\n");
#endif
#else
NOIPA static unsigned long b(void)
{
	return c() * 5;
}
#endif

NOIPA static unsigned long a(void)
{
	return b() ^ 7;
}

int main(void)
{
	unsigned long r;

	alarm(120);
	printf("ready\n");
	fflush(stdout);
	r = a();
	return r == 42;
}
