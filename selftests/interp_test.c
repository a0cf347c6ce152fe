// SPDX-License-Identifier: GPL-2.0
/*
 * interp_test: interpreter frames in user stacks (Documentation/python.rst).
 * A child of the test builds a fake interpreter in its own memory (a
 * runtime, its interpreter list, thread states with the child's gettid(),
 * a chain of frames with code objects and instruction pointers: the
 * layout of lib/tests/interp_test.c, simplified) and spins in fake_eval(),
 * alone in its own section; the test registers its own executable with
 * that section as the eval loop and samples the child.  Stacks whose first
 * IP is in fake_eval() must carry the frames in order after each
 * fake_eval() IP, and go on natively through main() to libc.  Hostile chains (a cycle,
 * unmapped memory, a chain rewritten while walks run) end with STOP
 * entries; malformed registrations fail with their errno.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "records.h"
#include "ipcode.h"

#define FREQ		1000	/* Hz */
#define PROFILE_MS	3000
#define MAX_MS		15000
#define MIN_JUDGED	20

/* The fake interpreter's layout (the descriptor below names these offsets). */
struct fake_code {
	__u8 hdr[64];
	__u16 insn[32];
};
#define CODE_INSN	64

struct fake_frame {
	__u64 code;		/* 0 */
	__u64 prev;		/* 8 */
	__u64 insn;		/* 16 */
	__u8 entry;		/* 24 */
	__u8 pad[7];
};

struct fake_tstate {
	__u64 next;		/* 0 */
	__u64 tid;		/* 8 */
	__u64 frame;		/* 16 */
};

struct fake_interp {
	__u64 next;		/* 0 */
	__u64 threads;		/* 8 */
};

struct fake_runtime {
	__u64 pad;
	__u64 interp_head;	/* 8 */
};

#define MAX_FRAMES	16

static struct fake_runtime fake_rt;
static struct fake_interp fake_is;
static struct fake_tstate fake_ts[2];	/* a decoy, then the child's */
static struct fake_code fake_codes[MAX_FRAMES];
static struct fake_frame fake_frames[MAX_FRAMES];
static volatile int spin_forever = 1;
static int fake_level;		/* fake_eval()'s recursion in the child */

extern const char __start_fake_eval_text[], __stop_fake_eval_text[];

static void __attribute__((noinline)) fake_c_call(int level);

/*
 * The "eval loop": alone in its section, so that the section is its range.
 * @level > 0 calls back into itself through a C function (fake_c_call()).
 */
__attribute__((noinline, section("fake_eval_text")))
void fake_eval(int level)
{
	if (level > 0) {
		fake_c_call(level - 1);
		__asm__ volatile("" ::: "memory");	/* not a tail call */
		return;
	}
	while (spin_forever)
		__asm__ volatile("" ::: "memory");
}

static void __attribute__((noinline)) fake_c_call(int level)
{
	fake_eval(level);
	__asm__ volatile("" ::: "memory");
}

/*
 * A chain of @n frames, newest first in fake_frames[]; @entry[i] marks
 * frame i as the entry of its eval-loop call.  Frame i runs code i at
 * instruction 2 * i + 2.
 */
static void fake_chain(unsigned int n, const int *entry)
{
	unsigned int i;

	memset(fake_frames, 0, sizeof(fake_frames));
	for (i = 0; i < n; i++) {
		fake_frames[i].code = (__u64)(uintptr_t)&fake_codes[i];
		fake_frames[i].insn = (__u64)(uintptr_t)&fake_codes[i].insn[i + 1];
		fake_frames[i].prev = i + 1 < n ? (__u64)(uintptr_t)&fake_frames[i + 1] : 0;
		fake_frames[i].entry = entry[i];
	}
}

/* The runtime's lists, the second thread state the caller's (its gettid()). */
static void fake_runtime_setup(void)
{
	fake_rt.interp_head = (__u64)(uintptr_t)&fake_is;
	fake_is.threads = (__u64)(uintptr_t)&fake_ts[0];
	fake_ts[0].next = (__u64)(uintptr_t)&fake_ts[1];
	fake_ts[0].tid = 1;
	fake_ts[0].frame = 0;
	fake_ts[1].tid = gettid();
	fake_ts[1].frame = (__u64)(uintptr_t)&fake_frames[0];
}

/* What the test's own executable is, for the registration. */
struct self_elf {
	__u64 bias;
	__u64 text_vaddr, text_offset;	/* may be 0: aarch64's ld puts text first */
	__u8 build_id[20];
	__u32 build_id_size;
	int found;
	int text_found;			/* the PT_LOAD that holds fake_eval() */
};

static void self_note(struct self_elf *e, const char *p, size_t len)
{
	size_t off = 0;

	while (off + 12 <= len) {
		const __u32 *h = (const void *)(p + off);
		size_t name = (h[0] + 3) & ~3U, desc = (h[1] + 3) & ~3U;

		if (h[2] == 3 && h[0] == 4 && !memcmp(p + off + 12, "GNU", 4) && h[1] <= 20) {
			memcpy(e->build_id, p + off + 12 + name, h[1]);
			e->build_id_size = h[1];
		}
		off += 12 + name + desc;
	}
}

static int self_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	__u64 eval = (__u64)(uintptr_t)__start_fake_eval_text;
	struct self_elf *e = arg;
	int i;

	(void)size;
	if (e->found)
		return 0;
	e->found = 1;		/* the first object is the executable */
	e->bias = info->dlpi_addr;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		__u64 lo = e->bias + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && eval >= lo && eval < lo + ph->p_memsz) {
			e->text_vaddr = ph->p_vaddr;
			e->text_offset = ph->p_offset;
			e->text_found = 1;
		}
		if (ph->p_type == PT_NOTE)
			self_note(e, (const char *)(uintptr_t)lo, ph->p_filesz);
	}
	return 0;
}

static void desc_fake(struct dunwind_interp_desc *d)
{
	static const struct dunwind_interp_step prog[] = {
		{ .op = DUNWIND_INTERP_OP_BASE, .arg = DUNWIND_INTERP_BASE_RUNTIME },
		{ .op = DUNWIND_INTERP_OP_DEREF, .arg = 8 },
		{ .op = DUNWIND_INTERP_OP_EACH, .arg = 0, .imm = 4 },
		{ .op = DUNWIND_INTERP_OP_DEREF, .arg = 8 },
		{ .op = DUNWIND_INTERP_OP_EACH, .arg = 0, .imm = 16 },
		{ .op = DUNWIND_INTERP_OP_MATCH, .size = 8, .arg = 8,
		  .flags = DUNWIND_INTERP_KEY_TID },
		{ .op = DUNWIND_INTERP_OP_DEREF, .arg = 16 },
	};

	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	d->kind = DUNWIND_INTERP_CPYTHON;
	d->nr_steps = sizeof(prog) / sizeof(prog[0]);
	memcpy(d->steps, prog, sizeof(prog));
	d->frame_code = 0;
	d->frame_prev = 8;
	d->frame_insn = 16;
	d->code_insn = CODE_INSN;
	d->insn_align = 2;
	d->entry_off = 24;
	d->entry_size = 1;
	d->entry_mask = 1;
	d->entry_value = 1;
}

/* A registration of the test's executable, fake_eval_text its eval loop. */
struct reg_ctx {
	struct dunwind_interp_reg reg;
	struct dunwind_interp_desc desc;
	struct self_elf elf;
	int ret;
};

static int self_reg(struct reg_ctx *c)
{
	memset(c, 0, sizeof(*c));
	dl_iterate_phdr(self_phdr, &c->elf);
	if (!c->elf.build_id_size || !c->elf.text_found)
		return -ENOEXEC;
	desc_fake(&c->desc);
	c->desc.runtime_vaddr = (__u64)(uintptr_t)&fake_rt - c->elf.bias;
	c->reg.size = sizeof(c->reg);
	c->reg.fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (c->reg.fd < 0)
		return -errno;
	c->reg.build_id_size = c->elf.build_id_size;
	memcpy(c->reg.build_id, c->elf.build_id, c->elf.build_id_size);
	c->reg.nr_ranges = 1;
	c->reg.ranges[0][0] = (__u64)(uintptr_t)__start_fake_eval_text - c->elf.bias;
	c->reg.ranges[0][1] = (__u64)(uintptr_t)__stop_fake_eval_text - c->elf.bias;
	c->reg.text_vaddr = c->elf.text_vaddr;
	c->reg.text_offset = c->elf.text_offset;
	c->reg.desc = (__u64)(uintptr_t)&c->desc;
	c->reg.desc_size = sizeof(c->desc);
	return 0;
}

static int reg_hook(struct dw_session *s, void *arg)
{
	struct reg_ctx *c = arg;

	c->ret = ioctl(s->fd, DUNWIND_IOC_INTERP_REGISTER, &c->reg) ? -errno : 0;
	return c->ret;
}

/*
 * A child that runs @fn (its fake interpreter set up) until killed; NULL:
 * fake_eval(fake_level) on the chain built already.
 */
static pid_t child_start(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		fake_runtime_setup();
		if (fn)
			fn();
		else
			fake_eval(fake_level);
		_exit(0);
	}
	return pid;
}

static void child_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* One stack of a record, decoded: USER_STACK or SAMPLE_STACK. */
struct stack {
	__u64 ips[1024];
	unsigned int nr;
	__u8 methods, stop;
};

static int stack_of(const struct dunwind_rec_header *h, __u32 pid, struct stack *st)
{
	if (h->type == DUNWIND_REC_USER_STACK) {
		const struct dunwind_rec_user_stack *u = (const void *)h;

		if (u->pid != pid || u->nr > 1024)
			return 0;
		memcpy(st->ips, u->ips, u->nr * sizeof(__u64));
		st->nr = u->nr;
		st->methods = u->methods;
		st->stop = u->stop;
		return 1;
	}
	if (h->type == DUNWIND_REC_SAMPLE_STACK) {
		const struct dunwind_rec_sample_stack *ss = (const void *)h;

		if (ss->pid != pid || ss->nr > 1024 ||
		    dunwind_ipcode_decode(ss->ips, h->size - sizeof(*ss), st->ips, ss->nr) < 0)
			return 0;
		st->nr = ss->nr;
		st->methods = ss->methods;
		st->stop = ss->stop;
		return 1;
	}
	return 0;
}

static int in_eval(__u64 ip)
{
	return ip >= (__u64)(uintptr_t)__start_fake_eval_text &&
	       ip < (__u64)(uintptr_t)__stop_fake_eval_text;
}

/* Entries of frame @i of fake_frames[] (as the walk must emit them). */
static void want_frame(unsigned int i, __u64 *e)
{
	__u64 payload = (__u32)(2 * i + 2) | (__u64)fake_frames[i].entry << 32;

	e[0] = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_FRAME, payload);
	e[1] = fake_frames[i].code;
}

/*
 * Is @ip outside the test's executable?  Its native walk goes by frame
 * pointers; Debian's libc has none, so main's caller there (libc) is as
 * far towards the root as a walk gets without a table for libc.
 */
static int outside_exe(__u64 ip)
{
	Dl_info here, at;

	return dladdr((void *)fake_eval, &here) && dladdr((void *)(uintptr_t)ip, &at) &&
	       at.dli_fbase != here.dli_fbase;
}

/*
 * Does @st (first IP in fake_eval) hold, after its k-th fake_eval IP, the
 * frames from[k] .. from[k] + n[k] - 1 of fake_frames[], and go on with
 * native IPs through main to its caller in libc?
 */
static int stack_ok(const struct stack *st, unsigned int ncalls, const unsigned int *from,
		    const unsigned int *n)
{
	unsigned int i = 0, k = 0, j;
	__u64 e[2];

	/* The stop reason is the native walk's (x86_64: BAD_FRAME in libc). */
	if (!(st->methods & DUNWIND_UNWIND_INTERP))
		return 0;
	for (i = 0; i < st->nr; i++) {
		if (DUNWIND_IP_IS_INTERP(st->ips[i]))
			return 0;
		if (!in_eval(st->ips[i] - (i ? 1 : 0)))
			continue;
		if (k == ncalls)
			return 0;
		for (j = 0; j < n[k]; j++) {
			want_frame(from[k] + j, e);
			if (i + 2 >= st->nr || st->ips[i + 1] != e[0] || st->ips[i + 2] != e[1])
				return 0;
			i += 2;
		}
		k++;
	}
	if (k != ncalls)
		return 0;
	/*
	 * On past main() into libc: on x86_64 the frame-pointer walk stops
	 * there (Debian's libc has none); on arm64 libc's frame records take
	 * it on to _start, back in the executable.
	 */
	for (i = 0; i < st->nr; i++) {
		if (DUNWIND_IP_IS_INTERP(st->ips[i])) {
			/* Not a native IP, nor the code address after a frame's. */
			if (DUNWIND_IP_INTERP_KIND(st->ips[i]) == DUNWIND_IP_INTERP_FRAME)
				i++;
			continue;
		}
		if (outside_exe(st->ips[i]))
			return 1;
	}
	return 0;
}

/* Profile @pid with @c registered; 0 or -errno. */
static int profile(struct dw_records *r, pid_t pid, struct reg_ctx *c, __u32 flags)
{
	struct dw_records_opts o = {
		.ms = PROFILE_MS, .max_ms = MAX_MS, .min_samples = 200,
		.before_start = reg_hook, .arg = c,
	};
	struct dunwind_config cfg;

	memset(r, 0, sizeof(*r));
	dw_records_config(&cfg, pid, 0, FREQ);
	cfg.flags |= flags;
	return dw_records_profile_opts(r, &cfg, &o, NULL);
}

/* The first stack that is not as expected, for the log. */
static void stack_print(const struct stack *st)
{
	unsigned int i;

	printf("# a stack not as expected: methods %#x stop %u, %u entries:\n", st->methods,
	       st->stop, st->nr);
	for (i = 0; i < st->nr && i < 40; i++)
		printf("#   %2u %#018llx%s\n", i, (unsigned long long)st->ips[i],
		       in_eval(st->ips[i] - (i ? 1 : 0)) ? " fake_eval" : "");
}

/* Stacks of @pid with their first IP in fake_eval: judged, and how many pass. */
static void judge(const struct dw_records *r, pid_t pid, unsigned int ncalls,
		  const unsigned int *from, const unsigned int *n, size_t *judged, size_t *ok)
{
	static struct stack st;
	size_t i;

	*judged = *ok = 0;
	for (i = 0; i < r->n; i++) {
		if (!stack_of(r->v[i], pid, &st) || !st.nr || !in_eval(st.ips[0]))
			continue;
		(*judged)++;
		if (stack_ok(&st, ncalls, from, n))
			(*ok)++;
		else if (*judged - *ok == 1)
			stack_print(&st);
	}
}

/* The chains are built before the fork: the test checks against them. */
static void spin_one(void)
{
	static const int entry[] = { 0, 0, 0, 0, 1 };

	fake_chain(5, entry);
}

static void spin_two(void)
{
	static const int entry[] = { 0, 0, 1, 0, 1, 0 };

	/* Frames 0-2 belong to the inner call, 3-4 to the outer; 5 is dropped. */
	fake_chain(6, entry);
	fake_level = 1;
}

static void run_chain(struct __test_metadata *_metadata, void (*fn)(void), __u32 flags,
		      unsigned int ncalls, const unsigned int *from, const unsigned int *n)
{
	struct dw_records r;
	struct reg_ctx c;
	size_t judged, ok;
	pid_t pid;
	int ret;

	ASSERT_EQ(0, self_reg(&c));
	fn();
	pid = child_start(NULL);
	ASSERT_LT(0, pid);
	ret = profile(&r, pid, &c, flags);
	child_stop(pid);
	close(c.reg.fd);
	ASSERT_EQ(0, c.ret) TH_LOG("register: %s", strerror(-c.ret));
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	judge(&r, pid, ncalls, from, n, &judged, &ok);
	TH_LOG("%zu stacks in fake_eval, %zu with the exact chain, on to libc", judged, ok);
	EXPECT_GE(judged, MIN_JUDGED);
	EXPECT_GE(ok * 100, judged * 99);
	dw_records_free(&r);
}

TEST(one_eval_call_user_stack)
{
	static const unsigned int from[] = { 0 }, n[] = { 5 };

	run_chain(_metadata, spin_one, 0, 1, from, n);
}

TEST(one_eval_call_sample_stack)
{
	static const unsigned int from[] = { 0 }, n[] = { 5 };

	run_chain(_metadata, spin_one, DUNWIND_CFG_SAMPLE_STACK, 1, from, n);
}

TEST(two_eval_calls_split_at_entries)
{
	static const unsigned int from[] = { 0, 3 }, n[] = { 3, 2 };

	run_chain(_metadata, spin_two, 0, 2, from, n);
}

/*
 * Hostile chains: every stack in fake_eval has INTERP, its FRAME entries
 * each followed by a code address, and exactly one STOP entry with
 * @reason (or any reason when @reason is -1) after at most @max_frames.
 */
static void judge_stop(struct __test_metadata *_metadata, const struct dw_records *r, pid_t pid,
		       int reason, unsigned int max_frames)
{
	static struct stack st;
	size_t i, judged = 0, ok = 0;
	unsigned int j, frames, stops;

	for (i = 0; i < r->n; i++) {
		int good = 1;

		if (!stack_of(r->v[i], pid, &st) || !st.nr || !in_eval(st.ips[0]))
			continue;
		judged++;
		frames = stops = 0;
		for (j = 0; j < st.nr; j++) {
			__u64 e = st.ips[j];

			if (!DUNWIND_IP_IS_INTERP(e))
				continue;
			if (DUNWIND_IP_INTERP_KIND(e) == DUNWIND_IP_INTERP_FRAME) {
				frames++;
				good &= j + 1 < st.nr && !DUNWIND_IP_IS_INTERP(st.ips[j + 1]);
				j++;
			} else if (DUNWIND_IP_INTERP_KIND(e) == DUNWIND_IP_INTERP_STOP) {
				stops++;
				good &= reason < 0 ? (e & 0xff) < DUNWIND_INTERP_STOP_MAX &&
						     (e & 0xff) != DUNWIND_INTERP_STOP_END :
						     (e & 0xff) == (__u64)reason;
			} else {
				good = 0;
			}
		}
		good &= frames <= max_frames && stops <= 1 && (reason < 0 || stops == 1);
		good &= !!(st.methods & DUNWIND_UNWIND_INTERP) == !!(frames + stops);
		ok += good;
	}
	TH_LOG("%zu stacks in fake_eval, %zu as expected", judged, ok);
	EXPECT_GE(judged, MIN_JUDGED);
	EXPECT_EQ(judged, ok);
}

static void spin_cycle(void)
{
	static const int entry[] = { 0, 0, 0, 0 };

	fake_chain(4, entry);
	fake_frames[3].prev = (__u64)(uintptr_t)&fake_frames[1];
	fake_eval(0);
}

static void spin_unmapped(void)
{
	static const int entry[] = { 0, 0, 0 };
	void *gone = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	fake_chain(3, entry);
	munmap(gone, 4096);
	fake_frames[2].prev = (__u64)(uintptr_t)gone;
	fake_eval(0);
}

/* Rewrites the chain's links at random while the main thread spins. */
static void *rewriter(void *arg)
{
	unsigned int seed = 1;

	(void)arg;
	for (;;) {
		unsigned int i = rand_r(&seed) % MAX_FRAMES, to = rand_r(&seed) % (MAX_FRAMES + 2);
		__u64 v = to < MAX_FRAMES ? (__u64)(uintptr_t)&fake_frames[to] :
			  to == MAX_FRAMES ? 0 : (__u64)rand_r(&seed) << 16;

		__atomic_store_n(&fake_frames[i].prev, v, __ATOMIC_RELAXED);
		if (rand_r(&seed) % 4 == 0)
			__atomic_store_n(&fake_frames[i].insn, fake_frames[i].code + rand_r(&seed) % 200,
					 __ATOMIC_RELAXED);
		if (rand_r(&seed) % 8 == 0)
			__atomic_store_n(&fake_ts[1].frame, v, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void spin_rewritten(void)
{
	static const int entry[MAX_FRAMES] = { 0 };
	pthread_t t;

	fake_chain(MAX_FRAMES, entry);
	if (pthread_create(&t, NULL, rewriter, NULL))
		_exit(1);
	fake_eval(0);
}

static void run_hostile(struct __test_metadata *_metadata, void (*fn)(void), int reason,
			unsigned int max_frames)
{
	struct dw_records r;
	struct reg_ctx c;
	pid_t pid;
	int ret;

	ASSERT_EQ(0, self_reg(&c));
	pid = child_start(fn);
	ASSERT_LT(0, pid);
	ret = profile(&r, pid, &c, 0);
	child_stop(pid);
	close(c.reg.fd);
	ASSERT_EQ(0, c.ret) TH_LOG("register: %s", strerror(-c.ret));
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	judge_stop(_metadata, &r, pid, reason, max_frames);
	dw_records_free(&r);
}

TEST(cycle_ends_with_cycle)
{
	run_hostile(_metadata, spin_cycle, DUNWIND_INTERP_STOP_CYCLE, 8);
}

TEST(unmapped_frame_ends_with_fault)
{
	run_hostile(_metadata, spin_unmapped, DUNWIND_INTERP_STOP_FAULT, 3);
}

TEST(chain_rewritten_under_walks_is_bounded)
{
	run_hostile(_metadata, spin_rewritten, -1, 1024);
}

/* A configured session on ourselves, for the ioctl's errors. */
FIXTURE(ioc) {
	struct dw_session s;
	struct reg_ctx c;
};

FIXTURE_SETUP(ioc)
{
	struct dunwind_config cfg;

	dw_records_config(&cfg, getpid(), 0, FREQ);
	ASSERT_EQ(0, dw_session_open(&self->s, NULL, &cfg));
	ASSERT_EQ(0, self_reg(&self->c));
}

FIXTURE_TEARDOWN(ioc)
{
	close(self->c.reg.fd);
	dw_session_close(&self->s);
}

static int reg_errno(struct dw_session *s, void *reg)
{
	return ioctl(s->fd, DUNWIND_IOC_INTERP_REGISTER, reg) ? errno : 0;
}

TEST_F(ioc, registers_once_then_eexist)
{
	EXPECT_EQ(0, reg_errno(&self->s, &self->c.reg));
	EXPECT_EQ(EEXIST, reg_errno(&self->s, &self->c.reg));
}

TEST_F(ioc, malformed_descriptor_is_einval)
{
	self->c.desc.nr_steps = 0;
	EXPECT_EQ(EINVAL, reg_errno(&self->s, &self->c.reg));
	desc_fake(&self->c.desc);
	self->c.desc.frame_code = 4;		/* misaligned */
	EXPECT_EQ(EINVAL, reg_errno(&self->s, &self->c.reg));
	desc_fake(&self->c.desc);
	self->c.reg.ranges[0][1] = self->c.reg.ranges[0][0];	/* empty range */
	EXPECT_EQ(EINVAL, reg_errno(&self->s, &self->c.reg));
	/* Still registrable once right. */
	self->c.reg.ranges[0][1] = self->c.reg.ranges[0][0] + 16;
	EXPECT_EQ(0, reg_errno(&self->s, &self->c.reg));
}

TEST_F(ioc, other_build_id_is_estale)
{
	self->c.reg.build_id[0] ^= 0xff;
	EXPECT_EQ(ESTALE, reg_errno(&self->s, &self->c.reg));
}

TEST_F(ioc, nonzero_tail_is_e2big)
{
	struct {
		struct dunwind_interp_reg reg;
		__u64 tail;
	} big = { .reg = self->c.reg, .tail = 1 };

	big.reg.size = sizeof(big);
	EXPECT_EQ(E2BIG, reg_errno(&self->s, &big));
	big.tail = 0;
	EXPECT_EQ(0, reg_errno(&self->s, &big));
}

TEST_F(ioc, bad_fd_is_ebadf)
{
	self->c.reg.fd = -1;
	EXPECT_EQ(EBADF, reg_errno(&self->s, &self->c.reg));
	self->c.reg.fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);	/* for teardown */
}

TEST_F(ioc, not_elf_is_enoexec)
{
	char path[] = "/tmp/interp_test.XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "text\n", 5));
	unlink(path);
	close(self->c.reg.fd);
	self->c.reg.fd = fd;
	EXPECT_EQ(ENOEXEC, reg_errno(&self->s, &self->c.reg));
}

TEST(unconfigured_session_is_einval)
{
	struct reg_ctx c;
	int fd = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, self_reg(&c));
	EXPECT_EQ(-1, ioctl(fd, DUNWIND_IOC_INTERP_REGISTER, &c.reg));
	EXPECT_EQ(EINVAL, errno);
	close(c.reg.fd);
	close(fd);
}

TEST_HARNESS_MAIN
