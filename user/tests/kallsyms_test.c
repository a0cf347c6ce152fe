// SPDX-License-Identifier: GPL-2.0
/* dw_kallsyms_*: lookups in a synthetic kallsyms file, and in /proc/kallsyms. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "symbols/kallsyms.h"

static char path[] = "/tmp/dw_kallsyms_test.XXXXXX";

static int write_file(const char *text)
{
	int fd = mkstemp(path);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

int main(void)
{
	struct dw_kallsyms *k;
	const char *name, *mod;
	uint64_t off;

	if (write_file("ffffffff81000000 T _stext\n"
		       "ffffffff81001000 t helper\n"
		       "ffffffff81002000 D some_data\n"
		       "ffffffff81000800 T middle\n"
		       "ffffffffc0001000 t dunwind_handler\t[dunwind]\n")) {
		perror("write");
		return 1;
	}
	k = dw_kallsyms_load(path);
	ok(k != NULL, "load a kallsyms file");
	name = dw_kallsyms_lookup(k, 0xffffffff81000010ULL, &off, &mod);
	ok(name && !strcmp(name, "_stext") && off == 0x10 && !strcmp(mod, "kernel.kallsyms"),
	   "core kernel symbol with offset");
	name = dw_kallsyms_lookup(k, 0xffffffff81000900ULL, &off, &mod);
	ok(name && !strcmp(name, "middle") && off == 0x100, "unsorted input is sorted");
	name = dw_kallsyms_lookup(k, 0xffffffff81002010ULL, &off, &mod);
	ok(name && !strcmp(name, "helper") && off == 0x1010, "data symbols are not functions");
	name = dw_kallsyms_lookup(k, 0xffffffffc0001004ULL, &off, &mod);
	ok(name && !strcmp(name, "dunwind_handler") && off == 4 && !strcmp(mod, "dunwind"),
	   "module symbol names its module");
	ok(!dw_kallsyms_lookup(k, 0xffffffffc0101004ULL, &off, &mod), "far past the last symbol");
	ok(!dw_kallsyms_lookup(k, 0x1000, &off, &mod), "below the first symbol");
	dw_kallsyms_free(k);
	unlink(path);

	strcpy(path, "/tmp/dw_kallsyms_test.XXXXXX");
	write_file("0000000000000000 T _stext\n0000000000000000 t helper\n");
	errno = 0;
	ok(!dw_kallsyms_load(path) && errno == EPERM, "all-zero addresses (kptr_restrict): EPERM");
	unlink(path);

	k = dw_kallsyms_load(NULL);
	if (!k) {
		tap_skip("/proc/kallsyms", "not readable here: %s", strerror(errno));
	} else {
		uint64_t addr = 0;
		FILE *f = fopen("/proc/kallsyms", "r");
		char line[512], sym[256], want[256] = "";

		while (f && fgets(line, sizeof(line), f)) {
			unsigned long long a;
			char t;

			if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 && (t == 'T') &&
			    !strcmp(sym, "schedule")) {
				addr = a;
				strcpy(want, sym);
				break;
			}
		}
		if (f)
			fclose(f);
		name = addr ? dw_kallsyms_lookup(k, addr + 1, &off, &mod) : NULL;
		ok(addr && name && off == 1, "/proc/kallsyms: schedule+1 found (as %s)",
		   name ? name : "NULL");
		dw_kallsyms_free(k);
	}
	return tap_done();
}
