// SPDX-License-Identifier: GPL-2.0
/*
 * dw_procs_*: thread names and mappings rebuilt from COMM and MMAP
 * records.  The mappings describe this test program at made-up addresses,
 * so symbolising them exercises an arbitrary load bias.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "mkrec.h"
#include "analyze/procs.h"
#include "selfmap.h"

__attribute__((noinline, used)) int dw_procs_test_fn(int x)
{
	return x * 7;
}

static union rec_buf b;

int main(void)
{
	struct dw_procs *p = dw_procs_new();
	uintptr_t fn = (uintptr_t)dw_procs_test_fn;
	uint64_t start, end, pgoff, off = 0;
	const uint64_t base1 = 0x100000000000ULL, base2 = 0x200000000000ULL;
	const char *name, *dso = NULL;
	static char path[4096];

	dw_procs_add(p, mk_comm(&b, 5, 5, 10, "first", 0));
	dw_procs_add(p, mk_comm(&b, 5, 6, 12, "worker", 0));
	dw_procs_add(p, mk_comm(&b, 5, 5, 20, "second", 0));
	ok(!strcmp(dw_procs_comm(p, 5, 15) ?: "", "first"), "name at a time between two names");
	ok(!strcmp(dw_procs_comm(p, 5, 25) ?: "", "second"), "name after a rename");
	ok(!strcmp(dw_procs_comm(p, 5, 1) ?: "", "first"), "name before the first: the first");
	ok(!strcmp(dw_procs_comm(p, 6, 1000) ?: "", "worker"), "another thread's own name");
	ok(dw_procs_comm(p, 7, 15) == NULL, "a thread never named: NULL");

	if (!find_self(fn, &start, &end, &pgoff, path)) {
		tap_skip("mappings", "cannot find this program in /proc/self/maps");
		dw_procs_free(p);
		return tap_done();
	}
	ok(!dw_procs_has_maps(p, 5), "no MMAP record yet: no mappings");
	dw_procs_add(p, mk_mmap(&b, 5, 30, base1, base1 + (end - start), pgoff, path, 0));
	ok(dw_procs_has_maps(p, 5) && !dw_procs_has_maps(p, 9), "MMAP records describe pid 5 only");
	name = dw_procs_lookup(p, 5, 40, base1 + (fn - start) + 4, &off, &dso);
	ok(name && !strcmp(name, "dw_procs_test_fn") && off == 4 && dso && !strcmp(dso, path),
	   "a function at a made-up load address (%s+%llu)", name ?: "NULL",
	   (unsigned long long)off);
	ok(!dw_procs_lookup(p, 9, 40, base1 + (fn - start), &off, &dso) && !dso,
	   "another process: nothing");

	/* Anonymous memory over one page inside it: only that page loses its names. */
	{
		uint64_t fpage = (fn - start) / 4096, npages = (end - start) / 4096;
		uint64_t k = fpage >= 2 ? fpage - 1 : fpage + 1;

		if (k >= 1 && k + 2 <= npages) {
			dw_procs_add(p, mk_mmap(&b, 5, 31, base1 + k * 4096,
						base1 + (k + 1) * 4096, 0, "//anon", 0));
			name = dw_procs_lookup(p, 5, 40, base1 + k * 4096 + 8, &off, &dso);
			ok(!name && dso && !strcmp(dso, "//anon"),
			   "anonymous memory splitting a mapping has no symbols (//anon)");
			name = dw_procs_lookup(p, 5, 40, base1 + (fn - start), &off, &dso);
			ok(name && !strcmp(name, "dw_procs_test_fn") && off == 0,
			   "the %s part of the split mapping keeps its names",
			   k < fpage ? "right" : "left");
			/* pid 8: the same file unsplit; both must agree right of the hole. */
			dw_procs_add(p, mk_mmap(&b, 8, 30, base1, base1 + (end - start), pgoff,
						path, 0));
			{
				uint64_t x, same = 0, named = 0, n = 0;

				for (x = (k + 1) * 4096; x < end - start; x += 16, n++) {
					uint64_t o5 = 1, o8 = 2;
					const char *n5, *n8;

					n5 = dw_procs_lookup(p, 5, 40, base1 + x, &o5, NULL);
					n8 = dw_procs_lookup(p, 8, 40, base1 + x, &o8, NULL);

					named += n8 != NULL;
					same += n5 == n8 ||
						(n5 && n8 && !strcmp(n5, n8) && o5 == o8);
				}
				ok(same == n && named > 0,
				   "right of the hole: names as unsplit (%llu of %llu, %llu named)",
				   (unsigned long long)same, (unsigned long long)n,
				   (unsigned long long)named);
			}
		} else {
			tap_skip("split mapping", "this program's text is too small");
		}
	}

	/* An exec: a new image at another address; the old one stays for old stacks. */
	dw_procs_add(p, mk_comm(&b, 5, 5, 100, "exec'd", 1));
	dw_procs_add(p, mk_mmap(&b, 5, 101, base2, base2 + (end - start), pgoff, path, 0));
	name = dw_procs_lookup(p, 5, 150, base2 + (fn - start), &off, &dso);
	ok(name && !strcmp(name, "dw_procs_test_fn"), "after the exec: the new image");
	name = dw_procs_lookup(p, 5, 150, base1 + (fn - start), &off, &dso);
	ok(!name && !dso, "after the exec: the old image is gone");
	name = dw_procs_lookup(p, 5, 50, base1 + (fn - start), &off, &dso);
	ok(name && !strcmp(name, "dw_procs_test_fn"),
	   "a stack from before the exec: the old image");
	ok(!strcmp(dw_procs_comm(p, 5, 150) ?: "", "exec'd"), "the exec renamed the thread");

	/* A build-id that the file on disk does not have: no names from it. */
	dw_procs_add(p, mk_mmap(&b, 5, 102, base2, base2 + (end - start), pgoff, path, 1));
	name = dw_procs_lookup(p, 5, 150, base2 + (fn - start), &off, &dso);
	ok(!name && dso && !strcmp(dso, path), "a rebuilt file (build-id differs): file, no names");

	mk_mmap(&b, 5, 1, base2, base2 + 4096, 0, "/x", 0);
	b.hdr.size = 8;
	ok(dw_procs_add(p, &b.hdr) != 0, "a malformed record is refused");
	dw_procs_free(p);
	return tap_done();
}
