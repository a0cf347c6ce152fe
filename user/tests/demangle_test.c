// SPDX-License-Identifier: GPL-2.0
/* Symbol names as reports show them: demangled C++ and Rust, no versions. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "symbols/demangle.h"

static int is(const char *raw, int demangle, const char *want)
{
	char *got = dw_demangle(raw, demangle);
	int same = got && !strcmp(got, want);

	if (!same)
		printf("# %s -> %s, wanted %s\n", raw, got ? got : "(null)", want);
	free(got);
	return same;
}

int main(void)
{
	ok(is("_ZNSt6vectorIiSaIiEE9push_backERKi", 1,
	      "std::vector<int, std::allocator<int> >::push_back(int const&)"), "C++ demangled");
	ok(is("_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", 1, "core::fmt::Formatter::pad"),
	   "Rust (legacy) demangled, hash dropped");
	ok(is("_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop"
	      "17h0123456789abcdefE", 1, "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"),
	   "Rust escapes decoded");
	ok(is("__libc_start_main@@GLIBC_2.34", 1, "__libc_start_main") &&
	   is("memcpy@GLIBC_2.2.5", 1, "memcpy"), "symbol versions dropped");
	ok(is("_ZNSt6vectorIiSaIiEE9push_backERKi", 0, "_ZNSt6vectorIiSaIiEE9push_backERKi") &&
	   is("_ZN3foo3barEv@@V1", 0, "_ZN3foo3barEv"), "--no-demangle: raw, version dropped");
	ok(is("_ZdlPv@plt", 1, "operator delete(void*)@plt") && is("memcpy@plt", 0, "memcpy@plt"),
	   "PLT stubs keep @plt");
	ok(is("_Zgarbage", 1, "_Zgarbage") && is("main", 1, "main"),
	   "what does not demangle stays as it is");
	return tap_done();
}
