// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel symbol snapshot: written into a capture, read back into a
 * symbol table (module extents too), skipped by readers that do not know
 * it, refused (without failing the capture) when its chunks are damaged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "capture/capture.h"
#include "symbols/kallsyms.h"
#include "capture/ksnap.h"

static char dir[] = "/tmp/dw_ksnap_test.XXXXXX";
static char cap[128], ks[128], mods[128];

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* Read @cap with the snapshot reader: the table, or NULL with @why. */
static struct dw_kallsyms *read_back(char *why, size_t len, unsigned long *chunks)
{
	struct dw_capture_reader r;
	const struct dunwind_rec_header *rec;
	struct dw_kallsyms *k = NULL;
	struct dw_ksnap *s;

	*chunks = 0;
	if (dw_capture_open(&r, cap)) {
		snprintf(why, len, "%s", r.err);
		return NULL;
	}
	s = dw_ksnap_new();
	while (s && (rec = dw_capture_next_any(&r))) {
		if (rec->type == DW_REC_KSYMS)
			(*chunks)++;
		dw_ksnap_add(s, rec);
	}
	if (s)
		k = dw_ksnap_symbols(s, why, len);
	dw_ksnap_free(s);
	dw_capture_release(&r);
	return k;
}

int main(void)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = 1, .sample_freq = 99 };
	struct dw_capture_writer w;
	struct dw_capture_reader r;
	struct dw_kallsyms *k;
	const char *name, *mod;
	unsigned long chunks, known = 0;
	char why[256];
	uint64_t off;
	FILE *f;
	int i;

	if (!mkdtemp(dir))
		return 1;
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	/* Big enough for several chunks: 200000 symbols of varied names. */
	f = fopen(ks, "w");
	for (i = 0; f && i < 200000; i++)
		fprintf(f, "%016llx %c sym_%d_%x\n", 0xffffffff81000000ULL + 0x40ULL * (unsigned)i,
			i % 7 ? 'T' : 'd', i, (unsigned)i * 2654435761U);
	if (f) {
		fprintf(f, "ffffffffc0002000 t mod_fn\t[mymod]\n");
		fclose(f);
	}
	write_text(mods, "mymod 8192 0 - Live 0xffffffffc0001000 (O)\n"
			 "hidden 4096 0 - Live 0x0000000000000000\n"
			 "garbage\n");

	ok(dw_capture_create(&w, cap, &cfg) == 0 && dw_ksnap_write(&w, ks, mods) == 0 &&
	   dw_capture_close(&w) == 0, "write a capture with a kernel symbol snapshot");
	k = read_back(why, sizeof(why), &chunks);
	ok(k != NULL && chunks >= 3, "read it back (%lu chunks)%s%s", chunks, k ? "" : ": ",
	   k ? "" : why);
	name = k ? dw_kallsyms_lookup(k, 0xffffffff81000000ULL + 0x40ULL * 12345 + 5, &off, &mod)
		 : NULL;
	ok(name && !strncmp(name, "sym_12345_", 10) && off == 5 && !strcmp(mod, "kernel.kallsyms"),
	   "the right core symbol (%s+%llu)", name ? name : "-", (unsigned long long)off);
	name = k ? dw_kallsyms_lookup(k, 0xffffffff81000000ULL + 0x40ULL * 14 + 1, &off, &mod)
		 : NULL;
	ok(name && !strncmp(name, "sym_13_", 7) && off == 0x41,
	   "data symbols were left out of the snapshot (%s)", name ? name : "-");
	name = k ? dw_kallsyms_lookup(k, 0xffffffffc0002010ULL, &off, &mod) : NULL;
	ok(name && !strcmp(name, "mod_fn") && !strcmp(mod, "mymod"), "a module symbol");
	mod = k ? dw_kallsyms_module(k, 0xffffffffc0001100ULL, &off) : NULL;
	ok(mod && !strcmp(mod, "mymod") && off == 0x100, "module extents from the module list");
	ok(k && !dw_kallsyms_module(k, 0xffffffffc0004000ULL, &off) &&
	   !dw_kallsyms_module(k, 0x10, &off), "outside every module: none");
	dw_kallsyms_free(k);

	/* Only the symbols some IPs need: each containing symbol and its successor. */
	{
		const __u64 ips[] = { 0xffffffff81000000ULL + 0x40ULL * 12345 + 5,
				      0xffffffff81000000ULL + 0x40ULL * 12345 + 9,
				      0xffffffffc0002010ULL };
		unsigned long small;

		ok(dw_capture_create(&w, cap, &cfg) == 0 &&
		   dw_ksnap_write_ips(&w, ks, mods, ips, 3) == 0 && dw_capture_close(&w) == 0,
		   "write a snapshot of the symbols 3 IPs need");
		k = read_back(why, sizeof(why), &small);
		ok(k && small == 2, "one chunk of symbols, one of modules (%lu)", small);
		name = k ? dw_kallsyms_lookup(k, ips[0], &off, &mod) : NULL;
		ok(name && !strncmp(name, "sym_12345_", 10) && off == 5,
		   "an IP resolves as with the whole snapshot (%s+%llu)", name ? name : "-",
		   (unsigned long long)off);
		name = k ? dw_kallsyms_lookup(k, ips[2], &off, &mod) : NULL;
		ok(name && !strcmp(name, "mod_fn") && !strcmp(mod, "mymod"),
		   "a module IP resolves too");
		name = k ? dw_kallsyms_lookup(k, 0xffffffff81000000ULL + 0x40ULL * 500, &off, &mod)
			 : NULL;
		ok(!name || strncmp(name, "sym_500_", 8), "a symbol no IP needs is left out");
		dw_kallsyms_free(k);
		/* The checks below want the whole snapshot again. */
		ok(dw_capture_create(&w, cap, &cfg) == 0 && dw_ksnap_write(&w, ks, mods) == 0 &&
		   dw_capture_close(&w) == 0, "write the whole snapshot again");
	}

	/* An old reader: the snapshot is skipped by size, records are intact. */
	ok(dw_capture_open(&r, cap) == 0, "the capture validates");
	while (dw_capture_next(&r))
		known++;
	ok(known == 0 && r.skipped == chunks, "a reader that does not know the type skips "
	   "all %lu chunks", chunks);
	dw_capture_release(&r);

	/* Damage: drop a middle chunk (rewrite the file without it). */
	{
		struct dw_capture_writer w2;
		const struct dunwind_rec_header *rec;
		unsigned long nth = 0;
		char cap2[160];

		snprintf(cap2, sizeof(cap2), "%s/capture2", dir);
		dw_capture_open(&r, cap);
		dw_capture_create(&w2, cap2, &cfg);
		while ((rec = dw_capture_next_any(&r)))
			if (nth++ != 1)
				dw_capture_write(&w2, rec);
		dw_capture_close(&w2);
		dw_capture_release(&r);
		rename(cap2, cap);
		k = read_back(why, sizeof(why), &chunks);
		ok(!k && strstr(why, "damaged"), "a missing chunk: no table, says why (%s)", why);
	}

	/* No snapshot at all. */
	dw_capture_create(&w, cap, &cfg);
	dw_capture_close(&w);
	k = read_back(why, sizeof(why), &chunks);
	ok(!k && strstr(why, "no kernel symbol snapshot"), "no snapshot: says so");

	/* kptr_restrict: all-zero addresses are refused by the writer. */
	write_text(ks, "0000000000000000 T _stext\n0000000000000000 t helper\n");
	dw_capture_create(&w, cap, &cfg);
	ok(dw_ksnap_write(&w, ks, mods) == -EPERM, "hidden addresses: -EPERM");
	dw_capture_close(&w);
	ok(dw_ksnap_write(&w, "/nonexistent", NULL) == -ENOENT, "missing kallsyms: -ENOENT");

	unlink(cap);
	unlink(ks);
	unlink(mods);
	rmdir(dir);

	return tap_done();
}
