// SPDX-License-Identifier: GPL-2.0
/*
 * User symbol snapshot (usnap.h), the reader.  The writer
 * (usnap_writer.c) resolves the recorded user addresses and writes only
 * what they need:
 *
 *	D BUILDID|- PATH		a mapped file; the lines below are its
 *	F START SIZE NAME		a function: file offsets, hex
 *	U START SIZE			an FDE without a symbol
 *	L ADDR DEPTH LINE FUNC|- FILE	a source frame of ADDR (a file offset
 *					as looked up), DEPTH 0 innermost
 *	P PID				JIT code of PID: F lines with addresses
 *
 * Parsed into per-file tables sorted by start (and address), found
 * by build-id (else by path), searched by binary search.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/usnap.h"
#include "util/array.h"
#include "util/log.h"
#include "util/search.h"

struct us_func {
	uint64_t start, size;
	const char *name;		/* NULL: FDE range */
};

struct us_line {
	uint64_t addr;
	uint32_t depth;
	struct dw_srcframe fr;
};

struct us_file {
	unsigned char build_id[20];
	size_t build_id_size;
	const char *path;		/* NULL for JIT */
	__u32 pid;
	struct us_func *funcs;		/* sorted by start */
	size_t nr_funcs, cap_funcs;
	struct us_line *lines;		/* sorted by address, then depth */
	size_t nr_lines, cap_lines;
};

struct dw_usnap {
	struct dw_zchunk text;
	char *buf;			/* the inflated text; strings point into it */
	struct us_file *files;
	size_t nr_files, cap_files;
};

/**
 * dw_usnap_new() - an empty snapshot reader
 *
 * Context: user space.
 * Return: the reader, or NULL (ENOMEM).
 */
struct dw_usnap *dw_usnap_new(void)
{
	return calloc(1, sizeof(struct dw_usnap));
}

/**
 * dw_usnap_add() - take in one capture record
 * @u:		reader
 * @rec:	a record of any type whose header is sound
 *
 * Context: user space.  Other types and kinds are ignored; a damaged
 * chunk spoils the snapshot, not the capture.
 * Return: 0 or -ENOMEM.
 */
int dw_usnap_add(struct dw_usnap *u, const struct dunwind_rec_header *rec)
{
	const struct dw_rec_zchunk *r = (const void *)rec;

	if (rec->type != DW_REC_USYMS || rec->size < sizeof(*r) || r->kind != DW_USYMS_TEXT)
		return 0;
	return dw_zchunk_add(&u->text, rec);
}

/* The next space-separated field of *@p, NUL-terminated; NULL at the end. */
static char *field(char **p)
{
	char *start = *p, *sp;

	if (!*start)
		return NULL;
	sp = strchr(start, ' ');
	if (sp) {
		*sp = '\0';
		*p = sp + 1;
	} else {
		*p = start + strlen(start);
	}
	return start;
}

/* A whole field as a number in @base, at most @max; 0 or -1. */
static int number(char **p, int base, uint64_t max, uint64_t *v)
{
	char *f = field(p), *end;

	if (!f || !isxdigit((unsigned char)f[0]))
		return -1;
	errno = 0;
	*v = strtoull(f, &end, base);
	return errno || *end || *v > max ? -1 : 0;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static int parse_file(struct dw_usnap *u, char *s, int jit)
{
	struct us_file *f;
	uint64_t pid;
	char *id;
	size_t i, n;

	if (DW_ARRAY_RESERVE(u->files, u->cap_files, u->nr_files + 1, 256))
		return -ENOMEM;
	f = &u->files[u->nr_files];
	memset(f, 0, sizeof(*f));
	if (jit) {
		if (number(&s, 10, UINT32_MAX, &pid) || !pid || *s)
			return -EINVAL;
		f->pid = (__u32)pid;
	} else {
		id = field(&s);
		n = id ? strlen(id) : 0;
		if (!id || !dw_dso_path_is_image(s) || (strcmp(id, "-") && (n % 2 || n > 40)))
			return -EINVAL;
		for (i = 0; strcmp(id, "-") && i < n; i += 2) {
			if (!isxdigit((unsigned char)id[i]) || !isxdigit((unsigned char)id[i + 1]))
				return -EINVAL;
			f->build_id[i / 2] = (unsigned char)(hexval(id[i]) << 4 | hexval(id[i + 1]));
		}
		f->build_id_size = strcmp(id, "-") ? n / 2 : 0;
		f->path = s;
	}
	u->nr_files++;
	return 0;
}

/* One line of the text, NUL-terminated, in place: 0, -EINVAL (malformed) or -ENOMEM. */
static int parse_line(struct dw_usnap *u, char *s)
{
	struct us_file *f = u->nr_files ? &u->files[u->nr_files - 1] : NULL;
	uint64_t a, b, depth, line;
	char type = s[0], *name;

	if (!type || s[1] != ' ')
		return -EINVAL;
	s += 2;
	if (type == 'D' || type == 'P')
		return parse_file(u, s, type == 'P');
	if (!f || number(&s, 16, UINT64_MAX, &a))
		return -EINVAL;
	switch (type) {
	case 'F':
	case 'U':
		if (number(&s, 16, UINT64_MAX, &b) || !b || a + b < a || (type == 'F') != !!*s ||
		    (f->pid && type == 'U'))
			return -EINVAL;
		if (DW_ARRAY_RESERVE(f->funcs, f->cap_funcs, f->nr_funcs + 1, 256))
			return -ENOMEM;
		f->funcs[f->nr_funcs++] = (struct us_func){ a, b, type == 'F' ? s : NULL };
		return 0;
	case 'L':
		if (f->pid || number(&s, 10, DW_DSO_MAX_INLINE - 1, &depth) ||
		    number(&s, 10, INT32_MAX, &line) || !(name = field(&s)))
			return -EINVAL;
		if (DW_ARRAY_RESERVE(f->lines, f->cap_lines, f->nr_lines + 1, 256))
			return -ENOMEM;
		f->lines[f->nr_lines++] = (struct us_line){
			a, (uint32_t)depth,
			{ strcmp(name, "-") ? name : NULL, *s ? s : NULL, (int)line } };
		return 0;
	default:
		return -EINVAL;
	}
}

static int func_cmp(const void *a, const void *b)
{
	const struct us_func *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int line_cmp(const void *a, const void *b)
{
	const struct us_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static void usnap_free_tables(struct dw_usnap *u)
{
	size_t i;

	for (i = 0; i < u->nr_files; i++) {
		free(u->files[i].funcs);
		free(u->files[i].lines);
	}
	free(u->files);
	u->files = NULL;
	u->nr_files = u->cap_files = 0;
}

const char *dw_usnap_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT:
		return "the capture has no user symbol snapshot";
	case ENODATA:
		return "the capture's user symbol snapshot is damaged (chunks missing or out of "
		       "order)";
	case EBADMSG:
		return "the capture's user symbol snapshot does not inflate";
	case EINVAL:
		return "the capture's user symbol snapshot is malformed";
	case ENOMEM:
		return "out of memory";
	}
	return strerror(err < 0 ? -err : err);
}

/**
 * dw_usnap_load() - parse the snapshot once every record was added
 * @u:		reader
 *
 * Context: user space.
 * Return: 0; -ENOENT if the capture has none; -ENODATA or -EBADMSG if it
 * is damaged, -EINVAL if malformed (the reader then finds nothing; the
 * line is a dw_debug() message); -ENOMEM.  dw_usnap_strerror() says
 * which in words.
 */
int dw_usnap_load(struct dw_usnap *u)
{
	char *s, *nl;
	size_t i, lineno = 0;
	int e;

	if (!u->text.next_seq && !u->text.bad)
		return -ENOENT;
	u->buf = dw_zchunk_text(&u->text);
	if (!u->buf)
		return -errno;
	for (s = u->buf; *s; s = nl + 1) {
		lineno++;
		nl = strchr(s, '\n');
		if (!nl) {
			e = -EINVAL;
			goto bad;
		}
		*nl = '\0';
		e = parse_line(u, s);
		if (e)
			goto bad;
	}
	for (i = 0; i < u->nr_files; i++) {
		struct us_file *f = &u->files[i];

		if (f->nr_funcs)
			qsort(f->funcs, f->nr_funcs, sizeof(*f->funcs), func_cmp);
		if (f->nr_lines)
			qsort(f->lines, f->nr_lines, sizeof(*f->lines), line_cmp);
	}
	return 0;
bad:
	if (e != -ENOMEM)
		dw_debug("the capture's user symbol snapshot is malformed at line %zu\n", lineno);
	usnap_free_tables(u);
	return e;
}

/* The file of the snapshot for a mapping: by build-id when both have one, else by path. */
static const struct us_file *find_file(const struct dw_usnap *u, const unsigned char *id,
				       size_t id_size, const char *path)
{
	size_t i;

	for (i = 0; i < u->nr_files; i++) {
		const struct us_file *f = &u->files[i];

		if (f->pid)
			continue;
		if (id_size && f->build_id_size) {
			if (id_size == f->build_id_size && !memcmp(id, f->build_id, id_size))
				return f;
		} else if (path && !strcmp(path, f->path)) {
			return f;
		}
	}
	return NULL;
}

/* The function of @f holding @addr, filled into @res; 0 or -ENOENT. */
static int find_func(const struct us_file *f, uint64_t addr, struct dw_symres *res)
{
	size_t lo = DW_UPPER_BOUND(f->funcs, f->nr_funcs, start, addr), hi, i;
	const struct us_func *fn;

	memset(res, 0, sizeof(*res));
	if (!lo || addr - f->funcs[lo - 1].start >= f->funcs[lo - 1].size)
		return -ENOENT;
	fn = &f->funcs[lo - 1];
	res->name = fn->name;
	res->fde = !fn->name;
	res->start = fn->start;
	res->size = fn->size;
	res->off = addr - fn->start;
	lo = 0;
	hi = f->nr_lines;
	while (lo < hi) {		/* first source frame at or above @addr */
		size_t mid = lo + (hi - lo) / 2;

		if (f->lines[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < f->nr_lines && f->lines[i].addr == addr &&
	     f->lines[i].depth == res->nr_frames; i++)
		res->frames[res->nr_frames++] = f->lines[i].fr;
	return 0;
}

/**
 * dw_usnap_lookup() - what the snapshot says about an address of a file
 * @u:		loaded reader
 * @build_id:	the mapping's recorded build-id, or NULL
 * @build_id_size: its length
 * @path:	the mapped file's path (matched when a build-id is missing)
 * @foff:	file offset of the address as looked up
 * @res:	filled: @name (NULL with @fde for a function known only by its
 *		FDE), @start and @size in file offsets, @off, source frames
 *
 * Context: user space; O(log n).
 * Return: 0, or -ENOENT if the snapshot does not know the address.
 */
int dw_usnap_lookup(const struct dw_usnap *u, const unsigned char *build_id, size_t build_id_size,
		    const char *path, uint64_t foff, struct dw_symres *res)
{
	const struct us_file *f = find_file(u, build_id, build_id_size, path);

	memset(res, 0, sizeof(*res));
	return f ? find_func(f, foff, res) : -ENOENT;
}

/**
 * dw_usnap_lookup_jit() - the JIT function of process @pid holding @addr
 * @u:		loaded reader
 * @pid:	process id as in the records
 * @addr:	user address as looked up
 * @res:	filled as by dw_usnap_lookup() (addresses, not file offsets)
 *
 * Context: user space.
 * Return: 0, or -ENOENT.
 */
int dw_usnap_lookup_jit(const struct dw_usnap *u, __u32 pid, uint64_t addr,
			struct dw_symres *res)
{
	size_t i;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < u->nr_files; i++)
		if (u->files[i].pid == pid)
			return find_func(&u->files[i], addr, res);
	return -ENOENT;
}

/**
 * dw_usnap_free() - free a reader
 * @u:		reader or NULL
 *
 * Context: user space; names it returned become invalid.
 */
void dw_usnap_free(struct dw_usnap *u)
{
	if (!u)
		return;
	usnap_free_tables(u);
	dw_zchunk_release(&u->text);
	free(u->buf);
	free(u);
}
