// SPDX-License-Identifier: GPL-2.0
/*
 * The symbol index chooses what dwfl_module_addrinfo() chooses: at
 * symbols' first, last and next bytes, and at addresses spread over the
 * whole file, for this program (a .symtab with local symbols), libc (its
 * .dynsym, or its debug file's .symtab where libc6-dbg is installed) and
 * libdw (a big one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "symbols/symindex.h"

static char *no_debuginfo_path;
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &no_debuginfo_path,
};

/* Does the index give libdwfl's answer at @addr?  1 yes; 0 no (said). */
static int same_at(struct dw_symindex *x, Dwfl_Module *mod, Dwarf_Addr addr)
{
	GElf_Off off_d = 0, off_x = 0;
	GElf_Sym sym_d, sym_x;
	const char *d = dwfl_module_addrinfo(mod, addr, &off_d, &sym_d, NULL, NULL, NULL);
	const char *n = dw_symindex_lookup(x, mod, addr, &off_x, &sym_x);

	if (!d && !n)
		return 1;
	if (d && n && !strcmp(d, n) && off_d == off_x && sym_d.st_size == sym_x.st_size)
		return 1;
	printf("# %#llx: libdwfl %s+%#llx/%#llx, the index %s+%#llx/%#llx\n",
	       (unsigned long long)addr, d ? d : "-", (unsigned long long)off_d,
	       d ? (unsigned long long)sym_d.st_size : 0ULL, n ? n : "-",
	       (unsigned long long)off_x, n ? (unsigned long long)sym_x.st_size : 0ULL);
	return 0;
}

/*
 * Compare at symbols' edges and every @step bytes from the lowest to the
 * highest; the misses (said), -1 without a symbol table.
 */
static int compare(const char *file, size_t step, size_t *asked)
{
	Dwfl *dwfl = dwfl_begin(&callbacks);
	struct dw_symindex x = { 0 };
	GElf_Addr lo = UINT64_MAX, hi = 0, a;
	Dwfl_Module *mod;
	int n, k, misses = 0;

	*asked = 0;
	if (!dwfl)
		return -1;
	dwfl_report_begin(dwfl);
	mod = dwfl_report_elf(dwfl, file, file, -1, 0, true);
	dwfl_report_end(dwfl, NULL, NULL);
	n = mod ? dwfl_module_getsymtab(mod) : -1;
	/* About 2,000 symbols' edges: libdwfl goes through all of them for each. */
	for (k = 1; k < n && misses < 5; k += n / 2000 + 1) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;

		if (!dwfl_module_getsym_info(mod, k, &sym, &addr, &shndx, NULL, NULL) ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		lo = addr < lo ? addr : lo;
		hi = addr + sym.st_size > hi ? addr + sym.st_size : hi;
		misses += !same_at(&x, mod, addr);
		misses += !same_at(&x, mod, addr + sym.st_size);
		if (sym.st_size)
			misses += !same_at(&x, mod, addr + sym.st_size - 1);
		if (addr)
			misses += !same_at(&x, mod, addr - 1);
		*asked += 4;
	}
	for (a = lo; n > 0 && a < hi + 4096 && misses < 5; a += step, ++*asked)
		misses += !same_at(&x, mod, a);
	dw_symindex_free(&x);
	dwfl_end(dwfl);
	return n < 0 ? -1 : misses;
}

static void check(struct __test_metadata *_metadata, const char *file, size_t step)
{
	size_t asked;
	int misses = compare(file, step, &asked);

	ASSERT_LE(0, misses) TH_LOG("%s: no symbol table read", file);
	EXPECT_EQ(0, misses) TH_LOG("%s: %d of %zu addresses differ", file, misses, asked);
	EXPECT_LT(1000, asked);
}

TEST(this_program_with_its_local_symbols)
{
	check(_metadata, "/proc/self/exe", 13);
}

TEST(libc_as_installed)
{
	if (access("/lib/x86_64-linux-gnu/libc.so.6", R_OK))
		SKIP(return, "no /lib/x86_64-linux-gnu/libc.so.6 here");
	check(_metadata, "/lib/x86_64-linux-gnu/libc.so.6", 127);
}

TEST(libdw_a_big_library)
{
	if (access("/lib/x86_64-linux-gnu/libdw.so.1", R_OK))
		SKIP(return, "no /lib/x86_64-linux-gnu/libdw.so.1 here");
	check(_metadata, "/lib/x86_64-linux-gnu/libdw.so.1", 251);
}

TEST_HARNESS_MAIN
