// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbol snapshot: written by 'dunwind record' at the start of a
 * capture, read back by every report so that kernel frames are named as
 * they were on the recording machine, whatever runs now.
 *
 * Writer: read the text lines of kallsyms ('t', 'T', 'w', 'W') and the
 * module list, deflate each with zlib, cut into DW_KSYMS_CHUNK pieces.
 * Reader: collect the pieces per kind, check that they are consecutive
 * and add up to the announced size, inflate, parse.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "capture/ksnap.h"
#include "util/array.h"

struct ksnap_part {
	unsigned char *buf;	/* compressed bytes gathered so far */
	__u64 len, total, raw;
	__u32 next_seq;
	int bad;		/* chunks out of order or inconsistent */
};

struct dw_ksnap {
	struct ksnap_part part[3];	/* by DW_KSYMS_* kind */
};

/* Read a whole text file; for kallsyms keep only function symbols. */
static char *slurp(const char *path, int text_only, size_t *len)
{
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
		if (*len + (size_t)n + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 1 << 20;
			char *nb;

			while (ncap < *len + (size_t)n + 1)
				ncap *= 2;
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				goto out;
			}
			buf = nb;
			cap = ncap;
		}
		memcpy(buf + *len, line, (size_t)n);
		*len += (size_t)n;
	}
	if (!buf)
		buf = calloc(1, 1);
out:
	free(line);
	fclose(f);
	return buf;
}

static int write_kind(struct dw_capture_writer *w, __u32 kind, const char *text, size_t len)
{
	uLongf zlen = compressBound(len);
	unsigned char *z = malloc(zlen);
	union {
		struct dw_rec_ksyms r;
		__u64 raw[(sizeof(struct dw_rec_ksyms) + DW_KSYMS_CHUNK) / 8 + 1];
	} *rec = NULL;
	__u64 off = 0;
	__u32 seq = 0;
	int err = 0;

	rec = malloc(sizeof(*rec));
	if (!z || !rec) {
		err = -ENOMEM;
		goto out;
	}
	if (compress2(z, &zlen, (const Bytef *)text, len, 6) != Z_OK) {
		err = -EIO;
		goto out;
	}
	do {
		__u32 n = zlen - off > DW_KSYMS_CHUNK ? DW_KSYMS_CHUNK : (__u32)(zlen - off);

		memset(rec, 0, dw_rec_ksyms_size(n));
		rec->r.hdr.type = DW_REC_KSYMS;
		rec->r.hdr.size = (__u16)dw_rec_ksyms_size(n);
		rec->r.kind = kind;
		rec->r.seq = seq++;
		rec->r.len = n;
		rec->r.total = zlen;
		rec->r.raw = len;
		memcpy(rec->r.data, z + off, n);
		err = dw_capture_write(w, &rec->r.hdr);
		off += n;
	} while (!err && off < zlen);
out:
	free(z);
	free(rec);
	return err;
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
		size_t lo = 0, hi = n;

		while (lo < hi) {		/* first line with addr > ip */
			size_t mid = lo + (hi - lo) / 2;

			if (l[mid].addr <= ips[i])
				lo = mid + 1;
			else
				hi = mid;
		}
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
	int err, nonzero = 0;

	text = slurp(kallsyms ? kallsyms : "/proc/kallsyms", 1, &len);
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
	err = write_kind(w, DW_KSYMS_KALLSYMS, text, len);
	free(text);
	if (err)
		return err;
	text = slurp(modules ? modules : "/proc/modules", 0, &len);
	if (!text)
		return 0;
	err = len ? write_kind(w, DW_KSYMS_MODULES, text, len) : 0;
	free(text);
	return err;
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
	const struct dw_rec_ksyms *r = (const void *)rec;
	struct ksnap_part *p;
	unsigned char *nb;

	if (rec->type != DW_REC_KSYMS)
		return 0;
	if (rec->size < sizeof(*r))
		return 0;
	if (r->kind != DW_KSYMS_KALLSYMS && r->kind != DW_KSYMS_MODULES)
		return 0;
	p = &k->part[r->kind];
	if (p->bad)
		return 0;
	if (r->len > rec->size - sizeof(*r) || r->seq != p->next_seq || !r->total ||
	    r->raw > DW_KSYMS_RAW_MAX || r->total > DW_KSYMS_RAW_MAX ||
	    (p->next_seq && (r->total != p->total || r->raw != p->raw)) ||
	    p->len + r->len > r->total) {
		p->bad = 1;
		return 0;
	}
	if (!p->next_seq) {
		p->total = r->total;
		p->raw = r->raw;
		p->buf = malloc(r->total);
		if (!p->buf)
			return -ENOMEM;
	}
	nb = p->buf;
	memcpy(nb + p->len, r->data, r->len);
	p->len += r->len;
	p->next_seq++;
	return 0;
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

/* Inflate a complete part into a NUL-terminated text; NULL with a reason. */
static char *inflate_part(const struct ksnap_part *p, const char *what, char *err, size_t errlen)
{
	uLongf n = p->raw;
	char *text;

	if (p->bad || p->len != p->total) {
		snprintf(err, errlen, "the capture's %s snapshot is damaged (chunks missing or "
			 "out of order)", what);
		return NULL;
	}
	text = malloc(p->raw + 1);
	if (!text) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (uncompress((Bytef *)text, &n, p->buf, p->len) != Z_OK || n != p->raw) {
		snprintf(err, errlen, "the capture's %s snapshot does not inflate", what);
		free(text);
		return NULL;
	}
	text[n] = '\0';
	return text;
}

/**
 * dw_ksnap_symbols() - the kernel symbol table of the snapshot
 * @k:		reader that saw every record of the capture
 * @err:	set to a reason when NULL is returned
 * @errlen:	size of @err
 *
 * Context: user space.
 * Return: a table (module ranges included when the module list came), or
 * NULL: no snapshot, or a damaged one (@err says which).
 */
struct dw_kallsyms *dw_ksnap_symbols(struct dw_ksnap *k, char *err, size_t errlen)
{
	struct dw_kallsyms *ks;
	char *text;

	if (!dw_ksnap_present(k)) {
		snprintf(err, errlen, "the capture has no kernel symbol snapshot");
		return NULL;
	}
	text = inflate_part(&k->part[DW_KSYMS_KALLSYMS], "kallsyms", err, errlen);
	if (!text)
		return NULL;
	ks = dw_kallsyms_parse(text, strlen(text));
	free(text);
	if (!ks) {
		snprintf(err, errlen, "the capture's kallsyms snapshot holds no usable symbol");
		return NULL;
	}
	if (k->part[DW_KSYMS_MODULES].next_seq) {
		char ignored[8];

		text = inflate_part(&k->part[DW_KSYMS_MODULES], "module", ignored,
				    sizeof(ignored));
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
		free(k->part[i].buf);
	free(k);
}
