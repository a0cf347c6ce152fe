/* SPDX-License-Identifier: GPL-2.0 */
/* The tests' cache of files (dso.h): made on first use, dropped to read the files again. */
#ifndef DW_TEST_DSO_CACHE_H
#define DW_TEST_DSO_CACHE_H

#include "symbols/dso.h"

static struct dw_dso_cache *test_dsos_cache;

static inline struct dw_dso_cache *test_dsos(void)
{
	if (!test_dsos_cache)
		test_dsos_cache = dw_dso_cache_new();
	return test_dsos_cache;
}

static inline void test_dsos_drop(void)
{
	dw_dso_cache_free(test_dsos_cache);
	test_dsos_cache = NULL;
}

#endif
