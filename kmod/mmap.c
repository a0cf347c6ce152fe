// SPDX-License-Identifier: GPL-2.0
/*
 * MMAP records: the first time a walk finds a user IP in a mapping, tell
 * the reader what the mapping is (range, file, offset, build-id, path), so
 * that a capture symbolizes without the process, even after it exited.
 *
 * What was reported is remembered per session in a bounded direct-mapped
 * set; a forgotten mapping is simply reported again.  An exec in the
 * target bumps the session's generation, which is part of the key.
 *
 * Context: task_work of the walked thread (may sleep and fault).
 */
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kdev_t.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include "dunwind.h"
#include "record.h"

/**
 * dunwind_mmap_init() - allocate the set of reported mappings
 * @seen:	set
 *
 * Context: ioctl (may sleep).
 * Return: 0, or -ENOMEM.
 */
int dunwind_mmap_init(struct dunwind_mmap_seen *seen)
{
	spin_lock_init(&seen->lock);
	seen->keys = kvcalloc(DUNWIND_MMAP_SEEN, sizeof(*seen->keys), GFP_KERNEL_ACCOUNT);
	return seen->keys ? 0 : -ENOMEM;
}

/**
 * dunwind_mmap_free() - free what dunwind_mmap_init() allocated
 * @seen:	set; no walk may use it
 *
 * Context: process.
 */
void dunwind_mmap_free(struct dunwind_mmap_seen *seen)
{
	kvfree(seen->keys);
	seen->keys = NULL;
}

/**
 * dunwind_vma_key() - the key of a mapping, as it is now
 * @vma:	the mapping, its mm's mmap lock held
 * @key:	result
 *
 * Context: mmap lock held (read).
 */
void dunwind_vma_key(struct vm_area_struct *vma, struct dunwind_vma_key *key)
{
	mmap_assert_locked(vma->vm_mm);
	key->mm = vma->vm_mm;
	key->start = vma->vm_start;
	key->end = vma->vm_end;
	key->pgoff = vma->vm_pgoff;
	key->ino = 0;
	key->dev = 0;
	key->igen = 0;
	if (vma->vm_file) {
		/* As /proc/PID/maps shows it (kmod/compat.h): what tables register. */
		const struct inode *inode = dunwind_vma_file_inode(vma->vm_file);

		key->ino = inode->i_ino;
		key->dev = inode->i_sb->s_dev;
		key->igen = inode->i_generation;
	}
}

/**
 * dunwind_vma_key_holds() - is the mapping of @key still at its address,
 * the same (bounds, file, offset)?
 * @mm:		the address space, its mmap lock held
 * @key:	a key dunwind_vma_key() made earlier
 *
 * Context: mmap lock held (read).
 */
bool dunwind_vma_key_holds(struct mm_struct *mm, const struct dunwind_vma_key *key)
{
	struct vm_area_struct *vma = find_vma(mm, key->start);
	struct dunwind_vma_key now;

	if (!vma)
		return false;
	dunwind_vma_key(vma, &now);
	return dunwind_vma_key_eq(&now, key);
}

static u32 dunwind_mmap_slot(const struct dunwind_mmap_key *k)
{
	return hash_long(k->vma.start ^ (unsigned long)k->vma.mm ^ k->gen, 32) % DUNWIND_MMAP_SEEN;
}

static bool dunwind_mmap_is_seen(struct dunwind_mmap_seen *seen,
				 const struct dunwind_mmap_key *k)
{
	bool hit;

	spin_lock(&seen->lock);
	hit = !memcmp(&seen->keys[dunwind_mmap_slot(k)], k, sizeof(*k));
	spin_unlock(&seen->lock);
	return hit;
}

static void dunwind_mmap_mark(struct dunwind_mmap_seen *seen, const struct dunwind_mmap_key *k)
{
	spin_lock(&seen->lock);
	seen->keys[dunwind_mmap_slot(k)] = *k;
	spin_unlock(&seen->lock);
}

/* The path of @file into @buf (PATH_MAX bytes), moved to its start. */
static u32 dunwind_mmap_path(struct file *file, char *buf, u16 *misc)
{
	const struct path *path = dunwind_vma_file_path(file);
	char *p = d_path(path, buf, PATH_MAX);
	size_t len;

	if (IS_ERR(p)) {
		strscpy(buf, "//unknown", PATH_MAX);
		return strlen(buf);
	}
	len = strlen(p);
	if (len > DUNWIND_MMAP_PATH_MAX - 1) {
		len = DUNWIND_MMAP_PATH_MAX - 1;
		*misc |= DUNWIND_MMAP_PATH_TRUNC;
	}
	memmove(buf, p, len);
	if (d_unlinked(path->dentry))
		*misc |= DUNWIND_MMAP_DELETED;
	return len;
}

/* @key's generation and process: current's, now. */
static void dunwind_mmap_key_current(struct dunwind_session *s, struct dunwind_mmap_key *key)
{
	key->gen = atomic_read(&s->exec_gen);
	key->pid = task_tgid_nr(current);
}

/*
 * Report the mapping that holds @ip unless already reported.
 * Sets [*lo, *hi) to its range.  Return: 0, or -errno (nothing written).
 */
static int dunwind_mmap_one(struct dunwind_session *s, unsigned long ip, char **bufp,
			    unsigned long *lo, unsigned long *hi)
{
	struct mm_struct *mm = current->mm;
	struct dunwind_rec_mmap rec = {};
	struct dunwind_elf_info info;
	struct dunwind_mmap_key key = {};
	struct vm_area_struct *vma;
	struct file *file = NULL;
	const char *name = NULL;
	unsigned long ehdr = 0;
	char *buf;
	u32 len;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = find_vma(mm, ip);
	if (!vma || vma->vm_start > ip) {
		mmap_read_unlock(mm);
		return -ENOENT;
	}
	dunwind_vma_key(vma, &key.vma);
	dunwind_mmap_key_current(s, &key);
	*lo = vma->vm_start;
	*hi = vma->vm_end;
	if (dunwind_mmap_is_seen(&s->mmap_seen, &key)) {
		mmap_read_unlock(mm);
		return 0;
	}
	rec.start = vma->vm_start;
	rec.end = vma->vm_end;
	rec.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
	rec.prot = (vma->vm_flags & VM_READ ? PROT_READ : 0) |
		   (vma->vm_flags & VM_WRITE ? PROT_WRITE : 0) |
		   (vma->vm_flags & VM_EXEC ? PROT_EXEC : 0);
	if (vma->vm_file) {
		const struct inode *inode = dunwind_vma_file_inode(vma->vm_file);

		file = get_file(vma->vm_file);
		rec.ino = inode->i_ino;
		rec.dev_major = MAJOR(inode->i_sb->s_dev);
		rec.dev_minor = MINOR(inode->i_sb->s_dev);
		ehdr = dunwind_elf_mapped_header(mm, vma);
	} else if (dunwind_elf_vdso(mm) == vma->vm_start) {
		name = "[vdso]";
		ehdr = vma->vm_start;
	} else {
		name = "//anon";
	}
	mmap_read_unlock(mm);

	/* Only a mapping to report needs the path buffer: one per walk at most. */
	if (!*bufp)
		*bufp = kmalloc(PATH_MAX + 8, GFP_KERNEL);
	buf = *bufp;
	if (!buf) {
		if (file)
			fput(file);
		return -ENOMEM;
	}

	/* Faultable from here: the build-id is read from the mapped image. */
	if (ehdr && !dunwind_elf_parse_user(ehdr, &info) && info.build_id_size) {
		memcpy(rec.build_id, info.build_id, info.build_id_size);
		rec.build_id_size = info.build_id_size;
	}
	if (file) {
		len = dunwind_mmap_path(file, buf, &rec.hdr.misc);
		fput(file);
	} else {
		len = strscpy(buf, name, PATH_MAX);
	}
	memset(buf + len, 0, dunwind_rec_mmap_size(len) - sizeof(rec) - len);
	rec.hdr.type = DUNWIND_REC_MMAP;
	rec.hdr.size = dunwind_rec_mmap_size(len);
	rec.time = ktime_get_mono_fast_ns();
	rec.pid = task_tgid_nr(current);
	if (dunwind_ring_write(&s->ring, &rec, sizeof(rec), buf, rec.hdr.size - sizeof(rec)))
		return -ENOSPC;		/* counted as lost; reported again next time */
	dunwind_mmap_mark(&s->mmap_seen, &key);
	return 0;
}

/* @key's generation and process as one non-zero tag (pids are positive). */
static u64 dunwind_mmap_tag(const struct dunwind_mmap_key *key)
{
	return (u64)(u32)key->gen << 32 | (u32)key->pid;
}

/*
 * Was the mapping the walk's memo has for @ip reported?  Sets [*lo, *hi)
 * to its range if so: no mmap lock for the mappings a walk looked up.
 * The session's SFrame cache remembers what the set of reported mappings
 * answered, so that later walks, whose memo copies its entries, need not
 * ask the set again.
 * @key: the walk's generation and process, its mapping filled in here.
 */
static bool dunwind_mmap_memo_seen(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
				   unsigned long ip, struct dunwind_mmap_key *key,
				   unsigned long *lo, unsigned long *hi)
{
	struct dunwind_sframe_map *m = dunwind_sframe_memo_find(memo, ip);

	if (!m)
		return false;
	if (m->reported != dunwind_mmap_tag(key)) {
		key->vma = m->key;
		if (!dunwind_mmap_is_seen(&s->mmap_seen, key))
			return false;
		dunwind_sframe_reported(s, m, dunwind_mmap_tag(key));
		/* And in the memo, which the slot may keep for its next walk. */
		m->reported = dunwind_mmap_tag(key);
	}
	*lo = m->key.start;
	*hi = m->key.end;
	return true;
}

/**
 * dunwind_mmap_report_tag() - the tag current's mappings are reported under now
 * @s:		session
 *
 * Context: any, current's.
 * Return: non-zero; a walk whose mappings dunwind_mmap_report() gave this
 * tag need not be reported again while it holds (no exec in the session).
 */
u64 dunwind_mmap_report_tag(struct dunwind_session *s)
{
	struct dunwind_mmap_key key = {};

	dunwind_mmap_key_current(s, &key);
	return dunwind_mmap_tag(&key);
}

/**
 * dunwind_mmap_report() - MMAP records for the mappings of @ips not yet reported
 * @s:		session
 * @memo:	the mappings the walk of @ips looked up
 * @ips:	user IPs of one walk
 * @nr:		how many
 *
 * The last two mappings it met are where @memo's next walk starts: they
 * hold while the memo does (the address space unchanged since,
 * dunwind_sframe_memo_init() otherwise) and the tag is the same.
 *
 * Context: task_work (may sleep and fault), current's address space.
 * Return: dunwind_mmap_report_tag() if the mapping of every IP has been
 * reported, 0 if one could not be (no mapping there, a record lost): a
 * later walk of the same IPs tries again.
 */
u64 dunwind_mmap_report(struct dunwind_session *s, struct dunwind_sframe_memo *memo,
			const u64 *ips, unsigned int nr)
{
	unsigned long lo[4] = {}, hi[4] = {}, cur_lo = 0, cur_len = 0, prev_lo = 0, prev_len = 0;
	struct dunwind_mmap_key key = {};
	unsigned int i, j, next = 0;
	char *buf = NULL;
	bool all = true;

	might_fault();
	dunwind_mmap_key_current(s, &key);
	if (memo->reported_tag == dunwind_mmap_tag(&key)) {
		cur_lo = memo->reported_lo[0];
		cur_len = memo->reported_len[0];
		prev_lo = memo->reported_lo[1];
		prev_len = memo->reported_len[1];
	}
	for (i = 0; i < nr; i++) {
		unsigned long l, h;

		/*
		 * Most IPs lie in the same mapping as the IP before, and most
		 * others in the one before that (a program's callbacks from
		 * its library: qsort's, at 5 of 16 frames).
		 */
		if (ips[i] - cur_lo < cur_len)
			continue;
		if (ips[i] - prev_lo < prev_len) {
			swap(cur_lo, prev_lo);
			swap(cur_len, prev_len);
			continue;
		}
		prev_lo = cur_lo;
		prev_len = cur_len;
		/*
		 * The others mostly in one the walk met, reported already;
		 * else in one of the last few looked up under the mmap lock.
		 */
		if (!dunwind_mmap_memo_seen(s, memo, ips[i], &key, &l, &h)) {
			for (j = 0; j < ARRAY_SIZE(lo); j++)
				if (ips[i] - lo[j] < hi[j] - lo[j])
					break;
			if (j == ARRAY_SIZE(lo)) {
				j = next++ % ARRAY_SIZE(lo);
				if (dunwind_mmap_one(s, ips[i], &buf, &lo[j], &hi[j])) {
					lo[j] = hi[j] = 0;
					all = false;
				}
			}
			l = lo[j];
			h = hi[j];
		}
		cur_lo = l;
		cur_len = h - l;
	}
	kfree(buf);
	if (!all)
		return 0;
	memo->reported_lo[0] = cur_lo;
	memo->reported_len[0] = cur_len;
	memo->reported_lo[1] = prev_lo;
	memo->reported_len[1] = prev_len;
	memo->reported_tag = dunwind_mmap_tag(&key);
	return memo->reported_tag;
}
