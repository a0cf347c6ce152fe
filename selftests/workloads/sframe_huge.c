// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_huge: a hostile program.  It builds a well-formed SFrame table of
 * MIB MiB (default 63) in anonymous memory, one FDE per byte of its own
 * image, each with the right rule for frame-pointer code, and points its
 * own in-memory ELF header at it (a PT_GNU_SFRAME program header, made from
 * PT_GNU_STACK).  A kernel that validated whole tables on first use would
 * spend seconds of the return-to-user path on it.  Prints "ready", then
 * spins in a frame-pointer call chain until killed or 120 s.
 *
 * MODE spoils the table (stress_test):
 *   good      as above (the default)
 *   cyclic    every rule says CFA = SP + 0: a frame that never moves up
 *   garbage   every FDE and FRE byte random (the header stays valid and
 *             claims sorted FDEs)
 *   rewrite   well-formed, but a second thread rewrites it while walks
 *             read it: random FDEs garbled and restored, the FDE count
 *             raised and restored, the whole table made unreadable
 *             (PROT_NONE) for a moment
 *
 *   sframe_huge [MIB [MODE]]
 */
#include <elf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PT_GNU_SFRAME	0x6474e554
#define FDE_SIZE	20		/* SFrame v2 */

/*
 * The frame record's rule on each architecture: AMD64's return address is
 * at a fixed CFA - 8 (in the header), so an FRE has 2 offsets, CFA and FP;
 * AArch64 tracks it, so 3: CFA, RA (x30 of the frame record), FP (x29).
 * CFA = FP + 16 puts the frame record (FP, RA) where both keep it.
 */
#if defined(__aarch64__)
#define SF_ABI		2		/* AArch64, little-endian */
#define SF_FIXED_RA	0		/* none: tracked */
#define FRE_WORDS	3
#elif defined(__x86_64__)
#define SF_ABI		3		/* AMD64, little-endian */
#define SF_FIXED_RA	(-8)
#define FRE_WORDS	2
#else
#error "sframe_huge: no SFrame ABI for this architecture"
#endif
#define FRE_SIZE	(2 + FRE_WORDS)	/* start, info, one-byte words */

extern const char __executable_start[];
volatile unsigned long sframe_huge_counter;

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/*
 * The table at @sec covering [@lo, @lo + @n) one byte per FDE: CFA = FP + 16,
 * FP at CFA - 16 (and on AArch64 RA at CFA - 8).
 */
static void build(uint8_t *sec, uintptr_t lo, uint32_t n, int cyclic)
{
	uint8_t *fde = sec + 28, *fre = fde + (size_t)n * FDE_SIZE;
	uint32_t i;

	sec[0] = 0xe2;
	sec[1] = 0xde;			/* magic, little-endian */
	sec[2] = 2;			/* version */
	sec[3] = 1;			/* FDEs sorted */
	sec[4] = SF_ABI;
	sec[5] = 0;			/* FP tracked */
	sec[6] = (uint8_t)SF_FIXED_RA;
	sec[7] = 0;			/* no auxiliary header */
	put32(sec + 8, n);		/* FDEs */
	put32(sec + 12, n);		/* FREs */
	put32(sec + 16, n * FRE_SIZE);	/* FRE bytes */
	put32(sec + 20, 0);		/* FDE offset */
	put32(sec + 24, n * FDE_SIZE);	/* FRE offset */
	for (i = 0; i < n; i++, fde += FDE_SIZE, fre += FRE_SIZE) {
		put32(fde, (uint32_t)(int32_t)((intptr_t)(lo + i) - (intptr_t)sec));
		put32(fde + 4, 1);		/* one byte */
		put32(fde + 8, i * FRE_SIZE);
		put32(fde + 12, 1);		/* one FRE */
		fde[16] = 0;			/* 1-byte FRE starts, PC-increment */
		fde[17] = 0;
		fre[0] = 0;			/* from the FDE's start */
		fre[1] = 0 | FRE_WORDS << 1;	/* CFA from FP (0; SP is 1), one-byte words */
		fre[2] = 16;			/* CFA = FP + 16 */
		if (cyclic) {
			fre[1] = 1 | FRE_WORDS << 1;	/* CFA = SP + 0: no progress */
			fre[2] = 0;
		}
		if (FRE_WORDS == 3)
			fre[3] = (uint8_t)-8;	/* RA saved at CFA - 8 */
		fre[FRE_WORDS + 1] = (uint8_t)-16;	/* FP saved at CFA - 16 */
	}
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Every byte after the header random. */
static void garble(uint8_t *sec, size_t size)
{
	size_t i;

	for (i = 28; i + 8 <= size; i += 8) {
		uint64_t v = rnd();

		memcpy(sec + i, &v, 8);
	}
}

struct rewriter {
	uint8_t *sec;
	size_t size;
	uint32_t n;
};

/* Rewrite the table for ever while the main thread's walks read it. */
static void *rewrite(void *arg)
{
	const struct rewriter *rw = arg;
	uint8_t saved[FDE_SIZE], *fde;
	unsigned long it;

	for (it = 0;; it++) {
		fde = rw->sec + 28 + (rnd() % rw->n) * FDE_SIZE;
		memcpy(saved, fde, FDE_SIZE);
		garble(fde - 28, 28 + FDE_SIZE);
		usleep(50);
		memcpy(fde, saved, FDE_SIZE);
		if (!(it % 64)) {
			put32(rw->sec + 8, 0xffffff00U);	/* FDE count far beyond */
			usleep(100);
			put32(rw->sec + 8, rw->n);
		}
		if (!(it % 256)) {
			mprotect(rw->sec, rw->size, PROT_NONE);
			usleep(200);
			mprotect(rw->sec, rw->size, PROT_READ | PROT_WRITE);
		}
	}
	return NULL;
}

__attribute__((noipa, noinline)) static void spin(void)
{
	/*
	 * A frame of its own (push rbp; mov rbp, rsp; or stp x29, x30;
	 * mov x29, sp), which the table assumes.
	 */
	void *volatile frame = __builtin_frame_address(0);
	unsigned long i;

	for (i = 0; i < 1000000; i++)
		sframe_huge_counter++;
	(void)frame;
}

__attribute__((noipa, noinline)) static void middle(void)
{
	spin();
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 63, size = mib << 20;
	const char *mode = argc > 2 ? argv[2] : "good";
	static struct rewriter rw;
	pthread_t thr;
	const Elf64_Ehdr *eh = (const void *)__executable_start;
	uintptr_t ehdr = (uintptr_t)eh, load = 0;
	long page = sysconf(_SC_PAGESIZE);
	Elf64_Phdr *ph;
	uint8_t *sec;
	uint32_t n;
	int i, found = 0;

	if (mib < 1 || mib > 200 || (strcmp(mode, "good") && strcmp(mode, "cyclic") &&
				       strcmp(mode, "garbage") && strcmp(mode, "rewrite")))
		return 2;
	n = (uint32_t)((size - 28) / (FDE_SIZE + FRE_SIZE));
	/* Within 2 GiB of the image: v2 FDE starts are 32-bit offsets. */
	sec = mmap((void *)((ehdr + (1UL << 30)) & ~(page - 1UL)), size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (sec == MAP_FAILED) {
		perror("sframe_huge: mmap");
		return 1;
	}
	build(sec, ehdr, n, !strcmp(mode, "cyclic"));
	if (!strcmp(mode, "garbage"))
		garble(sec, size);
	/*
	 * Executable too: aarch64's linker puts the headers and .text in
	 * one segment, so this page may hold the code that runs next.
	 */
	if (mprotect((void *)ehdr, page, PROT_READ | PROT_WRITE | PROT_EXEC)) {
		perror("sframe_huge: mprotect");
		return 1;
	}
	ph = (Elf64_Phdr *)(ehdr + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD) {
			load = ph[i].p_vaddr;
			break;
		}
	for (i = 0; i < eh->e_phnum && !found; i++) {
		if (ph[i].p_type != PT_GNU_STACK)
			continue;
		ph[i].p_type = PT_GNU_SFRAME;
		ph[i].p_vaddr = (uintptr_t)sec - ehdr + load;
		ph[i].p_offset = ph[i].p_vaddr;
		ph[i].p_filesz = ph[i].p_memsz = size;
		found = 1;
	}
	if (!found) {
		fprintf(stderr, "sframe_huge: no PT_GNU_STACK to turn into PT_GNU_SFRAME\n");
		return 1;
	}
	rw = (struct rewriter){ .sec = sec, .size = size, .n = n };
	if (!strcmp(mode, "rewrite") && pthread_create(&thr, NULL, rewrite, &rw)) {
		fprintf(stderr, "sframe_huge: cannot start the rewriting thread\n");
		return 1;
	}
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		middle();
}
