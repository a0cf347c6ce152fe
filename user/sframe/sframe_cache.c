// SPDX-License-Identifier: GPL-2.0
/*
 * The on-disk cache of generated SFrame tables (see sframe_cache.h,
 * Documentation/sframe-gen.rst).
 *
 * A cache entry is a fixed header (magic, generator revision, SFrame
 * version, build-id, sec_vaddr, size, FNV-1a checksum) followed by the
 * table.  Entries are read as hostile input: owner, type, size, header,
 * checksum and a full decoder validation must all pass, else the table is
 * regenerated and the entry rewritten.  Entries are written to a temporary
 * file and renamed into place, so readers never see a partial one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sframe.h"
#include "sframe/sframe_cache.h"
#include "sframe/sframe_file.h"

#define CACHE_MAGIC		"DWSFRGEN"
/*
 * Bump when the generator's output changes (2: v3 tables carry %rbx,
 * EXT_RBX; 3: gaps scanned section by section).
 */
#define CACHE_REV		3
#define CACHE_MAX_TABLE		(256ull << 20)	/* the module's limit */

struct cache_hdr {
	char magic[8];
	__u32 hdr_size;
	__u32 rev;
	__u32 version;
	__u32 build_id_size;
	__u8 build_id[20];
	__u32 __pad;
	__u64 sec_vaddr;
	__u64 table_size;
	__u64 checksum;
	__u64 covered_bytes;
	__u64 exec_bytes;
};

static __u64 cache_fnv1a(const __u8 *p, size_t n)
{
	__u64 h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/**
 * dw_sframe_cache_dir() - the cache directory.
 * @o:		options (o->cache_dir wins); may be NULL.
 * @buf, @len:	receives the path.
 *
 * Context: user space; reads XDG_CACHE_HOME and HOME.
 * Return: 0; -ENOENT if neither variable is set (and no @o->cache_dir);
 * -ENAMETOOLONG.
 */
int dw_sframe_cache_dir(const struct dw_sframe_reg_opts *o, char *buf, size_t len)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	int n;

	if (o && o->cache_dir)
		n = snprintf(buf, len, "%s", o->cache_dir);
	else if (x && x[0] == '/')
		n = snprintf(buf, len, "%s/dunwind/sframe", x);
	else if (h && h[0])
		n = snprintf(buf, len, "%s/.cache/dunwind/sframe", h);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/**
 * dw_sframe_cache_path() - the cache entry of a file
 * @o:		options (o->cache_dir wins); may be NULL
 * @re:		the file's identity (its build-id names the entry)
 * @buf, @len:	receives the path
 *
 * Context: user space.
 * Return: 0, or -ENOENT (no cache directory) or -ENAMETOOLONG.
 */
int dw_sframe_cache_path(const struct dw_sframe_reg_opts *o, const struct dw_sframe_elf_id *re,
			 char *buf, size_t len)
{
	size_t n;
	__u32 i;
	int err = dw_sframe_cache_dir(o, buf, len);

	if (err)
		return err;
	n = strlen(buf);
	if (n + 2 + 2 * re->build_id_size > len)
		return -ENAMETOOLONG;
	buf[n++] = '/';
	for (i = 0; i < re->build_id_size; i++)
		n += (size_t)sprintf(buf + n, "%02x", re->build_id[i]);
	return 0;
}

/* Does the decoder accept @t as a whole (what the module will check)? */
static int cache_table_valid(struct dw_sframe_tab *t, unsigned int version)
{
	struct dw_sframe_file f = { .data = t->data, .len = t->size, .vaddr = t->sec_vaddr };
	struct dunwind_sframe_table tab;
	int err;

	err = dw_sframe_file_open(&f, &tab);
	if (!err) {
		tab.ext = dw_sframe_reg_ext(version, tab.abi);
		err = dunwind_sframe_validate(&tab);
	}
	return err ? -EINVAL : 0;
}

static ssize_t cache_write_op(int fd, void *buf, size_t len)
{
	return write(fd, buf, len);
}

/* All of @len bytes through @op (read, or write via cache_write_op); 0 or -errno (-EIO: EOF). */
static int cache_io_all(ssize_t (*op)(int, void *, size_t), int fd, void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = op(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

static int cache_read_all(int fd, void *buf, size_t len)
{
	return cache_io_all(read, fd, buf, len);
}

static int cache_write_all(int fd, const void *buf, size_t len)
{
	return cache_io_all(cache_write_op, fd, (void *)buf, len);
}

/**
 * dw_sframe_cache_load() - a file's table from its cache entry
 * @path:	the entry (dw_sframe_cache_path())
 * @re:		the file's identity: the entry must be for its build-id
 * @version:	the SFrame version wanted
 * @t:		set; free t->data
 *
 * The entry is hostile input: owner, type, size, header, checksum and a
 * full decoder validation must all pass.
 *
 * Context: user space.
 * Return: 0, -ENOENT if there is none, -EBADMSG if unusable, -ENOMEM.
 */
int dw_sframe_cache_load(const char *path, const struct dw_sframe_elf_id *re,
			 unsigned int version, struct dw_sframe_tab *t)
{
	struct cache_hdr h;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENOENT : -EBADMSG;
	err = -EBADMSG;
	/* Only our own regular files: a table decides what stacks say. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (__u64)st.st_size < sizeof(h))
		goto out;
	if (cache_read_all(fd, &h, sizeof(h)))
		goto out;
	if (memcmp(h.magic, CACHE_MAGIC, 8) || h.hdr_size != sizeof(h) ||
	    h.rev != CACHE_REV || h.version != version ||
	    h.build_id_size != re->build_id_size ||
	    memcmp(h.build_id, re->build_id, re->build_id_size) || !h.table_size ||
	    h.table_size > CACHE_MAX_TABLE || (__u64)st.st_size != sizeof(h) + h.table_size)
		goto out;
	t->data = malloc(h.table_size);
	if (!t->data) {
		err = -ENOMEM;
		goto out;
	}
	t->size = h.table_size;
	t->sec_vaddr = h.sec_vaddr;
	t->covered_bytes = h.covered_bytes;
	t->exec_bytes = h.exec_bytes;
	if (cache_read_all(fd, t->data, t->size) || cache_fnv1a(t->data, t->size) != h.checksum ||
	    cache_table_valid(t, version)) {
		free(t->data);
		t->data = NULL;
		goto out;
	}
	err = 0;
out:
	close(fd);
	return err;
}

/* mkdir -p with mode 0700 for the components we create. */
static int cache_mkdirs(const char *dir)
{
	char buf[4096];
	size_t i, n = strlen(dir);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i])
			continue;
		buf[i] = 0;
		if (mkdir(buf, 0700) && errno != EEXIST)
			return -errno;
		buf[i] = i < n ? '/' : 0;
	}
	return 0;
}

/**
 * dw_sframe_cache_store() - write a file's cache entry
 * @o:		options (the cache directory)
 * @path:	the entry (dw_sframe_cache_path())
 * @re:		the file's identity
 * @version:	the table's SFrame version
 * @t:		the table
 *
 * Atomically: a temporary file (named after the calling thread) renamed
 * into place, so that readers never see a partial entry.  Directories it
 * creates are 0700, the entry 0600.
 *
 * Context: user space.
 * Return: 0 or -errno.
 */
int dw_sframe_cache_store(const struct dw_sframe_reg_opts *o, const char *path,
			  const struct dw_sframe_elf_id *re, unsigned int version,
			  const struct dw_sframe_tab *t)
{
	struct cache_hdr h;
	char dir[4096], tmp[4200];
	int fd, err, n;

	err = dw_sframe_cache_dir(o, dir, sizeof(dir));
	if (!err)
		err = cache_mkdirs(dir);
	if (err)
		return err;
	/* Per thread: two threads may store tables of one build-id at once. */
	n = snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)gettid());
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, 8);
	h.hdr_size = sizeof(h);
	h.rev = CACHE_REV;
	h.version = version;
	h.build_id_size = re->build_id_size;
	memcpy(h.build_id, re->build_id, re->build_id_size);
	h.sec_vaddr = t->sec_vaddr;
	h.table_size = t->size;
	h.checksum = cache_fnv1a(t->data, t->size);
	h.covered_bytes = t->covered_bytes;
	h.exec_bytes = t->exec_bytes;
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = cache_write_all(fd, &h, sizeof(h));
	if (!err)
		err = cache_write_all(fd, t->data, t->size);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
