// SPDX-License-Identifier: GPL-2.0
/*
 * DUNWIND_IOC_INTERP_REGISTER: an interpreter's descriptor for one ELF
 * file (Documentation/abi.rst, "Interpreter frames").  The session keeps
 * at most DUNWIND_INTERP_MAX_FILES registrations in a fixed array that
 * walks read without a lock: a slot is filled before the count that
 * covers it is released, and nothing is freed before the session's last
 * reference, which every walk holds.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "interp.h"

/* The fields of @r that need no file: 0 or -EINVAL. */
static int dunwind_interp_check_reg(const struct dunwind_interp_reg *r)
{
	u32 i;

	if (r->flags || r->__reserved0 || r->__reserved[0] || r->__reserved[1])
		return -EINVAL;
	if (!r->build_id_size || r->build_id_size > sizeof(r->build_id))
		return -EINVAL;
	if (!r->nr_ranges || r->nr_ranges > DUNWIND_INTERP_MAX_RANGES)
		return -EINVAL;
	for (i = 0; i < DUNWIND_INTERP_MAX_RANGES; i++) {
		const u64 *rg = r->ranges[i];

		if (i < r->nr_ranges ? rg[0] >= rg[1] : rg[0] || rg[1])
			return -EINVAL;
	}
	if (r->desc_size < DUNWIND_INTERP_DESC_SIZE_VER0)
		return -EINVAL;
	return 0;
}

/*
 * Copy and validate @r's descriptor into @e->desc.  A larger one than we
 * know must have a zero tail (E2BIG).  Context: ioctl (may fault).
 */
static int dunwind_interp_copy_desc(struct dunwind_interp *e, const struct dunwind_interp_reg *r)
{
	int ret;

	if (r->desc_size > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(&e->desc, sizeof(e->desc), u64_to_user_ptr(r->desc),
				    r->desc_size);
	if (ret)
		return ret;
	return dunwind_interp_validate(&e->desc) ? -EINVAL : 0;
}

/*
 * Key @e by @r->fd's file (device, inode, as mappings are keyed:
 * dunwind_vma_key()) once it is an ELF file of this architecture with
 * @r's build-id.  Context: ioctl (may sleep: reads the file).
 */
static int dunwind_interp_check_file(struct dunwind_interp *e, const struct dunwind_interp_reg *r)
{
	struct dunwind_elf_info info;
	const struct inode *inode;
	struct file *file;
	int ret;

	file = fget(r->fd);
	if (!file)
		return -EBADF;
	inode = dunwind_reg_file_inode(file);
	ret = S_ISREG(inode->i_mode) ? dunwind_elf_parse_file(file, &info) : -ENOEXEC;
	if (!ret && (info.build_id_size != r->build_id_size ||
		     memcmp(info.build_id, r->build_id, r->build_id_size)))
		ret = -ESTALE;
	e->dev = inode->i_sb->s_dev;
	e->ino = inode->i_ino;
	fput(file);
	return ret;
}

/* Publish @e in @s: 0, -EINVAL (not configured), -EEXIST or -ENOSPC. */
static int dunwind_interp_publish(struct dunwind_session *s, struct dunwind_interp *e)
{
	unsigned int i, nr;
	int ret = 0;

	mutex_lock(&s->lock);
	nr = s->nr_interp;
	if (!s->configured) {
		ret = -EINVAL;
		goto out_unlock;
	}
	for (i = 0; i < nr; i++)
		if (s->interp[i]->dev == e->dev && s->interp[i]->ino == e->ino)
			ret = -EEXIST;
	if (!ret && nr == DUNWIND_INTERP_MAX_FILES)
		ret = -ENOSPC;
	if (ret)
		goto out_unlock;
	s->interp[nr] = e;
	/* The slot before the count: pairs with smp_load_acquire() in dunwind_interp_find(). */
	smp_store_release(&s->nr_interp, nr + 1);
out_unlock:
	mutex_unlock(&s->lock);
	return ret;
}

/**
 * dunwind_interp_register() - DUNWIND_IOC_INTERP_REGISTER
 * @s:		session
 * @arg:	struct dunwind_interp_reg in user memory
 *
 * Context: ioctl (may sleep, may fault).
 * Return: 0, or -errno as documented in uapi/linux/dunwind.h; on error
 * nothing changed.
 */
int dunwind_interp_register(struct dunwind_session *s, const void __user *arg)
{
	struct dunwind_interp_reg r;
	struct dunwind_interp *e;
	u32 i;
	int ret;

	ret = dunwind_copy_arg(&r, sizeof(r), DUNWIND_INTERP_REG_SIZE_VER0, arg);
	if (!ret)
		ret = dunwind_interp_check_reg(&r);
	if (ret)
		return ret;
	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return -ENOMEM;
	ret = dunwind_interp_copy_desc(e, &r);
	if (!ret)
		ret = dunwind_interp_check_file(e, &r);
	if (ret)
		goto out_free;
	e->nr_ranges = r.nr_ranges;
	for (i = 0; i < r.nr_ranges; i++) {
		e->ranges[i][0] = r.ranges[i][0];
		e->ranges[i][1] = r.ranges[i][1];
	}
	e->text_vaddr = r.text_vaddr;
	e->text_offset = r.text_offset;
	ret = dunwind_interp_publish(s, e);
	if (!ret)
		return 0;
out_free:
	kfree(e);
	return ret;
}

/**
 * dunwind_interp_find() - the registration for a file, if any
 * @s:		session
 * @dev:	the file's device (as dunwind_vma_key() gives it)
 * @ino:	its inode number
 *
 * Context: any; a walk of @s (which holds a reference to it).
 * Return: the registration, valid until the session is freed, or NULL.
 */
const struct dunwind_interp *dunwind_interp_find(const struct dunwind_session *s, dev_t dev,
						 unsigned long ino)
{
	/* Pairs with smp_store_release() in dunwind_interp_publish(). */
	unsigned int i, nr = smp_load_acquire(&s->nr_interp);

	for (i = 0; i < nr; i++)
		if (s->interp[i]->dev == dev && s->interp[i]->ino == ino)
			return s->interp[i];
	return NULL;
}

/**
 * dunwind_interp_free() - free every registration of a session
 * @s:	session at its last put: no walk runs, no ioctl comes
 *
 * Context: process.
 */
void dunwind_interp_free(struct dunwind_session *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_interp; i++)
		kfree(s->interp[i]);
	s->nr_interp = 0;
}
