// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind: deferred user-space stack unwinding for profilers.
 * The misc device /dev/dunwind: one session per open file.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include "dunwind.h"

static int dunwind_open(struct inode *inode, struct file *file)
{
	struct dunwind_session *s = dunwind_session_new();

	if (!s)
		return -ENOMEM;
	file->private_data = s;
	return 0;
}

static int dunwind_release(struct inode *inode, struct file *file)
{
	dunwind_session_close(file->private_data);
	return 0;
}

static long dunwind_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dunwind_session *s = file->private_data;

	switch (cmd) {
	case DUNWIND_IOC_CONFIG:
		return dunwind_session_config(s, (const void __user *)arg);
	case DUNWIND_IOC_START:
		return arg ? -EINVAL : dunwind_session_start(s);
	case DUNWIND_IOC_STOP:
		return arg ? -EINVAL : dunwind_session_stop(s);
	case DUNWIND_IOC_STATS:
		return dunwind_session_stats(s, (void __user *)arg);
	case DUNWIND_IOC_SFRAME_REGISTER:
		return dunwind_registry_register(s, (const void __user *)arg);
	case DUNWIND_IOC_TEST_NMI:
		return arg ? -EINVAL : dunwind_session_test_nmi(s);
	case DUNWIND_IOC_SFRAME_NONE:
		return dunwind_barrier_none(s, (const void __user *)arg);
	case DUNWIND_IOC_INTERP_REGISTER:
		return dunwind_interp_register(s, (const void __user *)arg);
	case DUNWIND_IOC_KSYM:
		return dunwind_ksym((void __user *)arg);
	default:
		return -ENOTTY;
	}
}

/*
 * Context: mmap(), the caller's mmap_lock held for writing.  Not under
 * s->lock: STOP and close hold it while they wait for walks, and a walk may
 * fault (mmap_lock), so taking it here would close a lock cycle.  The ring
 * cannot go away meanwhile: it is freed only at release, and our caller
 * holds a reference to the file.
 */
static int dunwind_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct dunwind_session *s = file->private_data;

	/* Pairs with smp_store_release() in dunwind_session_config(). */
	if (!smp_load_acquire(&s->configured))
		return -EINVAL;
	return dunwind_ring_mmap(&s->ring, vma);
}

static __poll_t dunwind_poll(struct file *file, struct poll_table_struct *pt)
{
	struct dunwind_session *s = file->private_data;
	bool configured;

	mutex_lock(&s->lock);
	configured = s->configured;
	mutex_unlock(&s->lock);
	/* Once configured, the ring lives as long as the file. */
	return configured ? dunwind_ring_poll(&s->ring, file, pt) : EPOLLERR;
}

static const struct file_operations dunwind_fops = {
	.owner		= THIS_MODULE,
	.open		= dunwind_open,
	.release	= dunwind_release,
	.unlocked_ioctl	= dunwind_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= dunwind_mmap,
	.poll		= dunwind_poll,
	.llseek		= noop_llseek,
};

static struct miscdevice dunwind_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "dunwind",
	.fops	= &dunwind_fops,
	.mode	= 0600,
};

static int __init dunwind_init(void)
{
	int ret;

	ret = dunwind_events_init();
	if (ret)
		return ret;
	ret = dunwind_offcpu_init();
	if (ret)
		goto out_events_exit;
	ret = dunwind_sample_init();
	if (ret)
		goto out_events_exit;
	ret = misc_register(&dunwind_misc);
	if (ret)
		goto out_sample_exit;
	return 0;

out_sample_exit:
	dunwind_sample_exit();
out_events_exit:
	dunwind_events_exit();
	return ret;
}

static void __exit dunwind_exit(void)
{
	misc_deregister(&dunwind_misc);
	/*
	 * A walk's (or a close's wake-up) task_work drops its module
	 * reference last, but its epilogue still runs module code after
	 * that.  Once every task has passed a voluntary context switch or
	 * user mode, none is still inside it.
	 */
	synchronize_rcu_tasks();
	dunwind_registry_exit();
	dunwind_sample_exit();
	dunwind_events_exit();
}

module_init(dunwind_init);
module_exit(dunwind_exit);
MODULE_DESCRIPTION("dunwind: deferred user-space stack unwinding for profilers");
MODULE_AUTHOR("The dunwind developers");
MODULE_LICENSE("GPL");
/* What modinfo says of the ABI (uapi/linux/dunwind.h) and the kernels. */
MODULE_INFO(abi, __stringify(DUNWIND_ABI_VERSION));
MODULE_INFO(kernels, "6.1, 6.12 and 7.2 (tested); 6.1 or later (builds)");
