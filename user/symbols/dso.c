// SPDX-License-Identifier: GPL-2.0
/*
 * ELF files and their debug info through libdwfl.
 *
 * Each file gets its own Dwfl with the file reported at bias 0
 * (dwfl_report_elf with base 0, add_p_vaddr): module addresses are then
 * the ELF's link-time addresses, the space dw_dso_file_to_vaddr() maps a
 * file offset into.  libdwfl finds separate debug info itself through the
 * find_debuginfo callback: .gnu_debuglink next to the file or in .debug/,
 * and <dir>/.build-id/xx/yyyy.debug for each debug directory; when it
 * finds nothing we ask debuginfod (DEBUGINFOD_URLS) by build-id.
 *
 * The capture records each mapping's build-id.  A file whose build-id is
 * not the recorded one is not the file that ran: we fetch the right one
 * from debuginfod when we can, and otherwise mark it stale (no symbols;
 * callers print its frames as [unknown] (dso+0xoff)) and say so once.
 *
 * An address no symbol covers may be a PLT stub (plt.c) or still have
 * the range of its FDE; source lines and inline frames come from its
 * DWARF (dwarf.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/debuginfod.h"
#include "symbols/dso.h"
#include "util/array.h"
#include "util/htab.h"
#include "util/vdso.h"
#include "symbols/dwarf.h"
#include "symbols/plt.h"
#include "symbols/resolved.h"
#include "symbols/symindex.h"
#include "util/log.h"

struct dw_load {
	uint64_t offset, vaddr, filesz;
};

struct dw_dso {
	struct dw_dso_cache *cache;	/* where to look (symfs, debug dirs) */
	char *path;			/* the path asked for */
	unsigned char key_id[20];	/* the build-id asked for; 0 bytes: by path */
	size_t key_id_size;
	Dwfl *dwfl;			/* NULL: no ELF could be read */
	Dwfl_Module *mod;
	GElf_Addr bias;
	struct dw_load *loads;
	size_t nr_loads;
	unsigned char build_id[64];	/* the ELF's own */
	size_t build_id_size;
	int stale;
	struct dw_plt plt;		/* PLT stubs, read on first need */
	struct dw_fdes fdes;		/* FDE starts, read on first need */
	struct dw_resolved resolved;	/* dw_dso_resolve()'s answers, by address */
	struct dw_symindex symindex;	/* its symbols by address, built on first need */
	/* The file at @path when it was opened there (0: not opened there). */
	dev_t dev;
	ino_t ino;
	/*
	 * Not NULL: @path is another name of that file (the same inode, the
	 * same build-id asked), as /proc/PID/root/PATH is for every process
	 * of one root: this entry holds no ELF of its own.
	 */
	struct dw_dso *same;
	uint32_t idx;			/* in dw_dso_cache.all */
};

/* The files read, and where to look for them. */
struct dw_dso_cache {
	/*
	 * Every file, found by the name asked for (@by_name: path and
	 * build-id) and by the file opened there (@by_inode: dev, inode and
	 * build-id, the copies with an ELF of their own): a machine's
	 * capture names each library once per process root
	 * (/proc/PID/root/PATH), thousands of names.
	 */
	struct dw_dso **all;
	size_t nr_all, cap_all;
	struct dw_htab by_name, by_inode;
	Dwfl_Callbacks callbacks;	/* libdwfl's, with our debuginfo_path */
	char *debuginfo_path;
	char *extra_dirs;		/* --debug-dir, for files by build-id */
	char *symfs;			/* --symfs: the recording machine's root */
	int quiet;
};

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int fd, n;

	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					  debuglink_file, debuglink_crc, debuginfo_file_name);
	if (fd >= 0)
		return fd;
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n > 0) {
		fd = dw_debuginfod_find(DW_DEBUGINFOD_DEBUGINFO, bits, (size_t)n,
					debuginfo_file_name);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

/**
 * dw_dso_cache_new() - an empty cache of files, looking in the default places
 *
 * Context: user space.
 * Return: the cache, or NULL (ENOMEM).
 */
struct dw_dso_cache *dw_dso_cache_new(void)
{
	struct dw_dso_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->callbacks = (Dwfl_Callbacks){
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &c->debuginfo_path,
	};
	return c;
}

/**
 * dw_dso_set_debug_dirs() - extra directories to search for debug files
 * @c:		the cache
 * @dirs:	colon-separated absolute directories, searched after the
 *		defaults (the file's directory, its .debug/, /usr/lib/debug),
 *		each for .build-id/xx/yyyy.debug and debuglink names; NULL
 *		for the defaults only
 *
 * Context: user space; before the first dw_dso_get() on @c.
 * Return: 0 or -ENOMEM.
 */
int dw_dso_set_debug_dirs(struct dw_dso_cache *c, const char *dirs)
{
	char *p = NULL, *x = NULL;

	if (dirs && (asprintf(&p, ":.debug:/usr/lib/debug:%s", dirs) < 0 ||
		     !(x = strdup(dirs)))) {
		free(p);
		return -ENOMEM;
	}
	free(c->debuginfo_path);
	c->debuginfo_path = p;
	free(c->extra_dirs);
	c->extra_dirs = x;
	return 0;
}

/**
 * dw_dso_set_symfs() - read the mapped files under a directory
 * @c:		the cache
 * @dir:	perf's --symfs: a copy of the recording machine's root; a
 *		file /a/b is read as @dir/a/b (else as /a/b); NULL: none
 *
 * Context: user space; before the first dw_dso_get() on @c.
 * Return: 0 or -ENOMEM.
 */
int dw_dso_set_symfs(struct dw_dso_cache *c, const char *dir)
{
	char *p = NULL;

	if (dir && !(p = strdup(dir)))
		return -ENOMEM;
	free(c->symfs);
	c->symfs = p;
	return 0;
}

/**
 * dw_dso_set_quiet() - do not warn about replaced files (dw_warn())
 * @c:		the cache
 * @q:		non-zero: quiet
 *
 * Context: user space.
 */
void dw_dso_set_quiet(struct dw_dso_cache *c, int q)
{
	c->quiet = q;
}

static void hex(char *out, const unsigned char *id, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = '\0';
}

static void close_dwfl(struct dw_dso *d)
{
	/* Its answers' strings are the Dwfl's. */
	dw_resolved_free(&d->resolved);
	dw_symindex_free(&d->symindex);
	dw_plt_free(&d->plt);
	dw_dwarf_fdes_free(&d->fdes);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	d->dwfl = NULL;
	d->mod = NULL;
	free(d->loads);
	d->loads = NULL;
	d->nr_loads = 0;
	d->build_id_size = 0;
}

/* Report @file (fd or -1) as the only module of a new Dwfl. 0 or -1. */
static int open_dwfl(struct dw_dso *d, const char *file, int fd)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	size_t n, i;
	Elf *elf;
	int len;

	d->dwfl = dwfl_begin(&d->cache->callbacks);
	if (!d->dwfl) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	dwfl_report_begin(d->dwfl);
	d->mod = dwfl_report_elf(d->dwfl, d->path, file, fd, 0, true);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!d->mod)
		goto fail;
	elf = dwfl_module_getelf(d->mod, &d->bias);
	if (!elf || elf_getphdrnum(elf, &n))
		goto fail;
	d->loads = calloc(n ? n : 1, sizeof(*d->loads));
	if (!d->loads)
		goto fail;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->loads[d->nr_loads++] = (struct dw_load){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
	len = dwfl_module_build_id(d->mod, &bits, &vaddr);
	if (len > 0 && (size_t)len <= sizeof(d->build_id)) {
		memcpy(d->build_id, bits, (size_t)len);
		d->build_id_size = (size_t)len;
	}
	return 0;
fail:
	close_dwfl(d);
	return -1;
}

static int id_matches(const struct dw_dso *d)
{
	return !d->key_id_size || (d->build_id_size == d->key_id_size &&
				   !memcmp(d->build_id, d->key_id, d->key_id_size));
}

/* Open @file as @d; 0 if it is the recorded file (or none was recorded), else -1. */
static int try_file(struct dw_dso *d, const char *file)
{
	close_dwfl(d);
	if (access(file, R_OK))
		return -1;
	if (open_dwfl(d, file, -1) || !id_matches(d)) {
		close_dwfl(d);
		return -1;
	}
	return 0;
}

/*
 * The recorded build-id under the debug directories (--debug-dir, then
 * /usr/lib/debug): DIR/.build-id/xx/yyyy (an executable, as debuginfod
 * caches and perf's build-id cache keep them) or DIR/.build-id/xx/yyyy.debug
 * (a debug file: its symbols and program headers are the executable's).
 */
static int open_by_build_id(struct dw_dso *d)
{
	char id[41], file[4200];
	const char *dirs[2] = { d->cache->extra_dirs, "/usr/lib/debug" };
	const char *p, *end;
	int i, k;

	if (!d->key_id_size)
		return -1;
	hex(id, d->key_id, d->key_id_size);
	for (i = 0; i < 2; i++) {
		for (p = dirs[i]; p && *p; p = *end ? end + 1 : end) {
			end = strchrnul(p, ':');
			for (k = 0; k < 2 && end > p; k++) {
				snprintf(file, sizeof(file), "%.*s/.build-id/%.2s/%s%s", (int)(end - p),
					 p, id, id + 2, k ? ".debug" : "");
				if (!try_file(d, file))
					return 0;
			}
		}
	}
	return -1;
}

/* Try the executable from debuginfod by the recorded build-id. 0 or -1. */
static int open_from_debuginfod(struct dw_dso *d)
{
	char *path = NULL;
	int fd;

	if (!d->key_id_size)
		return -1;
	fd = dw_debuginfod_find(DW_DEBUGINFOD_EXECUTABLE, d->key_id, d->key_id_size, &path);
	if (fd < 0)
		return -1;
	close_dwfl(d);
	if (open_dwfl(d, path, fd) || !id_matches(d)) {
		close_dwfl(d);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/**
 * dw_dso_path_is_image() - does a mapping's @path name an ELF image?
 * @path:	as MMAP records and /proc/PID/maps give it
 *
 * Context: any.
 * Return: 1 for a file's absolute path (not "//anon") or the vDSO
 * ("[vdso]"), whose symbols dw_dso_get() can read; else 0 ("[heap]").
 */
int dw_dso_path_is_image(const char *path)
{
	return (path[0] == '/' && path[1] != '/') || !strcmp(path, DW_VDSO_NAME);
}

/*
 * The vDSO recorded with @d's build-id: this process's own image (the same
 * kernel's), else one under the debug directories (a kernel's debug
 * package ships it).  Return: 0 or -1.
 */
static int open_vdso(struct dw_dso *d)
{
	const char *own = dw_vdso_file();

	if (own && !try_file(d, own))
		return 0;
	return open_by_build_id(d);
}

/* What dw_dso_get() is asked for: a path, and the build-id recorded, if any. */
struct dso_name {
	const char *path;
	const unsigned char *id;
	size_t id_size;
};

/* What a file opened at a path is: its inode, and the build-id asked for. */
struct dso_inode {
	dev_t dev;
	ino_t ino;
	const unsigned char *id;
	size_t id_size;
};

static uint64_t name_hash(const char *path, const unsigned char *id, size_t id_size)
{
	return dw_hash_bytes(id, id_size, dw_hash_bytes(path, strlen(path), DW_HASH_INIT));
}

static int name_eq(const void *ctx, uint32_t i, const void *key)
{
	const struct dw_dso *d = ((const struct dw_dso_cache *)ctx)->all[i];
	const struct dso_name *k = key;

	return d->key_id_size == k->id_size && !strcmp(d->path, k->path) &&
	       !memcmp(d->key_id, k->id, k->id_size);
}

static uint64_t inode_hash(dev_t dev, ino_t ino, const unsigned char *id, size_t id_size)
{
	uint64_t h = dw_hash_bytes(&dev, sizeof(dev), DW_HASH_INIT);

	return dw_hash_bytes(id, id_size, dw_hash_bytes(&ino, sizeof(ino), h));
}

static int inode_eq(const void *ctx, uint32_t i, const void *key)
{
	const struct dw_dso *d = ((const struct dw_dso_cache *)ctx)->all[i];
	const struct dso_inode *k = key;

	return d->dev == k->dev && d->ino == k->ino && d->key_id_size == k->id_size &&
	       !memcmp(d->key_id, k->id, k->id_size);
}

/* The copy with an ELF of its own opened as inode @ino of @dev for that build-id, or NULL. */
static struct dw_dso *find_by_inode(struct dw_dso_cache *c, dev_t dev, ino_t ino,
				    const unsigned char *build_id, size_t build_id_size)
{
	struct dso_inode inode = { dev, ino, build_id, build_id_size };
	long i = dw_htab_find(&c->by_inode, inode_hash(dev, ino, build_id, build_id_size),
			      inode_eq, c, &inode);

	return i >= 0 ? c->all[i] : NULL;
}

/* A new entry of @c for @path and the build-id asked, nothing read yet; NULL: ENOMEM. */
static struct dw_dso *dso_new(struct dw_dso_cache *c, const char *path,
			      const unsigned char *build_id, size_t build_id_size)
{
	struct dw_dso *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->path = strdup(path);
	if (!d->path) {
		free(d);
		return NULL;
	}
	if (build_id_size)
		memcpy(d->key_id, build_id, build_id_size);
	d->key_id_size = build_id_size;
	d->cache = c;
	if (DW_ARRAY_RESERVE(c->all, c->cap_all, c->nr_all + 1, 64) ||
	    dw_htab_insert(&c->by_name, name_hash(path, build_id, build_id_size),
			   (uint32_t)c->nr_all)) {
		free(d->path);
		free(d);
		return NULL;
	}
	d->idx = (uint32_t)c->nr_all;
	c->all[c->nr_all++] = d;
	return d;
}

/**
 * dw_dso_get() - the cached ELF file @path, as it was recorded
 * @c:		the cache
 * @path:	absolute path of the mapped file, or "[vdso]"
 * @build_id:	the build-id recorded for the mapping, or NULL
 * @build_id_size: its length, 0..20
 *
 * Context: user space; the first call for a file reads it (and maybe
 * asks debuginfod).  A file whose build-id differs from @build_id, with
 * no right copy to be found, is returned stale: dw_dso_stale() says so,
 * dw_dso_resolve() finds nothing in it; a warning names it once.
 * Return: the file, valid until dw_dso_cache_free(@c), or NULL (ENOMEM).
 * A file that cannot be read is returned too (it resolves nothing).
 */
struct dw_dso *dw_dso_get(struct dw_dso_cache *c, const char *path,
			  const unsigned char *build_id, size_t build_id_size)
{
	static const unsigned char no_id[1];
	struct dw_dso *d;
	char want[41], have[129];
	struct stat st = { 0 }, after;
	struct dso_name name;
	long i;

	if (build_id_size > sizeof(d->key_id))
		build_id_size = 0;
	if (!build_id_size)
		build_id = no_id;	/* memcmp() and the hash take no NULL */
	name = (struct dso_name){ path, build_id, build_id_size };
	i = dw_htab_find(&c->by_name, name_hash(path, build_id, build_id_size), name_eq, c,
			 &name);
	if (i >= 0) {
		d = c->all[i];
		return d->same ? d->same : d;
	}
	/* Another name of a file open already: no second copy (nor fd). */
	if (path[0] == '/' && !c->symfs && !stat(path, &st) && S_ISREG(st.st_mode)) {
		d = find_by_inode(c, st.st_dev, st.st_ino, build_id, build_id_size);
		if (d) {
			/* Remembered as a name of @d; out of memory, not remembered. */
			struct dw_dso *alias = dso_new(c, path, build_id, build_id_size);

			if (alias)
				alias->same = d;
			return d;
		}
	}
	d = dso_new(c, path, build_id, build_id_size);
	if (!d)
		return NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return d;
	if (!strcmp(path, DW_VDSO_NAME)) {
		if (open_vdso(d))
			close_dwfl(d);	/* another kernel's: resolves nothing */
		return d;
	}
	if (c->symfs && path[0] == '/') {
		char file[4200];

		snprintf(file, sizeof(file), "%s%s", c->symfs, path);
		if (!try_file(d, file))
			return d;
	}
	if (!open_dwfl(d, path, -1) && id_matches(d)) {
		/* Where it was opened, if nothing replaced it meanwhile. */
		if (!stat(path, &after) && after.st_dev == st.st_dev &&
		    after.st_ino == st.st_ino && S_ISREG(after.st_mode)) {
			d->dev = st.st_dev;
			d->ino = st.st_ino;
			/* Not indexed without memory: another name then opens a copy. */
			dw_htab_insert(&c->by_inode,
				       inode_hash(d->dev, d->ino, d->key_id, d->key_id_size),
				       d->idx);
		}
	} else {
		struct dw_dso here = *d;	/* what is at @path, for the warning */

		d->dwfl = NULL;
		d->mod = NULL;
		d->loads = NULL;
		d->nr_loads = 0;
		d->build_id_size = 0;
		if (!open_by_build_id(d) || (!open_from_debuginfod(d) && d->dwfl)) {
			if (here.dwfl)
				dwfl_end(here.dwfl);
			free(here.loads);
			return d;
		}
		close_dwfl(d);
		*d = here;
		if (d->dwfl) {
			d->stale = 1;
			if (!c->quiet) {
				hex(want, d->key_id, d->key_id_size);
				hex(have, d->build_id, d->build_id_size);
				dw_warn("%s: build-id %s is not the recorded %s (the file changed "
					"since the recording): its frames stay [unknown]; set "
					"DEBUGINFOD_URLS to fetch the recorded one\n",
					path, d->build_id_size ? have : "(none)", want);
			}
			close_dwfl(d);
		}
	}
	return d;
}

/**
 * dw_dso_read_as() - a file read already as inode @ino of device @dev
 * @c:		the cache
 * @dev:	the device of the mapped inode (a MMAP record's)
 * @ino:	its number
 * @build_id:	the build-id recorded for the mapping
 * @build_id_size: its length, 1..20
 *
 * A process that maps a file some earlier process mapped: the kernel's
 * word for which inode it is, and the build-id for its contents, make it
 * the file read then, without looking at its path again.
 *
 * Context: user space; no system call.
 * Return: the file, opened at a path where it was that inode and had that
 * build-id; NULL if none was (or no build-id is given).
 */
struct dw_dso *dw_dso_read_as(struct dw_dso_cache *c, dev_t dev, ino_t ino,
			      const unsigned char *build_id, size_t build_id_size)
{
	struct dw_dso *d;

	if (!build_id_size || build_id_size > sizeof(d->key_id))
		return NULL;
	d = find_by_inode(c, dev, ino, build_id, build_id_size);
	return dw_dso_usable(d) ? d : NULL;
}

/**
 * dw_dso_path() - the name a file was asked for by
 * @d:		file from dw_dso_get() or dw_dso_read_as()
 *
 * Context: user space.
 * Return: the path (valid as long as @d); dw_dso_get() of it with the same
 * build-id gives @d again.
 */
const char *dw_dso_path(const struct dw_dso *d)
{
	return d->path;
}

/**
 * dw_dso_stale() - is the file on disk another one than was recorded?
 * @d:		file from dw_dso_get()
 *
 * Context: user space.
 * Return: 1 if its build-id differs from the recorded one, else 0.
 */
int dw_dso_stale(const struct dw_dso *d)
{
	return d->stale;
}

/**
 * dw_dso_usable() - could the file be read, and is it the recorded one?
 * @d:		file from dw_dso_get()
 *
 * Context: user space.
 * Return: 1 if symbols can be looked up in it, else 0.
 */
int dw_dso_usable(const struct dw_dso *d)
{
	return d && d->dwfl && !d->stale;
}

/**
 * dw_dso_build_id() - the file's own GNU build-id
 * @d:		file from dw_dso_get()
 * @id:		set to the bytes (valid as long as @d)
 *
 * Context: user space.
 * Return: its length, 0 if the file has none or could not be read.
 */
int dw_dso_build_id(const struct dw_dso *d, const unsigned char **id)
{
	*id = d->build_id;
	return (int)d->build_id_size;
}

/**
 * dw_dso_file_to_vaddr() - link-time address of a file offset
 * @d:		file from dw_dso_get()
 * @foff:	offset in the file (mapping offset + address - mapping start)
 * @vaddr:	set to the address in the ELF's own address space
 *
 * Context: user space.
 * Return: 0, or -ENOENT if no PT_LOAD segment holds @foff (or the file
 * could not be read, or is stale).
 */
int dw_dso_file_to_vaddr(const struct dw_dso *d, uint64_t foff, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < d->nr_loads; i++) {
		const struct dw_load *l = &d->loads[i];

		if (foff >= l->offset && foff - l->offset < l->filesz) {
			*vaddr = foff - l->offset + l->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * An AArch64 (or ARM) mapping symbol: "$x", "$d" (and "$a", "$t"), alone
 * or with a ".suffix", which marks where code or data begins, and names
 * nothing.
 */
static int is_mapping_symbol(const char *name)
{
	return name[0] == '$' && name[1] && strchr("xdat", name[1]) &&
	       (!name[2] || name[2] == '.');
}

/**
 * dw_dso_resolve() - symbol, source line and inline frames of an address
 * @d:		file from dw_dso_get()
 * @vaddr:	link-time address (dw_dso_file_to_vaddr()); for a return
 *		address, the caller passes the call instruction's (addr - 1)
 * @flags:	DW_DSO_SRC for source lines and inline frames
 * @res:	filled; @res->name NULL when no symbol covers @vaddr (then
 *		@res->fde and the range of the FDE, if one covers it); the
 *		entry point's routine, without either, is "_start"
 *
 * Context: user space; may read the debug file the first time.
 * Return: 0 if a symbol was found, -ENOENT if not (stale or unreadable
 * files find nothing).
 */
int dw_dso_resolve(struct dw_dso *d, uint64_t vaddr, unsigned int flags, struct dw_symres *res)
{
	Dwarf_Addr addr = vaddr + d->bias;
	GElf_Off off = 0;
	GElf_Sym sym;

	flags &= DW_DSO_SRC;
	memset(res, 0, sizeof(*res));
	if (!d->mod || d->stale)
		return -ENOENT;
	if (dw_resolved_find(&d->resolved, vaddr, flags, res))
		return res->name ? 0 : -ENOENT;
	res->name = dw_symindex_lookup(&d->symindex, d->mod, addr, &off, &sym);
	/* The nearest symbol below may be a mapping symbol: no name. */
	if (res->name && is_mapping_symbol(res->name)) {
		res->name = NULL;
		off = 0;
	}
	res->off = off;
	if (res->name) {
		res->start = vaddr - off;
		res->size = sym.st_size;
	} else {
		dw_plt_resolve(&d->plt, d->mod, vaddr, res);
		if (!res->name)
			dw_dwarf_fde(d->mod, &d->fdes, d->bias, addr, res);
		if (!res->name && !res->fde)
			dw_dwarf_entry(d->mod, &d->fdes, vaddr, res);
	}
	if (flags & DW_DSO_SRC)
		dw_dwarf_src(d->mod, addr, res);
	dw_resolved_add(&d->resolved, vaddr, flags, res);
	return res->name ? 0 : -ENOENT;
}

/**
 * dw_dso_cache_free() - close every file of a cache, and the debuginfod client
 * @c:		cache or NULL
 *
 * Context: user space; every dw_dso and string obtained from @c becomes
 * invalid.  The debuginfod client (one a process) opens again when needed.
 */
void dw_dso_cache_free(struct dw_dso_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_all; i++) {
		close_dwfl(c->all[i]);
		free(c->all[i]->path);
		free(c->all[i]);
	}
	free(c->all);
	dw_htab_free(&c->by_name);
	dw_htab_free(&c->by_inode);
	free(c->debuginfo_path);
	free(c->extra_dirs);
	free(c->symfs);
	free(c);
	dw_debuginfod_close();
}
