// SPDX-License-Identifier: GPL-2.0
/* Symbol names as reports show them: demangled C++ and Rust, no versions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "symbols/demangle.h"

/* Does dw_demangle(@raw, @demangle) give @want?  Says what it got when not. */
static int is(const char *raw, int demangle, const char *want)
{
	char *got = dw_demangle(raw, demangle);
	int same = got && !strcmp(got, want);

	if (!same)
		printf("# %s -> %s, wanted %s\n", raw, got ? got : "(null)", want);
	free(got);
	return same;
}

TEST(cxx_demangled)
{
	EXPECT_TRUE(is("_ZNSt6vectorIiSaIiEE9push_backERKi", 1,
		       "std::vector<int, std::allocator<int> >::push_back(int const&)"));
}

TEST(rust_legacy_demangled_hash_dropped)
{
	EXPECT_TRUE(is("_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", 1,
		       "core::fmt::Formatter::pad"));
}

TEST(rust_legacy_escapes_decoded)
{
	EXPECT_TRUE(is("_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$"
		       "4drop17h0123456789abcdefE", 1,
		       "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"));
}

/* Rust's v0 mangling (-C symbol-mangling-version=v0): crate hash dropped. */
TEST(rust_v0_demangled)
{
	EXPECT_TRUE(is("_RNvCs15kBYyAo9fc_7mycrate7example", 1, "mycrate::example"));
	EXPECT_TRUE(is("_RNvMCs4fqI2P2rA04_13const_genericINtB2_4CharKc2202_E3foo", 1,
		       "<const_generic::Char<'\\u{2202}'>>::foo"));
}

TEST(symbol_versions_dropped)
{
	EXPECT_TRUE(is("__libc_start_main@@GLIBC_2.34", 1, "__libc_start_main"));
	EXPECT_TRUE(is("memcpy@GLIBC_2.2.5", 1, "memcpy"));
}

TEST(no_demangle_keeps_raw_drops_version)
{
	EXPECT_TRUE(is("_ZNSt6vectorIiSaIiEE9push_backERKi", 0,
		       "_ZNSt6vectorIiSaIiEE9push_backERKi"));
	EXPECT_TRUE(is("_ZN3foo3barEv@@V1", 0, "_ZN3foo3barEv"));
	EXPECT_TRUE(is("_RNvCs15kBYyAo9fc_7mycrate7example", 0,
		       "_RNvCs15kBYyAo9fc_7mycrate7example"));
}

TEST(plt_stubs_keep_plt)
{
	EXPECT_TRUE(is("_ZdlPv@plt", 1, "operator delete(void*)@plt"));
	EXPECT_TRUE(is("memcpy@plt", 0, "memcpy@plt"));
}

TEST(what_does_not_demangle_stays)
{
	EXPECT_TRUE(is("_Zgarbage", 1, "_Zgarbage"));
	EXPECT_TRUE(is("_Rgarbage", 1, "_Rgarbage"));
	EXPECT_TRUE(is("_Real_name", 1, "_Real_name"));
	EXPECT_TRUE(is("main", 1, "main"));
	EXPECT_TRUE(is("", 1, ""));
}

TEST_HARNESS_MAIN
