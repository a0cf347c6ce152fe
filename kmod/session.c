// SPDX-License-Identifier: GPL-2.0
/*
 * A session: one open of /dev/dunwind, configured once, sampling one
 * thread or one thread group (threads created later inherit the event;
 * with DUNWIND_CFG_CHILDREN the processes it creates, and theirs, too),
 * or with DUNWIND_CFG_SYSTEM_WIDE every task on a set of CPUs (one event
 * per CPU).
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "dunwind.h"
#include "record.h"

/**
 * dunwind_session_new() - allocate an unconfigured session
 *
 * Context: open (may sleep).
 * Return: the session with one reference (the file's), or NULL.
 */
struct dunwind_session *dunwind_session_new(void)
{
	struct dunwind_session *s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);

	if (!s)
		return NULL;
	if (!zalloc_cpumask_var(&s->cpus, GFP_KERNEL_ACCOUNT)) {
		kfree(s);
		return NULL;
	}
	kref_init(&s->ref);
	mutex_init(&s->lock);
	init_rwsem(&s->walk_sem);
	init_waitqueue_head(&s->drain_wq);
	dunwind_barrier_init(&s->barrier);
	dunwind_vma_cache_init(&s->vmas);
	dunwind_follow_init(s);
	return s;
}

static void dunwind_session_free(struct kref *ref)
{
	struct dunwind_session *s = container_of(ref, struct dunwind_session, ref);

	dunwind_interp_free(s);
	dunwind_follow_free(s);
	dunwind_vma_cache_free(&s->vmas);
	dunwind_barrier_free(&s->barrier);
	dunwind_mmap_free(&s->mmap_seen);
	dunwind_offcpu_free(&s->offcpu);
	dunwind_sframe_cache_free(&s->sframe);
	dunwind_pending_free(&s->pending);
	dunwind_ring_free(&s->ring);
	free_cpumask_var(s->cpus);
	put_pid(s->target);
	mutex_destroy(&s->lock);
	kfree(s);
}

/**
 * dunwind_session_put() - drop a reference; the last one frees the session
 * @s:	session
 *
 * Context: process (the file's release, or a walk's task_work).
 */
void dunwind_session_put(struct dunwind_session *s)
{
	kref_put(&s->ref, dunwind_session_free);
}

static int dunwind_config_check(struct dunwind_config *c)
{
	if (c->flags & ~DUNWIND_CFG_ALL)
		return -EINVAL;
	if ((c->flags & (DUNWIND_CFG_ENABLE_ON_EXEC | DUNWIND_CFG_CHILDREN)) && !c->pid)
		return -EINVAL;
	if (c->flags & DUNWIND_CFG_SYSTEM_WIDE) {
		if (c->pid || c->tid)
			return -EINVAL;
	} else if (!c->pid == !c->tid || c->pid < 0 || c->tid < 0 || c->cpus) {
		return -EINVAL;
	}
	if (!c->cpus != !c->cpus_size || c->cpus_size > DUNWIND_MAX_CPUS_SIZE)
		return -EINVAL;
	if (c->flags & DUNWIND_CFG_TABLE_BARRIER) {
		if (!c->barrier_ms)
			c->barrier_ms = DUNWIND_DEFAULT_BARRIER_MS;
		if (c->barrier_ms > DUNWIND_MAX_BARRIER_MS)
			return -EINVAL;
	} else if (c->barrier_ms) {
		return -EINVAL;
	}
	if (!c->sample_freq == !c->sample_period)
		return -EINVAL;
	if (c->sample_freq > DUNWIND_SAMPLE_MAX_FREQ ||
	    (c->sample_period && c->sample_period < 10000))
		return -EINVAL;
	if (c->event >= DUNWIND_EVENT_MAX || memchr_inv(c->__reserved, 0, sizeof(c->__reserved)))
		return -EINVAL;
	if (c->offcpu_thresh_ns && !(c->flags & DUNWIND_CFG_OFF_CPU))
		return -EINVAL;
	if (!c->max_user_frames)
		c->max_user_frames = DUNWIND_DEFAULT_USER_FRAMES;
	if (!c->max_kernel_frames)
		c->max_kernel_frames = DUNWIND_DEFAULT_KERNEL_FRAMES;
	if (!c->ring_pages)
		c->ring_pages = DUNWIND_DEFAULT_RING_PAGES;
	if (!c->max_pending)
		c->max_pending = DUNWIND_DEFAULT_PENDING;
	if (c->max_user_frames > DUNWIND_MAX_USER_FRAMES ||
	    c->max_kernel_frames > DUNWIND_MAX_KERNEL_FRAMES)
		return -EINVAL;
	if (!is_power_of_2(c->ring_pages) || c->ring_pages > DUNWIND_MAX_RING_PAGES)
		return -EINVAL;
	if (!is_power_of_2(c->max_pending) || c->max_pending < 16 ||
	    c->max_pending > DUNWIND_MAX_PENDING)
		return -EINVAL;
	/* The ring must hold two of its largest records. */
	if (((u64)c->ring_pages << PAGE_SHIFT) <
	    2 * max3(dunwind_rec_user_stack_size(c->max_user_frames),
		     dunwind_rec_sample_size(c->max_kernel_frames),
		     dunwind_rec_mmap_size(DUNWIND_MMAP_PATH_MAX - 1)))
		return -EINVAL;
	if ((c->flags & DUNWIND_CFG_SAMPLE_STACK) && ((u64)c->ring_pages << PAGE_SHIFT) <
	    2 * dunwind_rec_sample_stack_max(c->max_user_frames))
		return -EINVAL;
	return 0;
}

/*
 * The CPUs of a system-wide session: @c's bitmap, or every possible CPU
 * (START then takes the online ones).  0, -EFAULT, -EINVAL (a CPU that is
 * not possible, or none), -ENOMEM.
 */
static int dunwind_config_cpus(const struct dunwind_config *c, struct cpumask *mask)
{
	unsigned int bit;
	u8 *bits;
	int ret = 0;

	if (!c->cpus) {
		cpumask_copy(mask, cpu_possible_mask);
		return 0;
	}
	bits = memdup_user(u64_to_user_ptr(c->cpus), c->cpus_size);
	if (IS_ERR(bits))
		return PTR_ERR(bits);
	cpumask_clear(mask);
	for (bit = 0; bit < c->cpus_size * 8 && !ret; bit++) {
		if (!(bits[bit / 8] & (1U << (bit % 8))))
			continue;
		if (bit >= nr_cpu_ids || !cpu_possible(bit))
			ret = -EINVAL;
		else
			cpumask_set_cpu(bit, mask);
	}
	kfree(bits);
	if (!ret && cpumask_empty(mask))
		ret = -EINVAL;
	return ret;
}

/*
 * The target @cfg names, checked against perf's policy (kmod/perm.c): its
 * CPUs (into @s->cpus), or its pid (*@pid, referenced).  Return: 0;
 * -EINVAL or -ENODEV (CPUs); -ESRCH; -EACCES.
 */
static int dunwind_config_target(struct dunwind_session *s, const struct dunwind_config *cfg,
				 struct pid **pid)
{
	struct task_struct *task = NULL;
	int ret;

	lockdep_assert_held(&s->lock);
	if (cfg->flags & DUNWIND_CFG_SYSTEM_WIDE) {
		ret = dunwind_config_cpus(cfg, s->cpus);
		if (ret)
			return ret;
	} else {
		*pid = find_get_pid(cfg->pid ? cfg->pid : cfg->tid);
		task = *pid ? get_pid_task(*pid, cfg->pid ? PIDTYPE_TGID : PIDTYPE_PID) : NULL;
		if (!task) {
			ret = -ESRCH;
			goto out_put_pid;
		}
	}
	/* perf_event_open()'s policy: kmod/perm.c. */
	ret = dunwind_perm_config(cfg, task, &s->kernel_stacks);
	if (task)
		put_task_struct(task);
	if (!ret)
		return 0;
out_put_pid:
	put_pid(*pid);
	*pid = NULL;
	return ret;
}

/*
 * What a configured session holds, for @cfg: pending table, ring, caches,
 * off-CPU slots, barrier.  Return: 0, or -ENOMEM with none of them.
 */
static int dunwind_session_alloc(struct dunwind_session *s, const struct dunwind_config *cfg)
{
	int ret;

	ret = dunwind_pending_init(&s->pending, cfg->max_pending);
	if (ret)
		return ret;
	ret = dunwind_ring_init(&s->ring, cfg->ring_pages, cfg->wakeup_bytes);
	if (ret)
		goto out_free_pending;
	ret = dunwind_sframe_cache_init(&s->sframe);
	if (ret)
		goto out_free_ring;
	ret = dunwind_mmap_init(&s->mmap_seen);
	if (ret)
		goto out_free_sframe;
	ret = dunwind_offcpu_alloc(&s->offcpu, cfg);
	if (ret)
		goto out_free_mmap;
	if (cfg->flags & DUNWIND_CFG_TABLE_BARRIER) {
		ret = dunwind_barrier_alloc(&s->barrier);
		if (ret)
			goto out_free_offcpu;
	}
	return 0;

out_free_offcpu:
	dunwind_offcpu_free(&s->offcpu);
out_free_mmap:
	dunwind_mmap_free(&s->mmap_seen);
out_free_sframe:
	dunwind_sframe_cache_free(&s->sframe);
out_free_ring:
	dunwind_ring_free(&s->ring);
out_free_pending:
	dunwind_pending_free(&s->pending);
	return ret;
}

/**
 * dunwind_session_config() - DUNWIND_IOC_CONFIG
 * @s:		session
 * @arg:	struct dunwind_config in user memory, @size first
 *
 * Context: ioctl (may sleep, may fault).
 * Return: 0; -EFAULT; -EINVAL (bad size or field); -E2BIG (unknown
 * non-zero tail); -EBUSY (already configured); -EACCES (perf's policy
 * forbids it: kmod/perm.c); -ESRCH (no such target); -ENOMEM.
 */
int dunwind_session_config(struct dunwind_session *s, const void __user *arg)
{
	struct dunwind_config cfg;
	struct pid *pid = NULL;
	int ret;

	ret = dunwind_copy_arg(&cfg, sizeof(cfg), DUNWIND_CONFIG_SIZE_VER0, arg);
	if (ret)
		return ret;
	cfg.size = sizeof(cfg);
	ret = dunwind_config_check(&cfg);
	if (ret)
		return ret;
	/* As perf_event_open(): no frequency above the kernel's current maximum. */
	if (cfg.sample_freq > dunwind_sample_max_rate())
		return -EINVAL;

	mutex_lock(&s->lock);
	if (s->configured) {
		ret = -EBUSY;
		goto out_unlock;
	}
	ret = dunwind_config_target(s, &cfg, &pid);
	if (ret)
		goto out_unlock;
	ret = dunwind_session_alloc(s, &cfg);
	if (ret)
		goto out_put_pid;
	s->cfg = cfg;
	s->target = pid;
	/* Pairs with smp_load_acquire() in dunwind_mmap(): the ring is ready. */
	smp_store_release(&s->configured, true);
	mutex_unlock(&s->lock);
	return 0;

out_put_pid:
	put_pid(pid);
out_unlock:
	mutex_unlock(&s->lock);
	return ret;
}

/**
 * dunwind_session_start() - DUNWIND_IOC_START: attach and start sampling
 * @s:	session
 *
 * Context: ioctl (may sleep).
 * Return: 0; -EINVAL (not configured); -EBUSY (already started); -ESRCH
 * (the target has exited); -EACCES (the target is no longer the
 * caller's to profile); -ENODEV (a CPU asked for is offline); -ENOMEM;
 * or perf's error.
 */
int dunwind_session_start(struct dunwind_session *s)
{
	struct task_struct *task = NULL;
	int ret;

	mutex_lock(&s->lock);
	ret = -EINVAL;
	if (!s->configured)
		goto out_unlock;
	ret = -EBUSY;
	if (s->started)
		goto out_unlock;
	s->system_wide = !!(s->cfg.flags & DUNWIND_CFG_SYSTEM_WIDE);
	if (!s->system_wide) {
		ret = -ESRCH;
		task = get_pid_task(s->target, s->cfg.pid ? PIDTYPE_TGID : PIDTYPE_PID);
		if (!task)
			goto out_unlock;
		/* It may have become another user's (setuid exec) since CONFIG. */
		ret = dunwind_perm_task(task);
		if (ret)
			goto out_put_task;
		s->target_tgid = task_tgid_nr(task);
		s->target_tid = s->cfg.pid ? 0 : task_pid_nr(task);
	}
	dunwind_ring_set_stopped(&s->ring, false);
	dunwind_barrier_open(&s->barrier);
	s->children = !!(s->cfg.flags & DUNWIND_CFG_CHILDREN);
	if (s->children) {
		ret = dunwind_follow_add(s, task);
		if (ret)
			goto out_put_task;
	}
	/* Probes first: a thread created while we attach is still seen. */
	dunwind_events_start(s);
	ret = dunwind_offcpu_start(s);
	if (ret)
		goto out_detach;
	if (s->system_wide)
		ret = dunwind_attach_cpus(s);
	else if (s->cfg.pid)
		ret = dunwind_attach_group(s, task);
	else
		ret = dunwind_attach_task(s, task);
	if (ret)
		goto out_detach;
	s->started = true;
	if (task)
		put_task_struct(task);
	mutex_unlock(&s->lock);
	return 0;

out_detach:
	dunwind_detach(s);
out_put_task:
	if (task)
		put_task_struct(task);
out_unlock:
	mutex_unlock(&s->lock);
	return ret;
}

/**
 * dunwind_session_stop() - DUNWIND_IOC_STOP: stop sampling
 * @s:	session
 *
 * Every cookie is answered before this returns: walks that are running
 * finish writing their USER_STACK, walks still queued (their thread has
 * not returned to user space) are answered with stop reason SESSION.
 * Context: ioctl or release (may sleep).
 * Return: 0, or -EINVAL if not started.
 */
int dunwind_session_stop(struct dunwind_session *s)
{
	int ret = -EINVAL;

	mutex_lock(&s->lock);
	if (s->started) {
		/* Walks waiting for verdicts the caller cannot give meanwhile. */
		dunwind_barrier_close(&s->barrier);
		dunwind_detach(s);
		dunwind_walk_end_session(s);
		s->started = false;
		dunwind_ring_set_stopped(&s->ring, true);
		ret = 0;
	}
	mutex_unlock(&s->lock);
	return ret;
}

/**
 * dunwind_session_test_nmi() - DUNWIND_IOC_TEST_NMI: sample the caller from an NMI
 * @s:	session
 *
 * Context: ioctl (may sleep).
 * Return: 0, -EPERM without CAP_SYS_ADMIN, -EINVAL unless started, or
 * dunwind_sample_test_nmi()'s error.
 */
int dunwind_session_test_nmi(struct dunwind_session *s)
{
	int ret = -EINVAL;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&s->lock);
	if (s->started)
		ret = dunwind_sample_test_nmi(s);
	mutex_unlock(&s->lock);
	return ret;
}

/**
 * dunwind_session_close() - the file is released: stop, free, drop the file's reference
 * @s:	session
 *
 * Frees the ring and the caches once no walk writes to them, and lets
 * the threads that sleep with a walk queued run it (dunwind_walk_drain()),
 * so that the session and the module are normally released here.  The
 * pending table goes with the last reference.
 *
 * Context: release (may sleep).
 */
void dunwind_session_close(struct dunwind_session *s)
{
	dunwind_session_stop(s);
	mutex_lock(&s->lock);
	kfree(s->events);
	kfree(s->tasks);
	s->events = NULL;
	s->tasks = NULL;
	if (s->configured) {
		/* Walks still queued: left behind where possible, else let run. */
		if (DUNWIND_DETACH_WALKS)
			dunwind_walk_detach(s);
		else
			dunwind_walk_drain(s);
		/* Late walks only touch their slot: the rest can go. */
		dunwind_mmap_free(&s->mmap_seen);
		dunwind_sframe_cache_free(&s->sframe);
		dunwind_ring_free(&s->ring);
		s->configured = false;
	}
	mutex_unlock(&s->lock);
	dunwind_registry_session_close(s);
	dunwind_session_put(s);
}

/**
 * dunwind_session_stats() - DUNWIND_IOC_STATS
 * @s:		session
 * @arg:	struct dunwind_stats in user memory, @size set by the caller
 *
 * Context: ioctl (may fault).
 * Return: 0, -EFAULT, -EINVAL if @size is below 8, or -E2BIG if it is above
 * a page (as dunwind_copy_arg(): the zeroed tail would otherwise reach as
 * far as any u32 says, over whatever the caller keeps behind the struct).
 */
int dunwind_session_stats(struct dunwind_session *s, void __user *arg)
{
	struct dunwind_stats st = {};
	u32 usize, n;

	if (get_user(usize, (u32 __user *)arg))
		return -EFAULT;
	if (usize < 8)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	st.samples = atomic64_read(&s->cnt[DW_CNT_SAMPLES]);
	st.samples_user = atomic64_read(&s->cnt[DW_CNT_SAMPLES_USER]);
	st.samples_deferred = atomic64_read(&s->cnt[DW_CNT_SAMPLES_DEFERRED]);
	st.samples_no_user = atomic64_read(&s->cnt[DW_CNT_SAMPLES_NO_USER]);
	st.walks = atomic64_read(&s->cnt[DW_CNT_WALKS]);
	st.user_frames = atomic64_read(&s->cnt[DW_CNT_USER_FRAMES]);
	st.fp_frames = atomic64_read(&s->cnt[DW_CNT_FP_FRAMES]);
	st.sframe_frames = atomic64_read(&s->cnt[DW_CNT_SFRAME_FRAMES]);
	st.handler_ns = dunwind_cycles_ns(atomic64_read(&s->cnt[DW_CNT_HANDLER_CYCLES]));
	st.walk_ns = atomic64_read(&s->cnt[DW_CNT_WALK_NS]);
	st.fp_ns = dunwind_cycles_ns(atomic64_read(&s->cnt[DW_CNT_FP_CYCLES]));
	st.sframe_ns = dunwind_cycles_ns(atomic64_read(&s->cnt[DW_CNT_SFRAME_CYCLES]));
	st.pending_full = atomic64_read(&s->cnt[DW_CNT_PENDING_FULL]);
	st.threads = atomic64_read(&s->cnt[DW_CNT_THREADS]);
	st.offcpu_samples = atomic64_read(&s->cnt[DW_CNT_OFFCPU]);
	st.offcpu_short = atomic64_read(&s->cnt[DW_CNT_OFFCPU_SHORT]);
	st.offcpu_full = atomic64_read(&s->cnt[DW_CNT_OFFCPU_FULL]);
	st.barrier_waits = atomic64_read(&s->cnt[DW_CNT_BARRIER_WAITS]);
	st.barrier_missed = atomic64_read(&s->cnt[DW_CNT_BARRIER_MISSED]);
	st.barrier_ns = atomic64_read(&s->cnt[DW_CNT_BARRIER_NS]);
	st.walk_samples = atomic64_read(&s->cnt[DW_CNT_WALK_SAMPLES]);
	st.walks_replayed = atomic64_read(&s->cnt[DW_CNT_WALKS_REPLAYED]);
	st.samples_earlier = atomic64_read(&s->cnt[DW_CNT_SAMPLES_EARLIER]);
	dunwind_registry_stats(&st.reg_tables, &st.reg_bytes);
	mutex_lock(&s->lock);
	if (s->configured)
		dunwind_ring_lost(&s->ring, st.lost);
	mutex_unlock(&s->lock);

	n = min_t(u32, usize, sizeof(st));
	st.size = n;
	if (copy_to_user(arg, &st, n))
		return -EFAULT;
	if (usize > n && clear_user((u8 __user *)arg + n, usize - n))
		return -EFAULT;
	return 0;
}
