/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dunwind: deferred user-space stack unwinding for profilers.
 *
 * The ABI between the dunwind kernel module and user space: the device's
 * ioctls, the mmap ring buffer, and the records written into it.  Every
 * structure here is little-endian x86_64 native, fixed width, and never
 * changes layout; extensible structures carry their size first.
 * Documentation/abi.rst is the prose version of this file.
 */
#ifndef _UAPI_LINUX_DUNWIND_H
#define _UAPI_LINUX_DUNWIND_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define DUNWIND_DEVICE		"/dev/dunwind"
#define DUNWIND_ABI_VERSION	1

/*
 * Session configuration, passed once with DUNWIND_IOC_CONFIG.
 *
 * @size:		sizeof(struct dunwind_config) as the caller compiled it.
 *			Smaller than DUNWIND_CONFIG_SIZE_VER0: -EINVAL.  Larger
 *			than the module knows: the excess must be zero, else
 *			-E2BIG.
 * @flags:		DUNWIND_CFG_*; unknown bits: -EINVAL.
 * @pid:		follow this thread group: every thread it has now and
 *			every thread it creates later (and with
 *			DUNWIND_CFG_CHILDREN every process it creates later,
 *			and theirs).  Exactly one of @pid and
 *			@tid is non-zero (both zero with
 *			DUNWIND_CFG_SYSTEM_WIDE), else -EINVAL.  Ids are in the caller's
 *			pid namespace.  No such process: -ESRCH.
 * @tid:		follow this one thread only.
 * @sample_freq:	samples per second of the target's CPU time (the
 *			clocks), or of its counted events (hardware events:
 *			perf adjusts the period to this rate).
 * @sample_period:	or: one sample per this many ns of CPU time (the
 *			clocks) or per this many events.  Exactly one of the
 *			two is non-zero, else -EINVAL.
 * @max_user_frames:	user frames per stack, 1..DUNWIND_MAX_USER_FRAMES;
 *			0 means DUNWIND_DEFAULT_USER_FRAMES.
 * @max_kernel_frames:	kernel frames per sample, 1..DUNWIND_MAX_KERNEL_FRAMES;
 *			0 means DUNWIND_DEFAULT_KERNEL_FRAMES.
 * @ring_pages:		data pages of the ring; a power of two,
 *			1..DUNWIND_MAX_RING_PAGES; 0 means DUNWIND_DEFAULT_RING_PAGES.
 * @wakeup_bytes:	poll() reports readable once this many bytes are
 *			unread (and while an MMAP record is unread, or any
 *			byte once stopped); 0 means a quarter of the ring.
 * @max_pending:	threads that may have a user walk pending at once;
 *			a power of two, 0 means DUNWIND_DEFAULT_PENDING.
 * @event:		what drives sampling: DUNWIND_EVENT_*, 0 (the
 *			default) is cpu-clock.  Unknown: -EINVAL.  START fails
 *			with -ENOENT or -EOPNOTSUPP where no PMU counts a
 *			hardware event (a VM without a virtual PMU).
 *			Hardware events overflow in NMI.
 * @offcpu_thresh_ns:	with DUNWIND_CFG_OFF_CPU: blocks shorter than this
 *			give no sample (counted in @offcpu_short).  Without
 *			the flag it must be zero, else -EINVAL.
 * @cpus:		with DUNWIND_CFG_SYSTEM_WIDE: the user address of a CPU
 *			bitmap of @cpus_size bytes (CPU n is bit n % 8 of byte
 *			n / 8); 0: every online CPU.  A CPU that is not possible:
 *			-EINVAL; one not online at START: START fails with
 *			-ENODEV.  Without the flag it must be zero, else -EINVAL.
 * @cpus_size:		bytes at @cpus, 1..DUNWIND_MAX_CPUS_SIZE; zero exactly
 *			when @cpus is, else -EINVAL.
 * @barrier_ms:		with DUNWIND_CFG_TABLE_BARRIER: the longest a walk waits
 *			for the recorder's verdict on one file, ms,
 *			1..DUNWIND_MAX_BARRIER_MS; 0 means
 *			DUNWIND_DEFAULT_BARRIER_MS.  Without the flag it must
 *			be zero, else -EINVAL.
 * @__reserved:		must be zero.
 */
struct dunwind_config {
	__u32 size;
	__u32 flags;
	__s32 pid;
	__s32 tid;
	__u64 sample_freq;
	__u64 sample_period;
	__u32 max_user_frames;
	__u32 max_kernel_frames;
	__u32 ring_pages;
	__u32 wakeup_bytes;
	__u32 max_pending;
	__u32 event;			/* was __reserved0 (zero: cpu-clock) */
	__u64 offcpu_thresh_ns;		/* was __reserved[0] (zero: every block) */
	__u64 cpus;			/* was __reserved[1] (zero: every CPU) */
	__u32 cpus_size;		/* was __reserved[2] */
	__u32 barrier_ms;		/* was __reserved1 (zero: no barrier) */
	__u64 __reserved[1];
};
#define DUNWIND_CONFIG_SIZE_VER0	88

/* dunwind_config.event: perf's software clocks and generic hardware events. */
enum dunwind_event {
	DUNWIND_EVENT_CPU_CLOCK = 0,	/* PERF_COUNT_SW_CPU_CLOCK */
	DUNWIND_EVENT_TASK_CLOCK,	/* PERF_COUNT_SW_TASK_CLOCK */
	DUNWIND_EVENT_CYCLES,		/* PERF_COUNT_HW_CPU_CYCLES */
	DUNWIND_EVENT_INSTRUCTIONS,	/* PERF_COUNT_HW_INSTRUCTIONS */
	DUNWIND_EVENT_CACHE_MISSES,	/* PERF_COUNT_HW_CACHE_MISSES */
	DUNWIND_EVENT_BRANCH_MISSES,	/* PERF_COUNT_HW_BRANCH_MISSES */
	DUNWIND_EVENT_MAX,
};

/* Walk user stacks with frame pointers only (the default: all methods). */
#define DUNWIND_CFG_FP_ONLY		(1U << 0)
/*
 * Start sampling at the target's next execve() rather than at START, like
 * perf's enable_on_exec: a recorder forks, starts the session on the
 * child, then lets it exec the command.  Only with @pid.
 */
#define DUNWIND_CFG_ENABLE_ON_EXEC	(1U << 1)
/*
 * Follow the processes the target creates too (fork, vfork, clone without
 * CLONE_THREAD), and theirs, across exec: each inherits the event of the
 * thread that created it, as with perf's inherit without inherit_thread.
 * FORK, COMM, EXIT and MMAP records name them.  Only with @pid.
 */
#define DUNWIND_CFG_CHILDREN		(1U << 2)
/*
 * Off-CPU samples as well: each time a target thread is switched out
 * while not runnable (it blocks: sleep, I/O, lock, wait), one SAMPLE with
 * DUNWIND_SAMPLE_OFF_CPU when it is next switched in, its period the ns
 * it stayed off CPU, its kernel stack the one at the switch, its user
 * stack walked at its next return to user space (a cookie, as usual).
 * Threads still blocked at STOP get theirs at STOP, with
 * DUNWIND_SAMPLE_OFF_CPU_OPEN.  Threads blocked at START count from their
 * next block.  The target's threads (@pid's group or @tid) and, with
 * DUNWIND_CFG_CHILDREN, those of every process it follows.
 */
#define DUNWIND_CFG_OFF_CPU		(1U << 3)
/*
 * The whole system: every task that runs on the chosen CPUs (@cpus), by
 * per-CPU events: processes started during the session from their first
 * sample, kernel threads and the idle task with their kernel stack only
 * (DUNWIND_SAMPLE_KERNEL_THREAD).  @pid and @tid must be zero; not with
 * DUNWIND_CFG_ENABLE_ON_EXEC or DUNWIND_CFG_CHILDREN.  COMM records for
 * every thread at START; FORK, EXIT and COMM records for every task.
 * With DUNWIND_CFG_OFF_CPU: every user thread that blocks on those CPUs.
 * CPUs brought online during the session are not sampled.
 */
#define DUNWIND_CFG_SYSTEM_WIDE		(1U << 4)
/*
 * One record for a sample and its stack where one suffices: a sample that
 * interrupted user mode and is the only one of its cookie comes as one
 * DUNWIND_REC_SAMPLE_STACK, written by its walk, instead of a SAMPLE and
 * a USER_STACK.  Other samples keep the two records.  The ring must then
 * hold two of the largest SAMPLE_STACK records as well.
 */
#define DUNWIND_CFG_SAMPLE_STACK	(1U << 5)
/*
 * The table barrier: a walk that meets a frame in an executable ELF file
 * mapping with no unwind table (no .sframe of its own, none registered)
 * and no verdict of the recorder on that file yet writes the MMAP records
 * of its frames so far (which wake the recorder at once), waits for the
 * verdict, killable, at most @barrier_ms, then walks again from the
 * start.  The verdict is DUNWIND_IOC_SFRAME_REGISTER of a table for the
 * file (any outcome but an argument error) or DUNWIND_IOC_SFRAME_NONE.
 * Other walks that meet the file meanwhile wait too.  A wait that ends
 * without a verdict (timeout, fatal signal, STOP) is counted in
 * @barrier_missed, the walk goes on as without the flag, and no walk of
 * the session waits for that file again.  Walks of the process that
 * configured the session (the recorder) never wait.  Walks never wait in
 * a context that cannot sleep (they run at the return to user space).  A recorder
 * that sets it answers the MMAP record of every executable file it
 * receives, promptly.  No effect with DUNWIND_CFG_FP_ONLY.
 */
#define DUNWIND_CFG_TABLE_BARRIER	(1U << 6)
#define DUNWIND_CFG_ALL			(DUNWIND_CFG_FP_ONLY | DUNWIND_CFG_ENABLE_ON_EXEC | \
					 DUNWIND_CFG_CHILDREN | DUNWIND_CFG_OFF_CPU | \
					 DUNWIND_CFG_SYSTEM_WIDE | DUNWIND_CFG_SAMPLE_STACK | \
					 DUNWIND_CFG_TABLE_BARRIER)
/* dunwind_config.cpus_size: 4096 CPUs. */
#define DUNWIND_MAX_CPUS_SIZE		512

#define DUNWIND_DEFAULT_USER_FRAMES	128
#define DUNWIND_MAX_USER_FRAMES		1024
#define DUNWIND_DEFAULT_KERNEL_FRAMES	64
#define DUNWIND_MAX_KERNEL_FRAMES	128
#define DUNWIND_DEFAULT_RING_PAGES	256
#define DUNWIND_MAX_RING_PAGES		16384
#define DUNWIND_DEFAULT_PENDING		1024
#define DUNWIND_MAX_PENDING		65536
#define DUNWIND_DEFAULT_BARRIER_MS	1000
#define DUNWIND_MAX_BARRIER_MS		10000

/*
 * Counters of a session, read with DUNWIND_IOC_STATS at any time.
 * The caller sets @size to the size it knows; the module fills that much
 * (zeroing what it does not know) and sets @size to what it filled.
 *
 * @samples:		overflow-handler invocations that produced a SAMPLE.
 * @samples_user:	of those, samples that interrupted user mode.
 * @samples_deferred:	samples that took a new cookie: queued a new user
 *			walk, or (an exiting thread) were answered at once.
 * @samples_no_user:	samples with no user part (kernel threads, exiting
 *			tasks past their last return, no free pending slot).
 * @walks:		cookies answered, each by one USER_STACK: user walks
 *			run, and stacks written with no frames (EXITED,
 *			SESSION).  Once STOP returned, equal to
 *			@samples_deferred, and USER_STACK records received
 *			plus those lost.
 * @user_frames:	user frames emitted over all walks.
 * @fp_frames:		of those, recovered by frame pointers.
 * @sframe_frames:	of those, recovered by SFrame.
 * @lost:		records dropped because the ring was full, by type
 *			(index = enum dunwind_rec_type; [0] is the total).
 * @handler_ns:		time spent in the overflow handler.
 * @walk_ns:		time spent in user walks (task_work), less the
 *			walking thread's run-queue waits (CONFIG_SCHED_INFO).
 * @fp_ns:		of @walk_ns, time spent recovering FP frames.
 * @sframe_ns:		of @walk_ns, time spent recovering SFrame frames.
 * @pending_full:	samples that found the pending table full.
 * @threads:		threads sampled: attached at START plus threads the
 *			group created later (which inherit the event).
 * @reg_tables:		SFrame tables registered in the module (all sessions).
 * @reg_bytes:		kernel memory they hold, counted against the cap
 *			(module parameter sframe_cap_mb, default 64).
 * @offcpu_samples:	off-CPU samples written (DUNWIND_CFG_OFF_CPU), of
 *			which @samples counts none.
 * @offcpu_short:	blocks shorter than offcpu_thresh_ns: no sample.
 * @offcpu_full:	blocks not measured: max_pending threads were
 *			blocked at once already.
 * @barrier_waits:	waits of walks for the recorder's verdict on a file
 *			(DUNWIND_CFG_TABLE_BARRIER).
 * @barrier_missed:	of those, waits that ended without a verdict (the
 *			time limit, a fatal signal, or STOP).
 * @barrier_ns:		time walks spent waiting, of @walk_ns (also less
 *			run-queue waits).
 * @walk_samples:	samples (on- or off-CPU) taken while the thread ran
 *			this session's own user walk (DUNWIND_SAMPLE_IN_WALK):
 *			the profiler's overhead, not the program's work.
 * @walks_replayed:	of @walks, those that took the frames of the thread's
 *			last walk, having found the same registers, mappings
 *			and words of the stack that walk read.
 * @samples_earlier:	samples (on- or off-CPU) whose walk, replayed as
 *			they were taken, found the frames of a USER_STACK of
 *			the same thread already written: they carry its
 *			cookie (DUNWIND_SAMPLE_EARLIER_STACK); no cookie,
 *			walk or USER_STACK of their own (not in
 *			@samples_deferred or @walks).
 */
struct dunwind_stats {
	__u32 size;
	__u32 __reserved0;
	__u64 samples;
	__u64 samples_user;
	__u64 samples_deferred;
	__u64 samples_no_user;
	__u64 walks;
	__u64 user_frames;
	__u64 fp_frames;
	__u64 sframe_frames;
	__u64 lost[8];
	__u64 handler_ns;
	__u64 walk_ns;
	__u64 fp_ns;
	__u64 sframe_ns;
	__u64 pending_full;
	__u64 threads;
	__u64 reg_tables;		/* since VER1 */
	__u64 reg_bytes;
	__u64 offcpu_samples;		/* since VER2 */
	__u64 offcpu_short;
	__u64 offcpu_full;
	__u64 barrier_waits;		/* since VER3 */
	__u64 barrier_missed;
	__u64 barrier_ns;
	__u64 walk_samples;		/* since VER4 */
	__u64 walks_replayed;		/* since VER5 */
	__u64 samples_earlier;		/* since VER6 */
};
#define DUNWIND_STATS_SIZE_VER0		184
#define DUNWIND_STATS_SIZE_VER1		200
#define DUNWIND_STATS_SIZE_VER2		224
#define DUNWIND_STATS_SIZE_VER3		248
#define DUNWIND_STATS_SIZE_VER4		256
#define DUNWIND_STATS_SIZE_VER5		264
#define DUNWIND_STATS_SIZE_VER6		272

#define DUNWIND_IOC_MAGIC	0xDE
/*
 * Configure the session (once): struct dunwind_config *. Then mmap.
 *
 * Permissions are perf_event_open()'s.  With CAP_PERFMON (or
 * CAP_SYS_ADMIN): any target.  Without, kernel.perf_event_paranoid:
 * above 2 nothing (-EACCES); 2: the caller's own processes (those it may
 * read with ptrace, PTRACE_MODE_READ_REALCREDS; another user's: -EACCES),
 * and samples taken in the kernel carry no kernel stack
 * (DUNWIND_SAMPLE_KERNEL_HIDDEN); 1: with kernel stacks; 0: also
 * DUNWIND_CFG_SYSTEM_WIDE; -1: also DUNWIND_CFG_OFF_CPU (else -EACCES).
 * START checks the target again (-EACCES: it ran a setuid program since).
 */
#define DUNWIND_IOC_CONFIG	_IO(DUNWIND_IOC_MAGIC, 1)
/* Attach to the target and start sampling.  No argument. */
#define DUNWIND_IOC_START	_IO(DUNWIND_IOC_MAGIC, 2)
/* Stop sampling; pending walks still complete.  No argument. */
#define DUNWIND_IOC_STOP	_IO(DUNWIND_IOC_MAGIC, 3)
/* Read counters: struct dunwind_stats *, @size set by the caller (at most a page). */
#define DUNWIND_IOC_STATS	_IO(DUNWIND_IOC_MAGIC, 4)
/* Register an SFrame table for a file: struct dunwind_sframe_reg *. */
#define DUNWIND_IOC_SFRAME_REGISTER	_IO(DUNWIND_IOC_MAGIC, 5)
/*
 * Test hook, CAP_SYS_ADMIN only, no argument: raise an NMI on the calling
 * CPU whose handler samples the calling thread into this (started)
 * session exactly as a hardware event's overflow would, period 1.  For
 * testing the NMI path where no PMU can fire (QEMU TCG).  0 once the
 * handler ran; -EINVAL before START or after STOP; -EIO if no NMI came.
 */
#define DUNWIND_IOC_TEST_NMI		_IO(DUNWIND_IOC_MAGIC, 6)
/* The recorder's verdict "no table for this file": struct dunwind_sframe_none *. */
#define DUNWIND_IOC_SFRAME_NONE		_IO(DUNWIND_IOC_MAGIC, 7)
/* Register an interpreter's descriptor for a file: struct dunwind_interp_reg *. */
#define DUNWIND_IOC_INTERP_REGISTER	_IO(DUNWIND_IOC_MAGIC, 8)
/* The kernel symbol holding an address: struct dunwind_ksym *. */
#define DUNWIND_IOC_KSYM		_IO(DUNWIND_IOC_MAGIC, 9)

/*
 * An SFrame table for a file whose mappings have no .sframe of their own
 * (a distribution's libc: .eh_frame only), with DUNWIND_IOC_SFRAME_REGISTER.
 * Needs CAP_PERFMON or CAP_SYS_ADMIN (else -EPERM), whatever
 * kernel.perf_event_paranoid says.  Any session may register, configured
 * or not.  A table applies to a mapping only when both its file
 * (device, inode) and the build-id in the mapped image match.
 *
 * @size:		sizeof(struct dunwind_sframe_reg) as the caller knows it.
 * @flags:		DUNWIND_REG_PIN: keep the table after this session
 *			closes (until the module is unloaded).
 *			DUNWIND_REG_RBX: a v3 table with dunwind's %rbx
 *			extension (Documentation/sframe.rst): its flex FREs
 *			may say where %rbx is saved, and an FRE that does
 *			not means %rbx is unchanged; walks then follow %rbx
 *			and CFA rules based on it.
 *			DUNWIND_REG_VDSO: the table is for the kernel's vDSO,
 *			which has no file: @fd must be -1, and @build_id must
 *			be that of the vDSO the caller itself maps; it then
 *			applies to every process's [vdso] mapping whose image
 *			has that build-id.
 * @fd:			an open file descriptor of the ELF file; the table is
 *			keyed by its (device, inode).
 * @build_id_size:	1..20; @build_id must equal the file's GNU build-id.
 * @table:		user address of the SFrame section (v2 or v3, AMD64).
 * @table_size:		its size in bytes.
 * @sec_vaddr:		the ELF virtual address the table's PC fields are
 *			relative to (as if the section were loaded there).
 * The module copies the table, validates every FDE and FRE, and shares one
 * copy among all sessions that register the same file (reference counted).
 * Errors: EPERM; EBADF; EINVAL (bad flags, reserved, sizes, a malformed
 * table, DUNWIND_REG_RBX on a table that is not an AMD64 v3 one, or
 * DUNWIND_REG_VDSO with @fd not -1); E2BIG (larger struct with non-zero tail); ENOEXEC
 * (not an x86-64 ELF; DUNWIND_REG_VDSO: the caller maps no vDSO);
 * ESTALE (build-id differs from the file's, or the caller's vDSO's);
 * ENOSPC (the module's cap would be exceeded); EEXIST (this session
 * already registered that file); ENOMEM.
 */
struct dunwind_sframe_reg {
	__u32 size;
	__u32 flags;
	__s32 fd;
	__u32 build_id_size;
	__u8 build_id[20];
	__u32 __reserved0;
	__u64 table;
	__u64 table_size;
	__u64 sec_vaddr;
	__u64 __reserved[2];
};
#define DUNWIND_SFRAME_REG_SIZE_VER0	80
#define DUNWIND_REG_PIN			(1U << 0)
#define DUNWIND_REG_RBX			(1U << 1)
#define DUNWIND_REG_VDSO		(1U << 2)

/*
 * The recorder will register no table for a file, with
 * DUNWIND_IOC_SFRAME_NONE: walks of a DUNWIND_CFG_TABLE_BARRIER session
 * stop waiting for one (and none waits for it later).  The file is named
 * as MMAP records name it, not opened: the recorder may be unable to.
 * Any configured session, no privilege (it only ends its own waits).
 *
 * @size:		sizeof(struct dunwind_sframe_none) as the caller knows it.
 * @flags:		must be zero.
 * @ino:		the file's inode number, non-zero.
 * @dev_major, @dev_minor: its device.
 * @__reserved:		must be zero.
 * Errors: EINVAL (not configured, bad flags, reserved, size or @ino);
 * E2BIG (larger struct with non-zero tail); EFAULT.  A session that
 * remembers too many files already forgets the verdict (0 all the same):
 * its walks no longer wait for new files either.
 */
struct dunwind_sframe_none {
	__u32 size;
	__u32 flags;
	__u64 ino;
	__u32 dev_major;
	__u32 dev_minor;
	__u64 __reserved[2];
};
#define DUNWIND_SFRAME_NONE_SIZE_VER0	40

/*
 * The kernel symbol holding an address, with DUNWIND_IOC_KSYM: what
 * /proc/kallsyms says of it, for the few addresses a capture holds (the
 * kernel makes the whole file for about 4,000 instructions a symbol).
 * Allowed when /proc/kallsyms would show the caller its addresses:
 * kernel.kptr_restrict 0 and kernel.perf_event_paranoid at most 1, or
 * CAP_SYSLOG and kptr_restrict at most 1 (else -EPERM).  Any session,
 * configured or not.
 *
 * @size:		sizeof(struct dunwind_ksym) as the caller knows it.
 * @flags:		must be zero.
 * @addr:		in: a kernel address (any value).
 * @start:		out: the start of the symbol holding @addr.
 * @len:		out: its length in bytes, up to the next symbol.
 * @module:		out: its module's name, NUL-terminated; "" for the
 *			kernel image's own.  Other owners as kallsyms names
 *			them ("bpf" for a BPF program).
 * @name:		out: its name, NUL-terminated.
 * Errors: EINVAL (bad flags or size); E2BIG (larger struct with non-zero
 * tail); EFAULT; EPERM; ENOENT: no symbol holds @addr (the out fields
 * are then zero).
 */
struct dunwind_ksym {
	__u32 size;
	__u32 flags;
	__u64 addr;
	__u64 start;
	__u64 len;
	char module[56];
	char name[512];
};
#define DUNWIND_KSYM_SIZE_VER0		600

/*
 * The ring buffer.
 *
 * mmap(NULL, page_size * (1 + ring_pages), PROT_READ | PROT_WRITE,
 *      MAP_SHARED, fd, 0) after DUNWIND_IOC_CONFIG maps the control page
 * followed by the data pages.  Any other length or offset: -EINVAL.
 *
 * @data_head and @data_tail are byte positions that only grow; a record at
 * position P starts at data + (P & (data_size - 1)).  Records are 8-byte
 * aligned and may wrap from the end of the data area to its start.
 *
 * Producer (module):  reserves [head, head + size) under its lock, writes
 *   the record's header with type DUNWIND_REC_BUSY, publishes the new
 *   @data_head with a store-release, fills the record, then stores the real
 *   type with a store-release (pairs with the reader's load-acquire of the
 *   type).
 * Consumer (user):    head = load-acquire(@data_head) (pairs with the
 *   module's store-release of @data_head); for each record at tail < head:
 *   type = load-acquire(&hdr->type); DUNWIND_REC_BUSY means stop and retry
 *   later; else read the record (hdr->size bytes), then
 *   store-release(@data_tail, tail + size) (pairs with the module's
 *   load-acquire of @data_tail before it reuses space).
 * The module never blocks on a full ring: it drops the record, counts it,
 * and writes a DUNWIND_REC_LOST before the next record that fits.
 */
struct dunwind_ring_ctrl {
	__u32 size;		/* sizeof(struct dunwind_ring_ctrl) */
	__u32 version;		/* DUNWIND_ABI_VERSION */
	__u64 data_offset;	/* bytes from the start of the mapping */
	__u64 data_size;	/* bytes, a power of two */
	__u64 __reserved0[5];
	__u64 data_head;	/* offset 64: written by the module */
	__u64 __reserved1[7];
	__u64 data_tail;	/* offset 128: written by user space */
	__u64 __reserved2[7];
};

/*
 * Every record starts with this header.
 * @type:	enum dunwind_rec_type; DUNWIND_REC_BUSY while being written.
 * @misc:	record-specific, 0 where not documented.
 * @size:	bytes including this header; a multiple of 8.  Readers skip
 *		records of unknown type by @size.
 */
struct dunwind_rec_header {
	__u32 type;
	__u16 misc;
	__u16 size;
};

/*
 * DUNWIND_REC_SAMPLE: one sample of the target, written by the overflow
 * handler (IRQ or NMI context).
 *
 *	struct dunwind_rec_sample {
 *		struct dunwind_rec_header hdr;
 *		__u64 cookie;		// 0: no user part will follow
 *		__u64 time;		// CLOCK_MONOTONIC ns
 *		__u32 pid, tid;		// in the init pid namespace
 *		__u32 cpu;
 *		__u32 flags;		// DUNWIND_SAMPLE_*
 *		__u64 user_ip;		// user IP at the sample; 0 if unknown
 *		__u64 period;		// ns of CPU time this sample stands for
 *					// (OFF_CPU: ns off CPU)
 *		__u16 nr_kernel;	// kernel IPs that follow
 *		__u16 __reserved0;
 *		__u32 __reserved1;
 *		__u64 ips[nr_kernel];	// kernel IPs, innermost first
 *	};
 *
 * An off-CPU sample (DUNWIND_SAMPLE_OFF_CPU) is written when the thread
 * is switched back in (@time, @cpu: then and there), or at STOP
 * (DUNWIND_SAMPLE_OFF_CPU_OPEN: it was still blocked; @period is the time
 * so far).  Its kernel IPs are those at the switch out, innermost first
 * from the scheduler's caller (__schedule); @user_ip is the user IP at
 * kernel entry.
 *
 * Every sample with a non-zero cookie has exactly one USER_STACK (or
 * SAMPLE_STACK, below) with the same cookie in the ring (before or after
 * it), unless it was lost (then a LOST record counts it).  Samples taken during one stay of a thread in
 * the kernel share one cookie; a later stay never gets it again, except
 * in a sample flagged DUNWIND_SAMPLE_EARLIER_STACK (its stack is that
 * cookie's, written before it).
 *
 * DUNWIND_REC_USER_STACK: the user stack for one cookie, written at the
 * thread's return to user space (task_work, faultable context).
 *
 *	struct dunwind_rec_user_stack {
 *		struct dunwind_rec_header hdr;
 *		__u64 cookie;
 *		__u64 time;		// CLOCK_MONOTONIC ns, end of the walk
 *		__u32 pid, tid;
 *		__u16 nr;		// user IPs that follow
 *		__u8  methods;		// DUNWIND_UNWIND_* used, or-ed (any of 8 bits)
 *		__u8  stop;		// enum dunwind_stop_reason
 *		__u16 nr_fp;		// frames recovered by frame pointers
 *		__u16 nr_sframe;	// frames recovered by SFrame
 *		__u64 ips[nr];		// ips[0]: IP at kernel entry, then
 *					// return addresses, innermost first
 *	};
 *
 * DUNWIND_REC_LOST: records dropped since the previous LOST record.
 *
 *	struct dunwind_rec_lost {
 *		struct dunwind_rec_header hdr;
 *		__u64 time;
 *		__u64 lost[8];		// by record type; [0] is the total
 *	};
 *
 * DUNWIND_REC_MMAP: a mapping of a target process, written before the
 * first USER_STACK with an IP in it (again after an exec, or if the
 * module's bounded memory of what it reported forgot it: readers keep
 * the latest for a range).
 *
 *	struct dunwind_rec_mmap {
 *		struct dunwind_rec_header hdr;	// misc: DUNWIND_MMAP_*
 *		__u64 time;
 *		__u32 pid;
 *		__u32 prot;		// PROT_READ | PROT_WRITE | PROT_EXEC
 *		__u64 start, end;	// [start, end) in the process
 *		__u64 pgoff;		// file offset of start, bytes
 *		__u64 ino;
 *		__u32 dev_major, dev_minor;
 *		__u32 build_id_size;	// 0: none found
 *		__u8  build_id[20];	// the file's GNU build-id
 *		char  path[];		// NUL-terminated, zero-padded to 8;
 *					// "//anon" for anonymous memory
 *	};
 *
 * DUNWIND_REC_COMM: a target thread's name: at START for every thread,
 * for a new thread, on prctl(PR_SET_NAME) and on exec (misc:
 * DUNWIND_COMM_EXEC: the process's earlier mappings are gone).
 *
 *	struct dunwind_rec_comm {
 *		struct dunwind_rec_header hdr;
 *		__u64 time;
 *		__u32 pid, tid;
 *		char comm[16];		// NUL-terminated
 *	};
 *
 * DUNWIND_REC_FORK: a new thread of a followed thread group, or with
 * DUNWIND_CFG_CHILDREN a new process (@pid differs from @ppid).
 * DUNWIND_REC_EXIT: a target thread exited.
 *
 *	struct dunwind_rec_task {
 *		struct dunwind_rec_header hdr;
 *		__u64 time;
 *		__u32 pid, tid;		// the new or exiting thread
 *		__u32 ppid, ptid;	// FORK: the creating thread; EXIT: 0
 *	};
 *
 * DUNWIND_REC_SAMPLE_STACK (with DUNWIND_CFG_SAMPLE_STACK): a SAMPLE and
 * the USER_STACK of its cookie in one record, written by the walk at the
 * return to user space, for a sample that interrupted user mode (so it
 * has no kernel IPs) while no other sample shares its cookie.  A later
 * sample of the same stay in the kernel (taken during the walk) comes as
 * a SAMPLE with the same cookie, answered by this record's stack; an
 * earlier one turns the first into a SAMPLE as well, and the walk writes
 * a USER_STACK.
 *
 *	struct dunwind_rec_sample_stack {
 *		struct dunwind_rec_header hdr;
 *		__u64 cookie;
 *		__u64 time;		// the sample's, as in SAMPLE
 *		__u32 pid, tid;
 *		__u32 cpu;
 *		__u32 flags;		// DUNWIND_SAMPLE_*, USER_MODE set
 *		__u64 period;
 *		__u16 nr;		// user IPs coded in @ips
 *		__u8  methods;		// as in USER_STACK
 *		__u8  stop;
 *		__u16 nr_fp;
 *		__u16 nr_sframe;
 *		__u8  ips[];		// nr IPs, each the zigzag LEB128 of its
 *					// difference from the IP before (the
 *					// first: from 0), then zero padding to
 *					// a multiple of 8 (at most 7 bytes)
 *	};
 *
 * The user IP at the sample is the first IP.  Zigzag: a difference d is
 * coded as (d << 1) ^ (d >> 63) (arithmetic shift); LEB128: 7 bits a
 * byte, least significant first, the top bit set on every byte but the
 * last; at most DUNWIND_IPCODE_MAX bytes an IP.  A dropped SAMPLE_STACK
 * counts in lost[] as one SAMPLE and one USER_STACK (2 in lost[0]).
 */
enum dunwind_rec_type {
	DUNWIND_REC_BUSY	= 0,
	DUNWIND_REC_SAMPLE	= 1,
	DUNWIND_REC_USER_STACK	= 2,
	DUNWIND_REC_LOST	= 3,
	DUNWIND_REC_MMAP	= 4,
	DUNWIND_REC_COMM	= 5,
	DUNWIND_REC_FORK	= 6,
	DUNWIND_REC_EXIT	= 7,
	DUNWIND_REC_MAX		= 8,	/* lost[] has this many slots */
	/* Not below DUNWIND_REC_MAX: lost[] counts it as SAMPLE + USER_STACK. */
	DUNWIND_REC_SAMPLE_STACK = 8,
};

struct dunwind_rec_sample {
	struct dunwind_rec_header hdr;
	__u64 cookie;
	__u64 time;
	__u32 pid;
	__u32 tid;
	__u32 cpu;
	__u32 flags;
	__u64 user_ip;
	__u64 period;
	__u16 nr_kernel;
	__u16 __reserved0;
	__u32 __reserved1;
	__u64 ips[];
};

/* The sample interrupted user mode: no kernel IPs, @user_ip is exact. */
#define DUNWIND_SAMPLE_USER_MODE	(1U << 0)
/* No user part: a kernel thread or a thread past its last return to user. */
#define DUNWIND_SAMPLE_NO_USER		(1U << 1)
/* The kernel stack was longer than max_kernel_frames. */
#define DUNWIND_SAMPLE_KERNEL_TRUNC	(1U << 2)
/* The thread was exiting when sampled. */
#define DUNWIND_SAMPLE_EXITING		(1U << 3)
/* The pending table was full: no user walk for this sample. */
#define DUNWIND_SAMPLE_PENDING_FULL	(1U << 4)
/* Taken in NMI (hardware events, DUNWIND_IOC_TEST_NMI). */
#define DUNWIND_SAMPLE_NMI		(1U << 5)
/* An off-CPU sample: @period is ns off CPU (DUNWIND_CFG_OFF_CPU). */
#define DUNWIND_SAMPLE_OFF_CPU		(1U << 6)
/* ... of a thread still blocked at STOP: the time so far. */
#define DUNWIND_SAMPLE_OFF_CPU_OPEN	(1U << 7)
/*
 * Of a kernel thread (the idle task, workers, io_uring and vhost workers):
 * it has no user part by nature (NO_USER is set too).
 */
#define DUNWIND_SAMPLE_KERNEL_THREAD	(1U << 8)
/*
 * Taken in the kernel, but kernel.perf_event_paranoid keeps kernel stacks
 * from this (unprivileged) session: @nr_kernel is 0.
 */
#define DUNWIND_SAMPLE_KERNEL_HIDDEN	(1U << 9)
/*
 * Taken while the thread ran this session's own deferred user walk (from
 * taking its pending slot to giving it back): the kernel part is
 * dunwind's work, not the program's; the cookie is the one being walked,
 * so the user part is where the program was.
 */
#define DUNWIND_SAMPLE_IN_WALK		(1U << 10)
/*
 * A sample whose cookie is that of an earlier stay of the same thread in
 * the kernel: its walk, replayed as it was taken (in a system call, or at
 * an off-CPU block's switch out), found the frames that cookie's
 * USER_STACK (or SAMPLE_STACK), written before this SAMPLE, holds.  No
 * USER_STACK comes for it; readers keep a thread's stacks for later
 * samples that name them.
 */
#define DUNWIND_SAMPLE_EARLIER_STACK	(1U << 11)

struct dunwind_rec_user_stack {
	struct dunwind_rec_header hdr;
	__u64 cookie;
	__u64 time;
	__u32 pid;
	__u32 tid;
	__u16 nr;
	__u8 methods;
	__u8 stop;
	__u16 nr_fp;
	__u16 nr_sframe;
	__u64 ips[];
};

struct dunwind_rec_sample_stack {
	struct dunwind_rec_header hdr;
	__u64 cookie;
	__u64 time;
	__u32 pid;
	__u32 tid;
	__u32 cpu;
	__u32 flags;
	__u64 period;
	__u16 nr;
	__u8 methods;
	__u8 stop;
	__u16 nr_fp;
	__u16 nr_sframe;
	__u8 ips[];
};

/* Bytes one IP of a SAMPLE_STACK can take. */
#define DUNWIND_IPCODE_MAX	10

/*
 * The unwind methods, one bit each in the @methods of USER_STACK and
 * SAMPLE_STACK: the methods that found at least one of its frames.  FP:
 * frame pointers; SFRAME: an SFrame table (the file's own .sframe or one
 * registered for it).  @methods has room for DUNWIND_UNWIND_NR methods;
 * bits above these are methods a later module adds (an interpreter's
 * frames...): readers keep them apart and never take them for these.
 * @nr_fp and @nr_sframe count the frames of FP and SFRAME only.
 */
#define DUNWIND_UNWIND_FP	(1U << 0)
#define DUNWIND_UNWIND_SFRAME	(1U << 1)
/* Interpreter frames (DUNWIND_IP_INTERP_TAG entries) are in the stack. */
#define DUNWIND_UNWIND_INTERP	(1U << 2)
#define DUNWIND_UNWIND_NR	8

/* Why a user walk ended. */
enum dunwind_stop_reason {
	/* The outermost frame: marked by the unwind info, _start, or a new thread's start. */
	DUNWIND_STOP_END	= 0,
	DUNWIND_STOP_MAX_DEPTH	= 1,	/* max_user_frames reached */
	DUNWIND_STOP_FAULT	= 2,	/* a stack read faulted */
	/* A frame not above the last, unaligned, outside the stack, or an IP not in user space. */
	DUNWIND_STOP_BAD_FRAME	= 3,
	DUNWIND_STOP_EXITED	= 4,	/* the thread exited or exec'd before its walk */
	DUNWIND_STOP_NO_MM	= 5,	/* no user address space */
	/* No method recovers the caller: a table without a rule, or no table and FP 0. */
	DUNWIND_STOP_NO_INFO	= 6,
	DUNWIND_STOP_SESSION	= 7,	/* the session ended first */
	DUNWIND_STOP_MAX	= 8,
};

struct dunwind_rec_lost {
	struct dunwind_rec_header hdr;
	__u64 time;
	__u64 lost[DUNWIND_REC_MAX];
};

struct dunwind_rec_mmap {
	struct dunwind_rec_header hdr;
	__u64 time;
	__u32 pid;
	__u32 prot;
	__u64 start;
	__u64 end;
	__u64 pgoff;
	__u64 ino;
	__u32 dev_major;
	__u32 dev_minor;
	__u32 build_id_size;
	__u8 build_id[20];
	char path[];
};

/* The mapped path was longer than DUNWIND_MMAP_PATH_MAX - 1 and was cut. */
#define DUNWIND_MMAP_PATH_TRUNC		(1U << 0)
/* The file is no longer reachable by its path (deleted or replaced). */
#define DUNWIND_MMAP_DELETED		(1U << 1)
#define DUNWIND_MMAP_PATH_MAX		1024

struct dunwind_rec_comm {
	struct dunwind_rec_header hdr;
	__u64 time;
	__u32 pid;
	__u32 tid;
	char comm[16];
};

#define DUNWIND_COMM_EXEC		(1U << 0)

struct dunwind_rec_task {
	struct dunwind_rec_header hdr;
	__u64 time;
	__u32 pid;
	__u32 tid;
	__u32 ppid;
	__u32 ptid;
};

/*
 * Interpreter frames (Documentation/python.rst).
 *
 * A descriptor tells a walk, as data, how to find the walked thread's
 * chain of interpreter frames and what to read from each frame: a short
 * program of steps from a base address (the interpreter's runtime, or the
 * thread's TLS base) to the newest frame, then the offsets of each frame's
 * code object, instruction pointer and previous frame, and the test that
 * marks the frame where one C-level call of the eval loop began.  No
 * interpreter code is needed to walk: CPython 3.11 to 3.14 differ only in
 * the numbers, and another interpreter (Ruby, Perl) would be more data.
 * lib/interp.c validates descriptors and walks them.
 */

/* Steps a program may have, loops it may nest, iterations a loop may take. */
#define DUNWIND_INTERP_MAX_STEPS	12
#define DUNWIND_INTERP_MAX_LOOPS	2
#define DUNWIND_INTERP_MAX_ITER		1024
/* Largest offset a step or a frame field may name (bytes). */
#define DUNWIND_INTERP_MAX_OFF		(1U << 20)
/* Bytes of a frame a walk reads at once: every frame field lies below this. */
#define DUNWIND_INTERP_FRAME_MAX	128

/*
 * One step of the program that finds the newest frame.  The walk keeps one
 * address, "cur"; each step changes it.
 *
 * DUNWIND_INTERP_OP_BASE: cur = base[@arg] + @imm (DUNWIND_INTERP_BASE_*).
 * DUNWIND_INTERP_OP_DEREF: cur = the 8-byte pointer at cur + @arg (8-aligned).
 *	A null pointer inside a loop goes on with the loop's next node;
 *	outside one it means "no frames" (the walk ends with none).
 * DUNWIND_INTERP_OP_EACH: cur is the first node of a list whose next
 *	pointer is at @arg (8-aligned); the steps that follow run for each
 *	node, at most @imm (1..DUNWIND_INTERP_MAX_ITER) nodes.
 * DUNWIND_INTERP_OP_MATCH: the @size-byte (4 or 8) value at cur + @arg
 *	(aligned to @size) must equal the key @flags names
 *	(DUNWIND_INTERP_KEY_*).  On a mismatch the innermost loop goes on
 *	with its next node; with no loop left the thread has no interpreter
 *	state.  A match ends every loop: cur is this thread's state.
 */
struct dunwind_interp_step {
	__u8 op;
	__u8 size;
	__u16 flags;
	__u32 arg;
	__s64 imm;
};

#define DUNWIND_INTERP_OP_BASE		1
#define DUNWIND_INTERP_OP_DEREF		2
#define DUNWIND_INTERP_OP_EACH		3
#define DUNWIND_INTERP_OP_MATCH		4

/* Bases the walker passes in (struct dunwind_interp_env). */
#define DUNWIND_INTERP_BASE_RUNTIME	0	/* load bias + @runtime_vaddr */
#define DUNWIND_INTERP_BASE_TLS		1	/* the thread's TLS base (%fs) */

/* Keys a MATCH compares with. */
#define DUNWIND_INTERP_KEY_TID		0	/* the thread's id (gettid()) */
#define DUNWIND_INTERP_KEY_TLS		1	/* its TLS base (glibc: pthread_self()) */

/*
 * struct dunwind_interp_desc - how to walk one interpreter's frames.
 *
 * @size:		sizeof(struct dunwind_interp_desc) as the caller knows it.
 * @flags:		must be zero.
 * @kind:		DUNWIND_INTERP_CPYTHON (informative: the walk is generic).
 * @version:		the interpreter's version, (major << 16 | minor << 8 |
 *			micro), informative.
 * @runtime_vaddr:	ELF virtual address of the runtime (CPython: _PyRuntime)
 *			in the file the descriptor is registered for.
 * @nr_steps:		steps used in @steps, 1..DUNWIND_INTERP_MAX_STEPS; the
 *			first is a BASE, every EACH is followed by a MATCH.
 * @steps:		the program; unused steps are zero.
 * @frame_code:		offset in a frame of the code object pointer.
 * @frame_prev:		of the previous (calling) frame's pointer.
 * @frame_insn:		of the instruction pointer.
 * @code_tag_mask:	low bits of the code pointer that are tags, cleared
 *			before use (CPython 3.14's _PyStackRef: 1); at most 7.
 * @code_insn:		offset in a code object of its first instruction;
 *			a frame's instruction offset is insn - (code + @code_insn).
 * @insn_align:		instructions are aligned to this (1, 2, 4 or 8).
 * @entry_off:		offset in a frame of the value the entry test reads.
 * @entry_size:		its size, 1, 2, 4 or 8, @entry_off aligned to it.
 * @entry_cmp:		DUNWIND_INTERP_CMP_EQ: the frame is an entry when
 *			(value & @entry_mask) == @entry_value; _GE: when
 *			(value & @entry_mask) >= @entry_value.
 * @entry_flags:	DUNWIND_INTERP_ENTRY_SHIM: an entry frame only marks the
 *			boundary and is not itself emitted (3.12+'s frame owned
 *			by the C stack); without it the entry frame is the
 *			outermost frame of its eval-loop call (3.11's is_entry).
 * @entry_mask, @entry_value: the test; @entry_mask non-zero and within
 *			@entry_size bytes, @entry_value within @entry_mask.
 * @__reserved*:	must be zero.
 *
 * Frame fields (@frame_*, @entry_off + @entry_size) lie within the first
 * DUNWIND_INTERP_FRAME_MAX bytes of a frame; pointers are 8-aligned.
 */
struct dunwind_interp_desc {
	__u32 size;
	__u32 flags;
	__u32 kind;
	__u32 version;
	__u64 runtime_vaddr;
	__u32 nr_steps;
	__u32 __reserved0;
	struct dunwind_interp_step steps[DUNWIND_INTERP_MAX_STEPS];
	__u32 frame_code;
	__u32 frame_prev;
	__u32 frame_insn;
	__u32 code_tag_mask;
	__u32 code_insn;
	__u32 insn_align;
	__u32 entry_off;
	__u8 entry_size;
	__u8 entry_cmp;
	__u16 entry_flags;
	__u64 entry_mask;
	__u64 entry_value;
	__u64 __reserved[4];
};
#define DUNWIND_INTERP_DESC_SIZE_VER0	304

#define DUNWIND_INTERP_CPYTHON		1

#define DUNWIND_INTERP_CMP_EQ		0
#define DUNWIND_INTERP_CMP_GE		1

#define DUNWIND_INTERP_ENTRY_SHIM	(1U << 0)

/*
 * One interpreter frame as a walk emits it: the code object's address and
 * the instruction's byte offset in it (negative before the first
 * instruction ran: CPython 3.11's prev_instr of a frame just pushed).
 * DUNWIND_INTERP_FRAME_ENTRY: the outermost frame of one C-level call of
 * the eval loop; the native frames of that call come after it.
 */
struct dunwind_interp_frame {
	__u64 code;
	__s32 insn;
	__u32 flags;
};

#define DUNWIND_INTERP_FRAME_ENTRY	(1U << 0)

/* Why an interpreter walk ended. */
enum dunwind_interp_stop {
	DUNWIND_INTERP_STOP_END		= 0,	/* the oldest frame: previous is null */
	DUNWIND_INTERP_STOP_NO_THREAD	= 1,	/* no interpreter state for this thread */
	DUNWIND_INTERP_STOP_MAX_DEPTH	= 2,	/* the caller's frame array is full */
	DUNWIND_INTERP_STOP_FAULT	= 3,	/* a read failed */
	/* A frame or pointer misaligned, a null code object, an instruction out of range. */
	DUNWIND_INTERP_STOP_BAD_FRAME	= 4,
	DUNWIND_INTERP_STOP_CYCLE	= 5,	/* the chain comes back to a frame */
	DUNWIND_INTERP_STOP_BOUND	= 6,	/* a loop or read budget ran out */
	DUNWIND_INTERP_STOP_MAX		= 7,
};

/*
 * Register an interpreter for a file, with DUNWIND_IOC_INTERP_REGISTER:
 * the walks of this session's threads then read the interpreter's frames
 * where the native walk meets its eval loop.
 *
 * @size:		sizeof(struct dunwind_interp_reg) as the caller knows it.
 * @flags:		must be zero.
 * @fd:			an open file descriptor of the ELF file (the executable
 *			or libpython); keyed by its (device, inode).
 * @build_id_size:	1..20; @build_id must equal the file's GNU build-id.
 * @nr_ranges:		1..DUNWIND_INTERP_MAX_RANGES ranges used in @ranges.
 * @ranges:		the eval loop's code, [start, end) as ELF virtual
 *			addresses of the file (CPython: _PyEval_EvalFrameDefault
 *			and its .cold part); start < end.
 * @text_vaddr, @text_offset: p_vaddr and p_offset of the PT_LOAD segment
 *			that holds the ranges: an IP at file offset O of a
 *			mapping is at virtual address O - @text_offset +
 *			@text_vaddr, and the file's load bias (run time minus
 *			virtual address) follows, for the runtime's address.
 * @desc:		user address of a struct dunwind_interp_desc ...
 * @desc_size:		... of this many bytes, at least
 *			DUNWIND_INTERP_DESC_SIZE_VER0 (a larger one has a zero
 *			tail); the module copies and validates it.
 * @__reserved*:	must be zero.
 * Any configured session, no privilege: the walks read only the walked
 * thread's own memory, in its own context, and only in this session.
 * Errors: EINVAL (not configured, flags, reserved, sizes, ranges, a
 * malformed descriptor); E2BIG (larger struct or descriptor with a
 * non-zero tail); EBADF; ENOEXEC (not an ELF file of this architecture);
 * ESTALE (build-id differs from the file's); EEXIST (this session
 * registered that file already); ENOSPC (DUNWIND_INTERP_MAX_FILES already);
 * EFAULT; ENOMEM.
 */
struct dunwind_interp_reg {
	__u32 size;
	__u32 flags;
	__s32 fd;
	__u32 build_id_size;
	__u8 build_id[20];
	__u32 nr_ranges;
	__u64 ranges[4][2];
	__u64 text_vaddr;
	__u64 text_offset;
	__u64 desc;
	__u32 desc_size;
	__u32 __reserved0;
	__u64 __reserved[2];
};
#define DUNWIND_INTERP_REG_SIZE_VER0	152
#define DUNWIND_INTERP_MAX_RANGES	4
/* Interpreter files one session may register. */
#define DUNWIND_INTERP_MAX_FILES	16

/*
 * Interpreter frames in a user stack.  A USER_STACK or SAMPLE_STACK whose
 * @methods has DUNWIND_UNWIND_INTERP may hold, among its IPs, entries
 * whose top 16 bits are DUNWIND_IP_INTERP_TAG: no user IP has them (user
 * addresses are below 2^56 on every architecture).  Bits 47..40 of such an
 * entry are its kind:
 *
 * DUNWIND_IP_INTERP_FRAME: one interpreter frame; the entry after it
 *	(always present) is the code object's address.  Bits 31..0: the
 *	instruction's byte offset in the code (signed, struct
 *	dunwind_interp_frame's @insn); bit 32: DUNWIND_INTERP_FRAME_ENTRY.
 * DUNWIND_IP_INTERP_STOP: the interpreter chain ended here for a reason
 *	other than its end: bits 7..0 are the enum dunwind_interp_stop.  No
 *	entry follows it.
 *
 * The frames of one C-level call of the eval loop follow (are outer to)
 * the native IP of that eval-loop frame, newest first, the call's entry
 * frame last; the native caller of the eval loop comes after them.  @nr
 * counts entries (a frame takes two), and so does max_user_frames.
 */
#define DUNWIND_IP_INTERP_TAG		0xfffeULL
#define DUNWIND_IP_INTERP_FRAME		1
#define DUNWIND_IP_INTERP_STOP		2
#define DUNWIND_IP_INTERP_KIND(e)	((((__u64)(e)) >> 40) & 0xff)
#define DUNWIND_IP_IS_INTERP(e)		((((__u64)(e)) >> 48) == DUNWIND_IP_INTERP_TAG)
#define DUNWIND_IP_INTERP(kind, payload) \
	((DUNWIND_IP_INTERP_TAG << 48) | ((__u64)(kind) << 40) | ((__u64)(payload) & 0xffffffffffULL))

#ifndef __KERNEL__
#define __DUNWIND_ASSERT(c, m) _Static_assert(c, m)
#else
#define __DUNWIND_ASSERT(c, m) static_assert(c, m)
#endif
__DUNWIND_ASSERT(sizeof(struct dunwind_config) == DUNWIND_CONFIG_SIZE_VER0, "config");
__DUNWIND_ASSERT(sizeof(struct dunwind_stats) == DUNWIND_STATS_SIZE_VER6, "stats");
__DUNWIND_ASSERT(sizeof(struct dunwind_sframe_reg) == DUNWIND_SFRAME_REG_SIZE_VER0, "reg");
__DUNWIND_ASSERT(sizeof(struct dunwind_sframe_none) == DUNWIND_SFRAME_NONE_SIZE_VER0, "none");
__DUNWIND_ASSERT(sizeof(struct dunwind_ksym) == DUNWIND_KSYM_SIZE_VER0, "ksym");
__DUNWIND_ASSERT(sizeof(struct dunwind_ring_ctrl) == 192, "ctrl");
__DUNWIND_ASSERT(__builtin_offsetof(struct dunwind_ring_ctrl, data_head) == 64, "head");
__DUNWIND_ASSERT(__builtin_offsetof(struct dunwind_ring_ctrl, data_tail) == 128, "tail");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_header) == 8, "header");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_sample) == 64, "sample");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_user_stack) == 40, "user_stack");
__DUNWIND_ASSERT(DUNWIND_UNWIND_NR == 8 * sizeof(((struct dunwind_rec_user_stack *)0)->methods),
		 "methods");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_lost) == 80, "lost");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_sample_stack) == 56, "sample_stack");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_mmap) == 88, "mmap");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_comm) == 40, "comm");
__DUNWIND_ASSERT(sizeof(struct dunwind_rec_task) == 32, "task");
__DUNWIND_ASSERT(sizeof(struct dunwind_interp_step) == 16, "interp step");
__DUNWIND_ASSERT(sizeof(struct dunwind_interp_desc) == DUNWIND_INTERP_DESC_SIZE_VER0,
		 "interp desc");
__DUNWIND_ASSERT(sizeof(struct dunwind_interp_frame) == 16, "interp frame");
__DUNWIND_ASSERT(sizeof(struct dunwind_interp_reg) == DUNWIND_INTERP_REG_SIZE_VER0, "interp reg");
#undef __DUNWIND_ASSERT

#endif /* _UAPI_LINUX_DUNWIND_H */
