// SPDX-License-Identifier: GPL-2.0
/*
 * Registered SFrame tables: tables that user space generated for files
 * without .sframe (from their .eh_frame), handed to the module once and
 * shared by every process that maps the file.
 *
 * One entry per (device, inode), holding a validated kernel copy of the
 * table; the vDSO's (DUNWIND_REG_VDSO), which has no file, under (0, 0).
 * Each registering session owns a reference; DUNWIND_REG_PIN adds one
 * that lasts until module unload.  Memory is counted against
 * sframe_cap_mb.  Walks find entries under RCU and never sleep while
 * using them: the table is kernel memory.
 */
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "dunwind.h"

static unsigned int sframe_cap_mb = 64;
module_param(sframe_cap_mb, uint, 0644);
MODULE_PARM_DESC(sframe_cap_mb, "Memory for registered SFrame tables, MiB (default 64)");

struct dunwind_reg {
	struct hlist_node node;		/* in dunwind_reg_hash, RCU */
	dev_t dev;
	unsigned long ino;
	u64 serial;			/* unique per entry, never reused */
	u8 build_id[DUNWIND_BUILD_ID_MAX];
	u32 build_id_size;
	void *data;			/* the table, kvmalloc'ed */
	u64 size;
	struct dunwind_sframe_table table;	/* opened over @data */
	unsigned int owners;		/* sessions + pin; Guarded by dunwind_reg_lock */
	bool pinned;			/* Guarded by dunwind_reg_lock */
	struct rcu_head rcu;
};

/* What one table costs, counted against sframe_cap_mb. */
static u64 dunwind_reg_cost(u64 table_size)
{
	return table_size + sizeof(struct dunwind_reg);
}

/*
 * Registrations copying and validating a table at once: each may hold up
 * to DUNWIND_ELF_MAX_SFRAME bytes before the cap sees it as registered.
 */
#define DUNWIND_REG_CONCURRENT	2
static struct semaphore dunwind_reg_sem =
	__SEMAPHORE_INITIALIZER(dunwind_reg_sem, DUNWIND_REG_CONCURRENT);

/* Guards dunwind_reg_hash's writers, every entry's owners and pin, and the byte count. */
static DEFINE_MUTEX(dunwind_reg_lock);
static DEFINE_HASHTABLE(dunwind_reg_hash, 8);
/*
 * Guarded by dunwind_reg_lock: the bytes of the tables held (their
 * entries cost dunwind_reg_count more), and the costs of those being
 * registered, all counted against sframe_cap_mb.
 */
static u64 dunwind_reg_bytes;
static u64 dunwind_reg_reserved;
static u64 dunwind_reg_count;
static atomic64_t dunwind_reg_serial = ATOMIC64_INIT(0);
/*
 * Bumped after a table is in dunwind_reg_hash, never before: a walk that
 * read a value and then missed the table in the hash is sure to see a
 * newer value later.  The release here pairs with the acquire in
 * dunwind_registry_gen().
 */
static atomic64_t dunwind_reg_gen = ATOMIC64_INIT(0);

/**
 * dunwind_registry_gen() - changes whenever a table has been added
 *
 * Walks cache "no table for this mapping" with the value read *before*
 * their dunwind_registry_lookup(); a registration the lookup missed
 * changes the value after its table is findable, so the verdict is
 * rebuilt at its next use.
 * Context: any.
 * Return: the registry's generation.
 */
u64 dunwind_registry_gen(void)
{
	/* Pairs with atomic64_inc_return_release() in dunwind_registry_register(). */
	return atomic64_read_acquire(&dunwind_reg_gen);
}

static u32 dunwind_reg_hash_key(dev_t dev, unsigned long ino)
{
	return hash_long(ino ^ ((unsigned long)dev << 20), 32);
}

static int dunwind_reg_kread(void *ctx, __u64 off, void *dst, __u32 len)
{
	const struct dunwind_reg *e = ctx;

	if (off > e->size || len > e->size - off)
		return -DUNWIND_SFRAME_EFAULT;
	memcpy(dst, (const u8 *)e->data + off, len);
	return 0;
}

/* dunwind_reg_kread() while validating at registration: preemptible, killable. */
static int dunwind_reg_kread_validate(void *ctx, __u64 off, void *dst, __u32 len)
{
	if (fatal_signal_pending(current))
		return -EINTR;
	cond_resched();
	return dunwind_reg_kread(ctx, off, dst, len);
}

static struct dunwind_reg *dunwind_reg_find_locked(dev_t dev, unsigned long ino)
{
	struct dunwind_reg *e;

	lockdep_assert_held(&dunwind_reg_lock);
	hash_for_each_possible(dunwind_reg_hash, e, node, dunwind_reg_hash_key(dev, ino))
		if (e->dev == dev && e->ino == ino)
			return e;
	return NULL;
}

static void dunwind_reg_free(struct dunwind_reg *e)
{
	kvfree(e->data);
	kfree(e);
}

static void dunwind_reg_free_rcu(struct rcu_head *rcu)
{
	dunwind_reg_free(container_of(rcu, struct dunwind_reg, rcu));
}

/*
 * Drop one owner; the last one unhashes the entry and frees it after a
 * grace period (walks use entries under rcu_read_lock() only), without
 * waiting for it: dunwind_registry_exit() waits for all at once.
 */
static void dunwind_reg_put_locked(struct dunwind_reg *e)
{
	lockdep_assert_held(&dunwind_reg_lock);
	if (--e->owners)
		return;
	hash_del_rcu(&e->node);
	dunwind_reg_bytes -= e->size;
	dunwind_reg_count--;
	call_rcu(&e->rcu, dunwind_reg_free_rcu);
}

/* Reserve the cost of a table of @size under the cap before allocating it. */
static int dunwind_reg_reserve(u64 size)
{
	int ret = 0;

	mutex_lock(&dunwind_reg_lock);
	if (dunwind_reg_bytes + dunwind_reg_count * sizeof(struct dunwind_reg) +
	    dunwind_reg_reserved + dunwind_reg_cost(size) >
	    (u64)READ_ONCE(sframe_cap_mb) << 20)
		ret = -ENOSPC;
	else
		dunwind_reg_reserved += dunwind_reg_cost(size);
	mutex_unlock(&dunwind_reg_lock);
	return ret;
}

/* Copy, open and validate the table; the new entry has no owner yet. */
static struct dunwind_reg *dunwind_reg_new(const struct dunwind_sframe_reg *r)
{
	struct dunwind_sframe_src src = { .read = dunwind_reg_kread };
	struct dunwind_reg *e;
	int ret = -ENOMEM;

	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return ERR_PTR(-ENOMEM);
	e->size = r->table_size;
	e->data = kvmalloc(e->size, GFP_KERNEL_ACCOUNT);
	if (!e->data)
		goto out_free;
	ret = -EFAULT;
	if (copy_from_user(e->data, u64_to_user_ptr(r->table), e->size))
		goto out_free;
	src.ctx = e;
	src.size = e->size;
	src.read = dunwind_reg_kread_validate;
	ret = dunwind_sframe_open(&e->table, &src, r->sec_vaddr);
	if (!ret && !(e->table.flags & DUNWIND_SFRAME_F_FDE_SORTED))
		ret = -DUNWIND_SFRAME_EINVAL;	/* would be scanned linearly */
	/* The %rbx extension says something only in an AMD64 v3 table's flex FREs. */
	if (!ret && (r->flags & DUNWIND_REG_RBX)) {
		if (e->table.version != DUNWIND_SFRAME_V3 ||
		    e->table.abi != DUNWIND_SFRAME_ABI_AMD64_LE)
			ret = -DUNWIND_SFRAME_EINVAL;
		e->table.ext = DUNWIND_SFRAME_EXT_RBX;
	}
	if (!ret)
		ret = dunwind_sframe_validate(&e->table);
	if (ret) {
		ret = ret == -EINTR ? ret : -EINVAL;
		goto out_free;
	}
	/* Walks read it under rcu_read_lock(): no sleeping there. */
	e->table.src.read = dunwind_reg_kread;
	memcpy(e->build_id, r->build_id, r->build_id_size);
	e->build_id_size = r->build_id_size;
	e->serial = atomic64_inc_return(&dunwind_reg_serial);
	return e;

out_free:
	dunwind_reg_free(e);
	return ERR_PTR(ret);
}

/* Note that @s owns a reference on the table of (@dev, @ino). */
static int dunwind_reg_session_add(struct dunwind_session *s, dev_t dev, unsigned long ino)
{
	unsigned int i;

	lockdep_assert_held(&dunwind_reg_lock);
	for (i = 0; i < s->nr_regs; i++)
		if (s->regs[i].dev == dev && s->regs[i].ino == ino)
			return -EEXIST;
	if (s->nr_regs == s->cap_regs) {
		unsigned int cap = max(8u, s->cap_regs * 2);
		void *p = krealloc_array(s->regs, cap, sizeof(*s->regs), GFP_KERNEL_ACCOUNT);

		if (!p)
			return -ENOMEM;
		s->regs = p;
		s->cap_regs = cap;
	}
	s->regs[s->nr_regs].dev = dev;
	s->regs[s->nr_regs].ino = ino;
	s->nr_regs++;
	return 0;
}

/* Give back a reservation dunwind_reg_reserve() made. Context: may sleep. */
static void dunwind_reg_unreserve(u64 size)
{
	mutex_lock(&dunwind_reg_lock);
	dunwind_reg_reserved -= dunwind_reg_cost(size);
	mutex_unlock(&dunwind_reg_lock);
}

/*
 * Copy the ioctl's argument into @r and check it: size first, reserved
 * fields zero, known flags, sizes in range.  Context: ioctl (may fault).
 * Return: 0, -EFAULT, -EINVAL, -E2BIG.
 */
static int dunwind_reg_copy_arg(struct dunwind_sframe_reg *r, const void __user *arg)
{
	int ret;

	ret = dunwind_copy_arg(r, sizeof(*r), DUNWIND_SFRAME_REG_SIZE_VER0, arg);
	if (ret)
		return ret;
	if ((r->flags & ~(DUNWIND_REG_PIN | DUNWIND_REG_RBX | DUNWIND_REG_VDSO)) || r->__reserved0 ||
	    ((r->flags & DUNWIND_REG_VDSO) && r->fd != -1) ||
	    memchr_inv(r->__reserved, 0, sizeof(r->__reserved)) ||
	    !r->build_id_size || r->build_id_size > DUNWIND_BUILD_ID_MAX ||
	    !r->table_size || r->table_size > DUNWIND_ELF_MAX_SFRAME)
		return -EINVAL;
	return 0;
}

/*
 * Is @file (whose inode is @inode) a regular ELF file with the build-id
 * @r names?  Context: may sleep (reads the file).
 * Return: 0, -ENOEXEC (not a regular file or not ELF), -ESTALE (another
 * build-id), or dunwind_elf_parse_file()'s error.
 */
static int dunwind_reg_check_file(struct file *file, const struct inode *inode,
				  const struct dunwind_sframe_reg *r)
{
	struct dunwind_elf_info info;
	int ret;

	if (!S_ISREG(inode->i_mode))
		return -ENOEXEC;
	ret = dunwind_elf_parse_file(file, &info);
	if (ret)
		return ret;
	if (info.build_id_size != r->build_id_size ||
	    memcmp(info.build_id, r->build_id, r->build_id_size))
		return -ESTALE;
	return 0;
}

/*
 * Is @r's build-id that of the vDSO current maps, the image every process
 * of this kernel maps?  Context: ioctl (may fault: reads current's image).
 * Return: 0, -ENOEXEC (no vDSO, or not ELF), -ESTALE (another build-id).
 */
static int dunwind_reg_check_vdso(const struct dunwind_sframe_reg *r)
{
	unsigned long ehdr = dunwind_elf_vdso(current->mm);
	struct dunwind_elf_info info;
	int ret;

	if (!ehdr)
		return -ENOEXEC;
	ret = dunwind_elf_parse_user(ehdr, &info);
	if (ret)
		return ret == -EINTR ? ret : -ENOEXEC;
	if (info.build_id_size != r->build_id_size ||
	    memcmp(info.build_id, r->build_id, r->build_id_size))
		return -ESTALE;
	return 0;
}

/*
 * Hash @e under (e->dev, e->ino), or take the equal table already there
 * (and free @e), and give @s a reference on it; @pin gives the registry
 * one too.  Takes over the reservation of @e's cost.
 * Context: may sleep (dunwind_reg_lock).
 * Return: 0; -EEXIST (@s registered this file already), -EBUSY (another
 * table of the same file is there: the file changed), -ENOMEM; then @e
 * is freed.
 */
static int dunwind_reg_insert(struct dunwind_session *s, struct dunwind_reg *e, bool pin)
{
	struct dunwind_reg *old;
	int ret;

	mutex_lock(&dunwind_reg_lock);
	dunwind_reg_reserved -= dunwind_reg_cost(e->size);
	ret = dunwind_reg_session_add(s, e->dev, e->ino);
	if (ret)
		goto out_unlock_free;
	old = dunwind_reg_find_locked(e->dev, e->ino);
	if (old && (old->build_id_size != e->build_id_size ||
		    memcmp(old->build_id, e->build_id, e->build_id_size))) {
		/* The file changed under the old table: the old one goes stale. */
		ret = -EBUSY;
		goto out_forget;
	}
	if (old) {
		dunwind_reg_free(e);
		e = old;
	} else {
		/* Reserved above: the cap holds. */
		hash_add_rcu(dunwind_reg_hash, &e->node, dunwind_reg_hash_key(e->dev, e->ino));
		dunwind_reg_bytes += e->size;
		dunwind_reg_count++;
		/* After the table is findable: pairs with dunwind_registry_gen(). */
		atomic64_inc_return_release(&dunwind_reg_gen);
	}
	e->owners++;
	if (pin && !e->pinned) {
		e->pinned = true;
		e->owners++;
	}
	mutex_unlock(&dunwind_reg_lock);
	return 0;

out_forget:
	s->nr_regs--;
out_unlock_free:
	mutex_unlock(&dunwind_reg_lock);
	dunwind_reg_free(e);
	return ret;
}

/*
 * The body of dunwind_registry_register() once the table's file (or the
 * vDSO) was checked: copy and validate the table within the cap, hash it
 * under (@dev, @ino).
 * Context: ioctl (may sleep, may fault).  Return: as the ioctl's.
 */
static int dunwind_reg_register_table(struct dunwind_session *s, dev_t dev, unsigned long ino,
				      const struct dunwind_sframe_reg *r)
{
	struct dunwind_reg *e;
	int ret;

	/* The cap is checked before anything is allocated or copied. */
	ret = dunwind_reg_reserve(r->table_size);
	if (ret)
		return ret;
	ret = down_killable(&dunwind_reg_sem);
	if (ret)
		goto out_unreserve;
	/* Validate outside the lock: it reads the whole table. */
	e = dunwind_reg_new(r);
	up(&dunwind_reg_sem);
	if (IS_ERR(e)) {
		ret = PTR_ERR(e);
		goto out_unreserve;
	}
	e->dev = dev;
	e->ino = ino;
	return dunwind_reg_insert(s, e, r->flags & DUNWIND_REG_PIN);

out_unreserve:
	dunwind_reg_unreserve(r->table_size);
	return ret;
}

/**
 * dunwind_registry_register() - DUNWIND_IOC_SFRAME_REGISTER
 * @s:		the registering session (owns a reference until it closes)
 * @arg:	struct dunwind_sframe_reg in user memory
 *
 * Context: ioctl (may sleep, may fault).
 * Return: 0, or -errno as documented in uapi/linux/dunwind.h; on error
 * nothing changed.
 */
int dunwind_registry_register(struct dunwind_session *s, const void __user *arg)
{
	struct dunwind_sframe_reg r;
	const struct inode *inode;
	struct file *file;
	int ret;

	if (!perfmon_capable())
		return -EPERM;
	ret = dunwind_reg_copy_arg(&r, arg);
	if (ret)
		return ret;
	/* No file: keyed as the vDSO's mappings are (dunwind_vma_key()), (0, 0). */
	if (r.flags & DUNWIND_REG_VDSO) {
		ret = dunwind_reg_check_vdso(&r);
		return ret ? ret : dunwind_reg_register_table(s, 0, 0, &r);
	}
	file = fget(r.fd);
	if (!file)
		return -EBADF;
	/* Keyed as mappings are (dunwind_vma_key()): by the inode user space sees. */
	inode = dunwind_reg_file_inode(file);
	ret = dunwind_reg_check_file(file, inode, &r);
	if (!ret)
		ret = dunwind_reg_register_table(s, inode->i_sb->s_dev, inode->i_ino, &r);
	/* Whatever came of it, walks waiting for this file may go on. */
	dunwind_barrier_answer(&s->barrier, inode->i_sb->s_dev, inode->i_ino);
	fput(file);
	return ret;
}


/**
 * dunwind_registry_session_close() - drop every table reference of a session
 * @s:	the closing session
 *
 * Context: release (may sleep).
 */
void dunwind_registry_session_close(struct dunwind_session *s)
{
	struct dunwind_reg *e;
	unsigned int i;

	mutex_lock(&dunwind_reg_lock);
	for (i = 0; i < s->nr_regs; i++) {
		e = dunwind_reg_find_locked(s->regs[i].dev, s->regs[i].ino);
		if (!WARN_ON_ONCE(!e))
			dunwind_reg_put_locked(e);
	}
	kfree(s->regs);
	s->regs = NULL;
	s->nr_regs = 0;
	s->cap_regs = 0;
	mutex_unlock(&dunwind_reg_lock);
}

/**
 * dunwind_registry_lookup() - the serial of the table for a file, if any
 * @dev:	device of the mapped file
 * @ino:	inode of the mapped file
 * @build_id:	the mapped image's build-id, or NULL if it has none in memory
 * @build_id_size: its size
 *
 * A table applies only to the file whose build-id it was registered with:
 * an image without one (another file that reuses the inode, say) gets none.
 *
 * Context: any but NMI.
 * Return: a non-zero serial for dunwind_registry_find(), or 0.
 */
u64 dunwind_registry_lookup(dev_t dev, unsigned long ino, const u8 *build_id,
			    u32 build_id_size)
{
	struct dunwind_reg *e;
	u64 serial = 0;

	rcu_read_lock();
	hash_for_each_possible_rcu(dunwind_reg_hash, e, node, dunwind_reg_hash_key(dev, ino)) {
		if (e->dev != dev || e->ino != ino)
			continue;
		if (build_id && e->build_id_size == build_id_size &&
		    !memcmp(e->build_id, build_id, build_id_size))
			serial = e->serial;
		break;
	}
	rcu_read_unlock();
	return serial;
}

/**
 * dunwind_registry_find() - SFrame row for @vaddr in the table @serial
 * @dev:	device of the mapped file
 * @ino:	inode of the mapped file
 * @serial:	from dunwind_registry_lookup()
 * @vaddr:	the PC as an ELF virtual address of that file
 * @row:	result
 *
 * Context: any but NMI; does not sleep.
 * Return: 0, -ESTALE (no such table any more), -ENOENT (no row for @vaddr),
 * or the decoder's error.
 */
int dunwind_registry_find(dev_t dev, unsigned long ino, u64 serial, u64 vaddr,
			  struct dunwind_sframe_row *row)
{
	struct dunwind_reg *e;
	int ret = -ESTALE;

	rcu_read_lock();
	hash_for_each_possible_rcu(dunwind_reg_hash, e, node, dunwind_reg_hash_key(dev, ino)) {
		if (e->serial == serial) {
			ret = dunwind_sframe_find(&e->table, vaddr, row);
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}

/**
 * dunwind_registry_stats() - tables registered and the bytes they hold
 * @tables:	result
 * @bytes:	result
 *
 * Context: process.
 */
void dunwind_registry_stats(u64 *tables, u64 *bytes)
{
	mutex_lock(&dunwind_reg_lock);
	*tables = dunwind_reg_count;
	*bytes = dunwind_reg_bytes;
	mutex_unlock(&dunwind_reg_lock);
}

/**
 * dunwind_registry_exit() - free every table left (the pinned ones)
 *
 * Context: module exit: no session exists, no walk can run.
 */
void dunwind_registry_exit(void)
{
	struct hlist_node *tmp;
	struct dunwind_reg *e;
	int bkt;

	mutex_lock(&dunwind_reg_lock);
	hash_for_each_safe(dunwind_reg_hash, bkt, tmp, e, node) {
		WARN_ON_ONCE(e->owners != (e->pinned ? 1 : 0));
		hash_del(&e->node);
		dunwind_reg_free(e);
	}
	dunwind_reg_bytes = 0;
	dunwind_reg_count = 0;
	mutex_unlock(&dunwind_reg_lock);
	/* Entries freed by sessions' closes: their callbacks are module code. */
	rcu_barrier();
}
