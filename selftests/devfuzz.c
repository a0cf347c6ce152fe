// SPDX-License-Identifier: GPL-2.0
/* A seeded random fuzzer of /dev/dunwind's ioctls and mmap (see devfuzz.h). */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/dunwind.h>
#include "sframe/sframe_gen.h"
#include "sframe/sframe_reg.h"
#include "devfuzz.h"

#define NR_FILES	3
#define NR_MAPS		4
#define MMAP_CALL	0xffffffffU

struct fuzz {
	unsigned long long rnd;
	int fd[NR_FILES];
	void *map[NR_MAPS];
	size_t map_len[NR_MAPS];
	unsigned char buf[8192] __attribute__((aligned(8)));
	unsigned char *edge;		/* 8 bytes before a PROT_NONE page */
	unsigned int pages[NR_FILES];	/* ring pages of a configured file, else 0 */
	char exe[4096];			/* this program, which valid tables are for */
	struct dw_sframe_gen_result gen;	/* its table; none if gen.table is NULL */
	struct dw_sframe_reg_file id;	/* its build-id */
	unsigned char *table;		/* a copy of gen.table to spoil */
	struct dw_devfuzz_counts *c;
};

static unsigned long long rnd(struct fuzz *f)
{
	f->rnd ^= f->rnd << 13;
	f->rnd ^= f->rnd >> 7;
	f->rnd ^= f->rnd << 17;
	return f->rnd;
}

/* One of @n values, or a random one with probability 1/(@n + 1). */
static unsigned long long pick(struct fuzz *f, const unsigned long long *v, int n)
{
	unsigned long long i = rnd(f) % (unsigned long long)(n + 1);

	return i < (unsigned long long)n ? v[i] : rnd(f) >> (rnd(f) % 64);
}

/* The errnos Documentation/abi.rst names for the device's calls. */
static int documented(int err)
{
	static const int ok[] = { EINVAL, E2BIG, ENOTTY, EFAULT, EBUSY, ESRCH, ENOMEM, EPERM,
				  EBADF, ENOEXEC, ESTALE, ENOSPC, EEXIST, ENOENT, EOPNOTSUPP,
				  ENODEV, EIO, EACCES, EOVERFLOW };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (err == ok[i])
			return 1;
	return 0;
}

static void account(struct fuzz *f, unsigned int cmd, int ret)
{
	f->c->calls++;
	if (!ret) {
		f->c->ok++;
		return;
	}
	if (documented(errno))
		return;
	if (!f->c->unexpected++) {
		f->c->first_bad_cmd = cmd;
		f->c->first_bad_errno = errno;
	}
}

/* A user pointer: the buffer, NULL, a kernel address, or an unmapped one. */
static void *arg_ptr(struct fuzz *f)
{
	switch (rnd(f) % 16) {
	case 0:
		return NULL;
	case 1:
		return (void *)0xffffffff81000000UL;
	case 2:
		return (void *)0x10UL;
	case 3:
		return f->edge;		/* runs into an unmapped page */
	default:
		return f->buf;
	}
}

/* A valid config: this process, sampled, a small ring; 0 or more fields spoiled. */
static void fill_config(struct fuzz *f, struct dunwind_config *cfg)
{
	static const unsigned long long sizes[] = { DUNWIND_CONFIG_SIZE_VER0, 8, 4096 };
	static const unsigned long long freqs[] = { 0, 1, 10000, 100000, 1000000 };
	static const unsigned long long periods[] = { 0, 10000, 1ULL << 63 };
	static const unsigned long long pages[] = { 0, 3, DUNWIND_MAX_RING_PAGES,
						    DUNWIND_MAX_RING_PAGES * 2 };
	static const unsigned long long pids[] = { 0, 1, (unsigned long long)-1 };
	static const __u32 flags[] = { 0, DUNWIND_CFG_CHILDREN, DUNWIND_CFG_FP_ONLY,
				       DUNWIND_CFG_OFF_CPU, DUNWIND_CFG_SYSTEM_WIDE };
	int spoil = (int)(rnd(f) % 3);

	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->flags = flags[rnd(f) % 5];
	cfg->pid = (cfg->flags & DUNWIND_CFG_SYSTEM_WIDE) ? 0 : getpid();
	cfg->sample_freq = rnd(f) % 2 ? 999 : 4000;
	cfg->ring_pages = 1U << (rnd(f) % 5);
	while (spoil--) {
		switch (rnd(f) % 13) {
		case 0: cfg->size = (__u32)pick(f, sizes, 3); break;
		case 1: cfg->flags = (__u32)rnd(f); break;
		case 2: cfg->pid = (__s32)pick(f, pids, 3); break;
		case 3: cfg->tid = rnd(f) % 2 ? gettid() : (__s32)pick(f, pids, 3); break;
		case 4: cfg->sample_freq = pick(f, freqs, 5); break;
		case 5: cfg->sample_period = pick(f, periods, 3); break;
		case 6: cfg->max_user_frames = (__u32)(rnd(f) % 1100);
			cfg->max_kernel_frames = (__u32)(rnd(f) % 140); break;
		case 7: cfg->ring_pages = (__u32)pick(f, pages, 4); break;
		case 8: cfg->wakeup_bytes = (__u32)rnd(f);
			cfg->max_pending = 1U << (rnd(f) % 20); break;
		case 9: cfg->event = (__u32)(rnd(f) % 8); break;
		case 10: cfg->cpus = (__u64)(uintptr_t)arg_ptr(f);
			cfg->cpus_size = (__u32)(rnd(f) % 600); break;
		default: cfg->__reserved[0] = rnd(f); break;
		}
	}
}

static void do_config(struct fuzz *f, int i)
{
	struct dunwind_config *cfg = (void *)f->buf;
	int ret;

	fill_config(f, cfg);
	/* Beyond the struct: zero (accepted) or not (E2BIG). */
	memset(f->buf + sizeof(*cfg), rnd(f) % 8 ? 0 : 0x5a, 64);
	ret = ioctl(f->fd[i], DUNWIND_IOC_CONFIG, rnd(f) % 16 ? (void *)cfg : arg_ptr(f));
	account(f, DUNWIND_IOC_CONFIG, ret);
	if (!ret)
		f->pages[i] = cfg->ring_pages ? cfg->ring_pages : DUNWIND_DEFAULT_RING_PAGES;
}

/* A registration of random bytes with an SFrame header's magic. */
static void fill_random_reg(struct fuzz *f, struct dunwind_sframe_reg *reg)
{
	size_t i;

	reg->size = rnd(f) % 4 ? sizeof(*reg) : (__u32)rnd(f) % 200;
	reg->flags = rnd(f) % 4 ? 0 : (__u32)rnd(f) % 4;
	reg->build_id_size = (__u32)(rnd(f) % 4 ? 20 : rnd(f) % 40);
	for (i = 0; i < sizeof(reg->build_id); i++)
		reg->build_id[i] = (__u8)rnd(f);
	reg->table = (__u64)(uintptr_t)(rnd(f) % 2 ? f->buf + 512 : arg_ptr(f));
	reg->table_size = rnd(f) % 4 ? rnd(f) % 4096 : rnd(f);
	reg->sec_vaddr = rnd(f);
	for (i = 512; i < sizeof(f->buf); i++)
		f->buf[i] = (unsigned char)rnd(f);
	f->buf[512] = 0xe2;			/* SFrame magic, sometimes a version */
	f->buf[513] = 0xde;
	f->buf[514] = (unsigned char)(rnd(f) % 4);
}

/*
 * The valid registration of this program's generated table, with 0 to 2
 * parts spoiled: bytes of the table, its size, the build-id, the flags
 * (a pin), the section address.
 */
static void fill_valid_reg(struct fuzz *f, struct dunwind_sframe_reg *reg)
{
	size_t size = f->gen.table_size;
	int spoil = (int)(rnd(f) % 3);

	memcpy(f->table, f->gen.table, size);
	reg->size = sizeof(*reg);
	reg->build_id_size = f->id.build_id_size;
	memcpy(reg->build_id, f->id.build_id, f->id.build_id_size);
	reg->table = (__u64)(uintptr_t)f->table;
	reg->table_size = size;
	reg->sec_vaddr = f->gen.sec_vaddr;
	while (spoil--) {
		switch (rnd(f) % 6) {
		case 0: case 1:
			f->table[rnd(f) % size] ^= (unsigned char)(1U << (rnd(f) % 8));
			break;
		case 2:
			reg->table_size = rnd(f) % 2 ? rnd(f) % size : size + 1 + rnd(f) % 4096;
			break;
		case 3:
			reg->build_id[rnd(f) % 20] ^= 1;
			break;
		case 4:
			reg->flags = rnd(f) % 2 ? DUNWIND_REG_PIN : (__u32)rnd(f);
			break;
		default:
			reg->sec_vaddr += (rnd(f) % 2 ? -1LL : 1LL) * (long long)(rnd(f) % 65536);
			break;
		}
	}
}

static void do_register(struct fuzz *f, int fd)
{
	struct dunwind_sframe_reg *reg = (void *)f->buf;
	int self = open(f->exe, O_RDONLY | O_CLOEXEC), ret;
	int valid = f->table && rnd(f) % 2;

	memset(reg, 0, sizeof(*reg));
	if (valid)
		fill_valid_reg(f, reg);
	else
		fill_random_reg(f, reg);
	reg->fd = rnd(f) % 8 ? self : (__s32)rnd(f) % 64;
	ret = ioctl(fd, DUNWIND_IOC_SFRAME_REGISTER, reg);
	account(f, DUNWIND_IOC_SFRAME_REGISTER, ret);
	f->c->registered += !ret;
	f->c->valid_tables += valid;
	if (self >= 0)
		close(self);
}

/* This program's executable segment: p_vaddr, p_offset, size (first PT_LOAD with PF_X). */
static int exe_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	__u64 *t = arg;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum && !t[2]; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			t[0] = ph->p_vaddr;
			t[1] = ph->p_offset;
			t[2] = ph->p_memsz;
		}
	}
	return 1;	/* the executable only */
}

/* DUNWIND_IOC_KSYM: any address, kernel-like or not, sizes around VER0, bad pointers. */
static void do_ksym(struct fuzz *f, int fd)
{
	struct dunwind_ksym *k = (void *)f->buf;

	memset(k, 0, sizeof(*k) + 64);
	k->size = rnd(f) % 4 ? sizeof(*k) : (__u32)(rnd(f) % (sizeof(*k) + 64));
	k->flags = rnd(f) % 8 ? 0 : (__u32)rnd(f);
	k->addr = rnd(f) % 2 ? 0xffffffff80000000ULL + (rnd(f) % (1ULL << 30)) : rnd(f);
	account(f, DUNWIND_IOC_KSYM,
		ioctl(fd, DUNWIND_IOC_KSYM, rnd(f) % 8 ? (void *)k : arg_ptr(f)));
}

/*
 * A descriptor whose fields are each legal or random: validation refuses
 * most; the rest are walked over this process's memory whenever a sample
 * lands in its code (the whole executable segment is the "eval loop").
 */
static void fill_interp_desc(struct fuzz *f, struct dunwind_interp_desc *d)
{
	__u32 i;

	memset(d, 0, sizeof(*d));
	d->size = rnd(f) % 8 ? sizeof(*d) : (__u32)rnd(f) % 400;
	d->kind = rnd(f) % 8 ? DUNWIND_INTERP_CPYTHON : (__u32)rnd(f);
	d->runtime_vaddr = rnd(f) % 4 ? rnd(f) % (1U << 24) : rnd(f);
	d->nr_steps = 1 + (__u32)(rnd(f) % DUNWIND_INTERP_MAX_STEPS);
	for (i = 0; i < d->nr_steps; i++) {
		struct dunwind_interp_step *st = &d->steps[i];

		st->op = i ? 2 + (__u8)(rnd(f) % 3) : DUNWIND_INTERP_OP_BASE;
		st->arg = (__u32)(rnd(f) % 64) * 8;
		if (st->op == DUNWIND_INTERP_OP_BASE)
			st->arg = (__u32)(rnd(f) % 2);
		if (st->op == DUNWIND_INTERP_OP_EACH)
			st->imm = 1 + (__s64)(rnd(f) % DUNWIND_INTERP_MAX_ITER);
		if (st->op == DUNWIND_INTERP_OP_MATCH) {
			st->size = rnd(f) % 2 ? 8 : 4;
			st->flags = (__u16)(rnd(f) % 2);
		}
		if (!(rnd(f) % 16))
			st->imm = (__s64)rnd(f);
	}
	d->frame_code = (__u32)(rnd(f) % 16) * 8;
	d->frame_prev = (__u32)(rnd(f) % 16) * 8;
	d->frame_insn = (__u32)(rnd(f) % 16) * 8;
	d->code_insn = (__u32)(rnd(f) % 256);
	d->insn_align = 1U << (rnd(f) % 4);
	d->entry_size = (__u8)(1U << (rnd(f) % 4));
	d->entry_off = (__u32)(rnd(f) % 16) * 8;
	d->entry_mask = 1;
	d->entry_flags = (__u16)(rnd(f) % 2);
	if (!(rnd(f) % 8))
		d->entry_value = rnd(f);
}

static void do_interp(struct fuzz *f, int fd)
{
	struct dunwind_interp_reg *reg = (void *)f->buf;
	struct dunwind_interp_desc *d = (void *)(f->buf + 1024);
	__u64 text[3] = { 0 };
	int self = open(f->exe, O_RDONLY | O_CLOEXEC), ret;

	dl_iterate_phdr(exe_text, text);
	memset(reg, 0, sizeof(*reg));
	fill_interp_desc(f, d);
	reg->size = rnd(f) % 8 ? sizeof(*reg) : (__u32)rnd(f) % 300;
	reg->fd = rnd(f) % 8 ? self : (__s32)rnd(f) % 64;
	reg->build_id_size = f->id.build_id_size;
	memcpy(reg->build_id, f->id.build_id, sizeof(reg->build_id));
	if (!(rnd(f) % 8))
		reg->build_id[rnd(f) % 20] ^= 1;
	reg->nr_ranges = rnd(f) % 8 ? 1 : (__u32)rnd(f) % 6;
	reg->ranges[0][0] = text[0];
	reg->ranges[0][1] = rnd(f) % 8 ? text[0] + text[2] : rnd(f);
	reg->text_vaddr = text[0];
	reg->text_offset = text[1];
	reg->desc = (__u64)(uintptr_t)(rnd(f) % 8 ? (void *)d : arg_ptr(f));
	reg->desc_size = rnd(f) % 8 ? sizeof(*d) : (__u32)rnd(f) % 5000;
	ret = ioctl(fd, DUNWIND_IOC_INTERP_REGISTER, reg);
	account(f, DUNWIND_IOC_INTERP_REGISTER, ret);
	f->c->interps += !ret;
	if (self >= 0)
		close(self);
}

/*
 * This program's table, generated from its CFI as 'dunwind record' does,
 * for valid registrations.  Without it (no CFI, no build-id) the fuzzer
 * registers random tables only.
 */
static void gen_table(struct fuzz *f)
{
	struct dw_sframe_reg_opts ro = { .flags = DW_SFRAME_REG_NO_CACHE };
	struct dw_sframe_gen_opts go = { 0 };
	ssize_t n = readlink("/proc/self/exe", f->exe, sizeof(f->exe) - 1);

	if (n <= 0)
		return;
	f->exe[n] = 0;
	if (dw_sframe_gen(f->exe, &go, &f->gen))
		return;
	if (!f->gen.table_size || dw_sframe_register_file(-1, f->exe, &ro, &f->id) ||
	    !f->id.build_id_size || !(f->table = malloc(f->gen.table_size))) {
		dw_sframe_gen_free(&f->gen);
		return;
	}
}

static void do_mmap(struct fuzz *f, int i)
{
	static const int prots[] = { PROT_READ, PROT_READ | PROT_WRITE, PROT_WRITE, PROT_EXEC,
				     PROT_NONE };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = page * (f->pages[i] && rnd(f) % 4 ? f->pages[i] + 1 : rnd(f) % 70);
	off_t off = rnd(f) % 4 ? 0 : (off_t)(rnd(f) % 8) * sysconf(_SC_PAGESIZE);
	int slot = (int)(rnd(f) % NR_MAPS);
	struct dunwind_ring_ctrl *ctrl;
	void *p;

	if (f->map[slot]) {
		munmap(f->map[slot], f->map_len[slot]);
		f->map[slot] = NULL;
	}
	p = mmap(NULL, len, rnd(f) % 2 ? PROT_READ | PROT_WRITE : prots[rnd(f) % 5],
		 rnd(f) % 4 ? MAP_SHARED : MAP_PRIVATE, f->fd[i], off);
	account(f, MMAP_CALL, p == MAP_FAILED ? -1 : 0);
	if (p == MAP_FAILED)
		return;
	f->c->mapped++;
	f->map[slot] = p;
	f->map_len[slot] = len;
	ctrl = p;
	/* A hostile reader: any tail, behind, at or beyond the head. */
	if (mprotect(p, len, PROT_READ | PROT_WRITE) == 0 && rnd(f) % 2)
		__atomic_store_n(&ctrl->data_tail, rnd(f) % 2 ? rnd(f) :
				 ctrl->data_head + (rnd(f) % 3) * 8 - 8, __ATOMIC_RELEASE);
}

static void reopen(struct fuzz *f, int i)
{
	int m;

	for (m = 0; m < NR_MAPS; m++)
		if (f->map[m] && rnd(f) % 2) {
			munmap(f->map[m], f->map_len[m]);
			f->map[m] = NULL;
		}
	if (f->fd[i] >= 0)
		close(f->fd[i]);
	f->fd[i] = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	f->pages[i] = 0;
}

/* One random call on file @i. */
static void one_call(struct fuzz *f, int i)
{
	int fd = f->fd[i];
	struct dunwind_stats *st = (void *)f->buf;
	unsigned int cmd;
	struct pollfd p;
	int ret;

	switch (rnd(f) % 12) {
	case 0: case 1:
		do_config(f, i);
		break;
	case 2: case 3:
		ret = ioctl(fd, DUNWIND_IOC_START, rnd(f) % 8 ? NULL : arg_ptr(f));
		account(f, DUNWIND_IOC_START, ret);
		f->c->started += !ret;
		break;
	case 4:
		account(f, DUNWIND_IOC_STOP, ioctl(fd, DUNWIND_IOC_STOP, NULL));
		break;
	case 5:
		st->size = (__u32)(rnd(f) % 3 ? sizeof(*st) : rnd(f) % 300);
		account(f, DUNWIND_IOC_STATS, ioctl(fd, DUNWIND_IOC_STATS,
						    rnd(f) % 8 ? (void *)st : arg_ptr(f)));
		break;
	case 6:
		do_register(f, fd);
		break;
	case 7:
		if (rnd(f) % 2)
			do_ksym(f, fd);
		else
			account(f, DUNWIND_IOC_TEST_NMI, ioctl(fd, DUNWIND_IOC_TEST_NMI, NULL));
		break;
	case 8:
		cmd = rnd(f) % 2 ? _IO(DUNWIND_IOC_MAGIC, rnd(f) % 16) :
		      _IOC((unsigned int)rnd(f) % 4, DUNWIND_IOC_MAGIC, rnd(f) % 16,
			   rnd(f) % 256);
		account(f, cmd, ioctl(fd, cmd, arg_ptr(f)));
		break;
	case 9: case 10:
		do_mmap(f, i);
		break;
	case 11:
		do_interp(f, fd);
		break;
	default:
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		poll(&p, 1, 0);
		ret = (int)read(fd, f->buf, 64);	/* not a documented call: any answer */
		(void)ret;
		break;
	}
}

/**
 * dw_devfuzz_run() - @iters random calls on /dev/dunwind from @seed
 * Context: user space; opens, maps and closes the device, may sample itself.
 * Return: 0, or -errno if the device cannot be opened.
 */
int dw_devfuzz_run(unsigned long long seed, unsigned long iters, struct dw_devfuzz_counts *c)
{
	static struct fuzz f;
	unsigned char *guard;
	unsigned long it;
	size_t page;
	int i, ret;

	memset(&f, 0, sizeof(f));
	memset(c, 0, sizeof(*c));
	f.rnd = seed ? seed : 1;
	f.c = c;
	page = (size_t)sysconf(_SC_PAGESIZE);
	guard = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED)
		return -errno;
	mprotect(guard + page, page, PROT_NONE);
	f.edge = guard + page - 8;
	strcpy(f.exe, "/proc/self/exe");
	gen_table(&f);
	for (i = 0; i < NR_FILES; i++) {
		f.fd[i] = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
		if (f.fd[i] < 0) {
			ret = -errno;
			while (i--)
				close(f.fd[i]);
			munmap(guard, 2 * page);
			free(f.table);
			dw_sframe_gen_free(&f.gen);
			return ret;
		}
	}
	for (it = 0; it < iters; it++) {
		i = (int)(rnd(&f) % NR_FILES);
		if (rnd(&f) % 32 == 0 || f.fd[i] < 0)
			reopen(&f, i);
		if (f.fd[i] >= 0)
			one_call(&f, i);
	}
	for (i = 0; i < NR_MAPS; i++)
		if (f.map[i])
			munmap(f.map[i], f.map_len[i]);
	for (i = 0; i < NR_FILES; i++)
		if (f.fd[i] >= 0)
			close(f.fd[i]);
	munmap(guard, 2 * page);
	free(f.table);
	dw_sframe_gen_free(&f.gen);
	return 0;
}
