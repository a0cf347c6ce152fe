// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbol snapshot: written by 'dunwind record' at the start of a
 * capture, read back by every report so that kernel frames are named as
 * they were on the recording machine, whatever runs now.
 *
 * Writer: read the text lines of kallsyms ('t', 'T', 'w', 'W') and the
 * module list, store each as deflated chunks (zchunk.c).  Reader: gather
 * the chunks per kind, inflate, parse.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/ksnap.h"
#include "symbols/ksym_dev.h"
#include "util/array.h"
#include "util/search.h"

struct dw_ksnap {
	struct dw_zchunk part[3];	/* by DW_KSYMS_* kind */
};

/*
 * Read a text file, up to @max_lines kept lines (0: all); for kallsyms keep
 * only function symbols.
 */
static char *slurp(const char *path, int text_only, size_t max_lines, size_t *len)
{
	size_t lines = 0;
	char *line = NULL, *buf = NULL;
	size_t cap = 0, line_cap = 0;
	FILE *f = fopen(path, "re");
	ssize_t n;

	*len = 0;
	if (!f)
		return NULL;
	while ((n = getline(&line, &line_cap, f)) > 0) {
		const char *sp = text_only ? memchr(line, ' ', (size_t)n) : NULL;

		/* "ADDR TYPE NAME": keep function types only */
		if (text_only && (!sp || sp + 2 >= line + n || sp[2] != ' ' ||
				  !strchr("tTwW", sp[1]) || !sp[1]))
			continue;
		if (DW_ARRAY_RESERVE(buf, cap, *len + (size_t)n + 1, 1 << 20)) {
			free(buf);
			buf = NULL;
			errno = ENOMEM;
			goto out;
		}
		memcpy(buf + *len, line, (size_t)n);
		*len += (size_t)n;
		if (++lines == max_lines)
			break;
	}
	if (!buf)
		buf = calloc(1, 1);
out:
	free(line);
	fclose(f);
	return buf;
}

struct ksnap_line {
	unsigned long long addr;
	size_t off, len;		/* the line in the text, with its newline */
	int keep;
};

static int ksnap_line_cmp(const void *a, const void *b)
{
	const struct ksnap_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int ksnap_off_cmp(const void *a, const void *b)
{
	const struct ksnap_line *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Keep only the lines of @text (kallsyms format) that name the symbol
 * containing one of @ips, and the symbol after it (so that the symbol's
 * extent stays bounded for readers).  Rewrites @text in place.
 * Return: 0 or -ENOMEM.
 */
static int ksnap_filter(char *text, size_t *len, const __u64 *ips, size_t nips)
{
	struct ksnap_line *l = NULL;
	size_t n = 0, cap = 0, pos = 0, i, out = 0;

	while (pos < *len) {
		char *nl = memchr(text + pos, '\n', *len - pos);
		size_t end = nl ? (size_t)(nl - text) + 1 : *len;

		if (DW_ARRAY_RESERVE(l, cap, n + 1, 4096)) {
			free(l);
			return -ENOMEM;
		}
		l[n].addr = strtoull(text + pos, NULL, 16);
		l[n].off = pos;
		l[n].len = end - pos;
		l[n].keep = 0;
		n++;
		pos = end;
	}
	qsort(l, n, sizeof(*l), ksnap_line_cmp);
	for (i = 0; i < nips; i++) {
		size_t lo = DW_UPPER_BOUND(l, n, addr, ips[i]);	/* first line with addr > ip */

		if (!lo)
			continue;
		l[lo - 1].keep = 1;
		if (lo < n)
			l[lo].keep = 1;
	}
	qsort(l, n, sizeof(*l), ksnap_off_cmp);
	for (i = 0; i < n; i++) {
		if (!l[i].keep)
			continue;
		memmove(text + out, text + l[i].off, l[i].len);
		out += l[i].len;
	}
	*len = out;
	free(l);
	return 0;
}

/* Write @text (kallsyms lines, freed here) and the module list. */
static int ksnap_write_text(struct dw_capture_writer *w, char *text, size_t len,
			    const char *modules)
{
	int err = dw_zchunk_write(w, DW_REC_KSYMS, DW_KSYMS_KALLSYMS, text, len);

	free(text);
	if (err)
		return err;
	text = slurp(modules ? modules : "/proc/modules", 0, 0, &len);
	if (!text)
		return 0;
	err = len ? dw_zchunk_write(w, DW_REC_KSYMS, DW_KSYMS_MODULES, text, len) : 0;
	free(text);
	return err;
}

/**
 * dw_ksnap_write() - append the whole kernel symbol snapshot to a capture
 * @w:		open capture writer
 * @kallsyms:	kallsyms file (NULL: /proc/kallsyms)
 * @modules:	module list (NULL: /proc/modules); a missing one is skipped
 *
 * Context and return: as dw_ksnap_write_ips().
 */
int dw_ksnap_write(struct dw_capture_writer *w, const char *kallsyms, const char *modules)
{
	return dw_ksnap_write_ips(w, kallsyms, modules, NULL, 0);
}

/**
 * dw_ksnap_write_ips() - append the kernel symbol snapshot to a capture
 * @w:		open capture writer
 * @kallsyms:	kallsyms file (NULL: /proc/kallsyms)
 * @modules:	module list (NULL: /proc/modules); a missing one is skipped
 * @ips:	kernel IPs the capture holds: only the symbols containing them
 *		(and each one's successor, which bounds it) are kept; NULL: all
 * @nips:	how many
 *
 * Context: user space, blocking I/O; reads ~10 MB, deflates it.
 * Return: 0; -EPERM if kallsyms hides its addresses (not root); -errno
 * from reading kallsyms or from writing the capture; -ENOMEM.
 */
int dw_ksnap_write_ips(struct dw_capture_writer *w, const char *kallsyms, const char *modules,
		       const __u64 *ips, size_t nips)
{
	size_t len, i;
	char *text;
	int nonzero = 0;

	/*
	 * No kernel IP needs no symbol: the first line only, for the check
	 * below.  The kernel makes the whole text for about 4000 instructions
	 * a symbol (0.76 s of a 7.2 guest), after the recorded program's end.
	 */
	text = slurp(kallsyms ? kallsyms : "/proc/kallsyms", 1, ips && !nips ? 1 : 0, &len);
	if (!text)
		return -errno;
	for (i = 0; i < len && !nonzero; i++) {	/* all-zero addresses: kptr_restrict */
		if (text[i] == ' ')	/* end of the address: skip to the next line */
			while (i < len && text[i] != '\n')
				i++;
		else if (text[i] != '0' && text[i] != '\n')
			nonzero = 1;
	}
	if (!nonzero) {
		free(text);
		return -EPERM;
	}
	if (ips && ksnap_filter(text, &len, ips, nips)) {
		free(text);
		return -ENOMEM;
	}
	return ksnap_write_text(w, text, len, modules);
}

/**
 * dw_ksnap_write_dev() - append the kernel symbol snapshot, asking the module
 * @w:		open capture writer
 * @dev_fd:	an open /dev/dunwind
 * @modules:	module list (NULL: /proc/modules); a missing one is skipped
 * @ips:	kernel IPs the capture holds, sorted
 * @nips:	how many
 *
 * The same snapshot as dw_ksnap_write_ips() (the symbols holding @ips and
 * their successors), from a DUNWIND_IOC_KSYM per symbol rather than all
 * of /proc/kallsyms.
 *
 * Context: user space.
 * Return: 0; -EPERM if kernel addresses are hidden from the caller;
 * -ENOTTY from a module without DUNWIND_IOC_KSYM (nothing written then);
 * -errno from writing the capture; -ENOMEM.
 */
int dw_ksnap_write_dev(struct dw_capture_writer *w, int dev_fd, const char *modules,
		       const __u64 *ips, size_t nips)
{
	size_t len;
	char *text = dw_ksym_dev_lines(dev_fd, ips, nips, &len);

	if (!text)
		return -errno;
	return ksnap_write_text(w, text, len, modules);
}

/**
 * dw_ksnap_new() - an empty snapshot reader
 *
 * Context: user space.
 * Return: the reader or NULL (ENOMEM).
 */
struct dw_ksnap *dw_ksnap_new(void)
{
	return calloc(1, sizeof(struct dw_ksnap));
}

/**
 * dw_ksnap_add() - take in one capture record
 * @k:		reader
 * @rec:	a record of any type whose header is sound (size within the file)
 *
 * Context: user space.  Records of other types are ignored.  A malformed
 * or out-of-order chunk spoils its kind (no symbols from it), it is not
 * an error for the capture.
 * Return: 0 or -ENOMEM.
 */
int dw_ksnap_add(struct dw_ksnap *k, const struct dunwind_rec_header *rec)
{
	const struct dw_rec_zchunk *r = (const void *)rec;

	if (rec->type != DW_REC_KSYMS || rec->size < sizeof(*r))
		return 0;
	if (r->kind != DW_KSYMS_KALLSYMS && r->kind != DW_KSYMS_MODULES)
		return 0;
	return dw_zchunk_add(&k->part[r->kind], rec);
}

/**
 * dw_ksnap_present() - did the capture carry a kallsyms snapshot?
 * @k:		reader
 *
 * Context: user space.
 * Return: 1 if at least one kallsyms chunk came, else 0.
 */
int dw_ksnap_present(const struct dw_ksnap *k)
{
	return k->part[DW_KSYMS_KALLSYMS].next_seq > 0 || k->part[DW_KSYMS_KALLSYMS].bad;
}

const char *dw_ksnap_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT:
		return "the capture has no kernel symbol snapshot";
	case ENODATA:
		return "the capture's kallsyms snapshot is damaged (chunks missing or out of order)";
	case EBADMSG:
		return "the capture's kallsyms snapshot does not inflate";
	case EINVAL:
		return "the capture's kallsyms snapshot holds no usable symbol";
	case ENOMEM:
		return "out of memory";
	}
	return strerror(err < 0 ? -err : err);
}

/**
 * dw_ksnap_symbols() - the kernel symbol table of the snapshot
 * @k:		reader that saw every record of the capture
 *
 * Context: user space.
 * Return: a table (module ranges included when the module list came), or
 * NULL with errno set: ENOENT (no snapshot), ENODATA or EBADMSG (a damaged
 * one), EINVAL (no usable symbol in it), ENOMEM; dw_ksnap_strerror()
 * says which in words.
 */
struct dw_kallsyms *dw_ksnap_symbols(struct dw_ksnap *k)
{
	struct dw_kallsyms *ks;
	char *text;

	if (!dw_ksnap_present(k)) {
		errno = ENOENT;
		return NULL;
	}
	text = dw_zchunk_text(&k->part[DW_KSYMS_KALLSYMS]);
	if (!text)
		return NULL;
	/* Empty: the recorder kept no symbol, for no sample needed one. */
	ks = *text ? dw_kallsyms_parse(text, strlen(text)) : dw_kallsyms_empty();
	free(text);
	if (!ks) {
		errno = EINVAL;
		return NULL;
	}
	if (k->part[DW_KSYMS_MODULES].next_seq) {
		text = dw_zchunk_text(&k->part[DW_KSYMS_MODULES]);
		if (text)
			dw_kallsyms_add_modules(ks, text, strlen(text));
		free(text);
	}
	return ks;
}

/**
 * dw_ksnap_free() - free a reader
 * @k:		reader or NULL
 *
 * Context: user space.
 */
void dw_ksnap_free(struct dw_ksnap *k)
{
	int i;

	if (!k)
		return;
	for (i = 0; i < 3; i++)
		dw_zchunk_release(&k->part[i]);
	free(k);
}
