// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Interpreter frame walker shared by the kernel module and user space.
 * See interp.h and Documentation/python.rst.
 *
 * The same rules as sframe.c: no includes but lib/ and uapi headers, no
 * libc, no division; every read of the target goes through w->mem->read()
 * and is counted against DUNWIND_INTERP_MAX_READS, every loop has a bound.
 * Internally a stop reason travels as a positive int, 0 meaning "go on"
 * (so the program's own END is IP_EMPTY).
 */
#include "interp.h"

#define IP_EINVAL	(-DUNWIND_INTERP_EINVAL)
/* Internal stop: the thread's state says it has no frame (ends as END, empty). */
#define IP_EMPTY	(DUNWIND_INTERP_STOP_MAX + 1)

struct ip_walk {
	const struct dunwind_interp_desc *d;
	const struct dunwind_interp_env *env;
	const struct dunwind_interp_mem *mem;
	__u32 reads;
	int found;		/* a MATCH found this thread (or there is none) */
};

/* A loop of the program in progress: its EACH step and current node. */
struct ip_loop {
	__u32 step;
	__u32 iter;
	__u64 node;
};

/*
 * Little-endian loads, written byte by byte with constant shifts, which
 * compilers turn into one load (a frame's fields are read this way).
 */
static __u64 ip_le32(const __u8 *p)
{
	return (__u64)p[0] | (__u64)p[1] << 8 | (__u64)p[2] << 16 | (__u64)p[3] << 24;
}

static __u64 ip_le64(const __u8 *p)
{
	return ip_le32(p) | ip_le32(p + 4) << 32;
}

/* Little-endian load of @size (1, 2, 4 or 8) bytes. */
static __u64 ip_le(const __u8 *p, __u32 size)
{
	__u64 v = 0;
	__u32 i;

	if (size == 8)
		return ip_le64(p);
	if (size == 4)
		return ip_le32(p);
	for (i = size; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

static int ip_pow2_upto8(__u32 v)
{
	return v == 1 || v == 2 || v == 4 || v == 8;
}

static int ip_valid_step(const struct dunwind_interp_step *s, __u32 idx, __u32 *loops)
{
	switch (s->op) {
	case DUNWIND_INTERP_OP_BASE:
		return idx == 0 && !s->size && !s->flags && s->arg <= DUNWIND_INTERP_BASE_TLS;
	case DUNWIND_INTERP_OP_DEREF:
		return idx && !s->size && !s->flags && !s->imm && !(s->arg & 7) &&
		       s->arg <= DUNWIND_INTERP_MAX_OFF;
	case DUNWIND_INTERP_OP_EACH:
		if (!idx || s->size || s->flags || (s->arg & 7) || s->arg > DUNWIND_INTERP_MAX_OFF ||
		    s->imm < 1 || s->imm > DUNWIND_INTERP_MAX_ITER ||
		    *loops >= DUNWIND_INTERP_MAX_LOOPS)
			return 0;
		(*loops)++;
		return 1;
	case DUNWIND_INTERP_OP_MATCH:
		if (!idx || (s->size != 4 && s->size != 8) || s->flags > DUNWIND_INTERP_KEY_TLS ||
		    s->imm || (s->arg & (s->size - 1U)) || s->arg > DUNWIND_INTERP_MAX_OFF)
			return 0;
		*loops = 0;
		return 1;
	}
	return 0;
}

static int ip_valid_program(const struct dunwind_interp_desc *d)
{
	const struct dunwind_interp_step *s;
	__u32 i, loops = 0;

	if (d->nr_steps < 1 || d->nr_steps > DUNWIND_INTERP_MAX_STEPS)
		return 0;
	for (i = 0; i < DUNWIND_INTERP_MAX_STEPS; i++) {
		s = &d->steps[i];
		if (i >= d->nr_steps) {
			if (s->op || s->size || s->flags || s->arg || s->imm)
				return 0;
		} else if (!ip_valid_step(s, i, &loops)) {
			return 0;
		}
	}
	return loops == 0;
}

/* A pointer field of a frame: 8-aligned, inside the window read per frame. */
static int ip_valid_field(__u32 off)
{
	return !(off & 7) && off <= DUNWIND_INTERP_FRAME_MAX - 8;
}

static int ip_valid_frame(const struct dunwind_interp_desc *d)
{
	__u64 size_mask;

	if (!ip_valid_field(d->frame_code) || !ip_valid_field(d->frame_prev) ||
	    !ip_valid_field(d->frame_insn) || d->code_tag_mask > 7 ||
	    d->code_insn > DUNWIND_INTERP_MAX_OFF || !ip_pow2_upto8(d->insn_align))
		return 0;
	if (!ip_pow2_upto8(d->entry_size) || (d->entry_off & (d->entry_size - 1U)) ||
	    d->entry_off + d->entry_size > DUNWIND_INTERP_FRAME_MAX ||
	    d->entry_cmp > DUNWIND_INTERP_CMP_GE || (d->entry_flags & ~DUNWIND_INTERP_ENTRY_SHIM))
		return 0;
	size_mask = d->entry_size == 8 ? ~0ULL : (1ULL << (d->entry_size * 8)) - 1;
	return d->entry_mask && !(d->entry_mask & ~size_mask) &&
	       !(d->entry_value & ~d->entry_mask);
}

int dunwind_interp_validate(const struct dunwind_interp_desc *d)
{
	__u32 i;

	if (d->size < DUNWIND_INTERP_DESC_SIZE_VER0 || d->flags ||
	    d->kind != DUNWIND_INTERP_CPYTHON || d->__reserved0)
		return IP_EINVAL;
	for (i = 0; i < sizeof(d->__reserved) / sizeof(d->__reserved[0]); i++)
		if (d->__reserved[i])
			return IP_EINVAL;
	if (!ip_valid_program(d) || !ip_valid_frame(d))
		return IP_EINVAL;
	return 0;
}

/* Read @len bytes at @addr + @off: 0, or a stop reason. */
static int ip_read(struct ip_walk *w, __u64 addr, __u32 off, void *dst, __u32 len)
{
	__u64 at = addr + off;

	if (w->reads >= DUNWIND_INTERP_MAX_READS)
		return DUNWIND_INTERP_STOP_BOUND;
	w->reads++;
	if (at < addr || at + len < at)
		return DUNWIND_INTERP_STOP_FAULT;
	if (w->mem->read(w->mem->ctx, at, dst, len))
		return DUNWIND_INTERP_STOP_FAULT;
	return 0;
}

static int ip_read_u(struct ip_walk *w, __u64 addr, __u32 off, __u32 size, __u64 *v)
{
	__u64 b;
	int err;

	err = ip_read(w, addr, off, &b, size);
	if (!err)
		*v = ip_le((const __u8 *)&b, size);
	return err;
}

/*
 * ip_next() - go on with the innermost loop's next node (a mismatch, or a
 * null pointer inside a loop); a loop whose list ended gives way to the
 * loop around it.  Return: 0 with *@cur and *@pc set to resume, or a stop
 * reason (NO_THREAD once no loop is left).
 */
static int ip_next(struct ip_walk *w, struct ip_loop *loops, __u32 *nloops,
		   __u64 *cur, __u32 *pc)
{
	const struct dunwind_interp_step *s;
	struct ip_loop *l;
	__u64 next;
	int err;

	while (*nloops) {
		l = &loops[*nloops - 1];
		s = &w->d->steps[l->step];
		err = ip_read_u(w, l->node, s->arg, 8, &next);
		if (err)
			return err;
		if (!next) {
			(*nloops)--;
			continue;
		}
		if (l->iter >= (__u64)s->imm)
			return DUNWIND_INTERP_STOP_BOUND;
		l->iter++;
		l->node = next;
		*cur = next;
		*pc = l->step + 1;
		return 0;
	}
	return DUNWIND_INTERP_STOP_NO_THREAD;
}

/* A null pointer met by the program: next node, or the end of the walk. */
static int ip_null(struct ip_walk *w, struct ip_loop *loops, __u32 *nloops,
		   __u64 *cur, __u32 *pc)
{
	if (*nloops)
		return ip_next(w, loops, nloops, cur, pc);
	return w->found ? IP_EMPTY : DUNWIND_INTERP_STOP_NO_THREAD;
}

/* Run the program: 0 with *@frame the newest frame (non-null), or a stop reason. */
static int ip_find(struct ip_walk *w, __u64 *frame)
{
	struct ip_loop loops[DUNWIND_INTERP_MAX_LOOPS];
	const struct dunwind_interp_step *s;
	__u32 pc = 0, nloops = 0;
	__u64 cur = 0, v;
	int err = 0;

	while (pc < w->d->nr_steps && !err) {
		s = &w->d->steps[pc];
		switch (s->op) {
		case DUNWIND_INTERP_OP_BASE:
			cur = w->env->base[s->arg & 1] + (__u64)s->imm;
			pc++;
			break;
		case DUNWIND_INTERP_OP_DEREF:
			err = ip_read_u(w, cur, s->arg, 8, &cur);
			if (!err && !cur)
				err = ip_null(w, loops, &nloops, &cur, &pc);
			else if (!err)
				pc++;
			break;
		case DUNWIND_INTERP_OP_EACH:
			if (!cur) {
				err = ip_null(w, loops, &nloops, &cur, &pc);
				break;
			}
			if (nloops >= DUNWIND_INTERP_MAX_LOOPS)
				return DUNWIND_INTERP_STOP_BOUND;
			loops[nloops++] = (struct ip_loop){ .step = pc, .iter = 1, .node = cur };
			pc++;
			break;
		case DUNWIND_INTERP_OP_MATCH:
			err = ip_read_u(w, cur, s->arg, s->size, &v);
			if (err)
				break;
			if (v == (w->env->key[s->flags & 1] & (s->size == 8 ? ~0ULL : 0xffffffffULL))) {
				nloops = 0;
				w->found = 1;
				pc++;
			} else {
				err = ip_next(w, loops, &nloops, &cur, &pc);
			}
			break;
		default:
			return DUNWIND_INTERP_STOP_BOUND;
		}
	}
	if (err)
		return err;
	if (!cur)
		return w->found ? IP_EMPTY : DUNWIND_INTERP_STOP_NO_THREAD;
	*frame = cur;
	return 0;
}

static int ip_is_entry(const struct dunwind_interp_desc *d, const __u8 *buf)
{
	__u64 v = ip_le(buf + d->entry_off, d->entry_size) & d->entry_mask;

	if (d->entry_cmp == DUNWIND_INTERP_CMP_GE)
		return v >= d->entry_value;
	return v == d->entry_value;
}

/*
 * Bytes of a frame to read: up to the end of its last field, rounded up to
 * 8 (a frame is 8-aligned, so the bytes added lie in the page of that
 * field, and the read is whole words).
 */
static __u32 ip_window(const struct dunwind_interp_desc *d)
{
	__u32 end = d->entry_off + d->entry_size;

	if (d->frame_code + 8 > end)
		end = d->frame_code + 8;
	if (d->frame_prev + 8 > end)
		end = d->frame_prev + 8;
	if (d->frame_insn + 8 > end)
		end = d->frame_insn + 8;
	return (end + 7) & ~7U;
}

/* Check one frame's code object and instruction; fill @f.  0 or a stop reason. */
static int ip_frame(const struct dunwind_interp_desc *d, const __u8 *buf,
		    struct dunwind_interp_frame *f)
{
	__u64 code = ip_le64(buf + d->frame_code) & ~(__u64)d->code_tag_mask;
	__u64 insn = ip_le64(buf + d->frame_insn);
	__u64 first = code + d->code_insn;
	__u64 delta = insn - first;

	if (!code || (code & 7) || first < code || (insn & (d->insn_align - 1ULL)))
		return DUNWIND_INTERP_STOP_BAD_FRAME;
	if (delta + DUNWIND_INTERP_MIN_INSN >= (__u64)DUNWIND_INTERP_MAX_INSN + DUNWIND_INTERP_MIN_INSN)
		return DUNWIND_INTERP_STOP_BAD_FRAME;
	f->code = code;
	/* delta is in [-MIN_INSN, MAX_INSN): convert without an implementation-defined cast. */
	f->insn = delta >> 63 ? -(__s32)(~delta) - 1 : (__s32)delta;
	f->flags = 0;
	return 0;
}

/*
 * Follow the chain from @frame, newest first.  A cycle is caught with
 * Brent's method (a mark moved at powers of two), so a looping chain ends
 * as CYCLE rather than filling the array.
 */
static int ip_frames(struct ip_walk *w, __u64 frame, struct dunwind_interp_frame *out,
		     __u32 max, __u32 *nr)
{
	const struct dunwind_interp_desc *d = w->d;
	__u64 words[DUNWIND_INTERP_FRAME_MAX / 8];
	const __u8 *buf = (const __u8 *)words;
	__u32 win = ip_window(d), seen = 0, lam = 0, pow = 1;
	__u64 mark = frame;
	int err, entry;

	while (frame) {
		if (frame & 7)
			return DUNWIND_INTERP_STOP_BAD_FRAME;
		if (++seen > 2 * DUNWIND_INTERP_MAX_FRAMES)
			return DUNWIND_INTERP_STOP_BOUND;
		err = ip_read(w, frame, 0, words, win);
		if (err)
			return err;
		entry = ip_is_entry(d, buf);
		if (entry && (d->entry_flags & DUNWIND_INTERP_ENTRY_SHIM)) {
			if (*nr)
				out[*nr - 1].flags |= DUNWIND_INTERP_FRAME_ENTRY;
		} else {
			if (*nr >= max)
				return DUNWIND_INTERP_STOP_MAX_DEPTH;
			err = ip_frame(d, buf, &out[*nr]);
			if (err)
				return err;
			if (entry)
				out[*nr].flags |= DUNWIND_INTERP_FRAME_ENTRY;
			(*nr)++;
		}
		frame = ip_le64(buf + d->frame_prev);
		if (frame && frame == mark)
			return DUNWIND_INTERP_STOP_CYCLE;
		if (++lam == pow) {
			mark = frame;
			pow <<= 1;
			lam = 0;
		}
	}
	return DUNWIND_INTERP_STOP_END;
}

int dunwind_interp_walk_valid(const struct dunwind_interp_desc *d,
			      const struct dunwind_interp_env *env,
			      const struct dunwind_interp_mem *mem,
			      struct dunwind_interp_frame *out, __u32 max, __u32 *nr)
{
	struct ip_walk w = { .d = d, .env = env, .mem = mem };
	__u64 frame = 0;
	__u32 i;
	int err;

	*nr = 0;
	w.found = 1;
	for (i = 0; i < d->nr_steps; i++)
		if (d->steps[i].op == DUNWIND_INTERP_OP_MATCH)
			w.found = 0;
	if (max > DUNWIND_INTERP_MAX_FRAMES)
		max = DUNWIND_INTERP_MAX_FRAMES;
	err = ip_find(&w, &frame);
	if (err)
		return err == IP_EMPTY ? DUNWIND_INTERP_STOP_END : err;
	return ip_frames(&w, frame, out, max, nr);
}

int dunwind_interp_walk(const struct dunwind_interp_desc *d,
			const struct dunwind_interp_env *env,
			const struct dunwind_interp_mem *mem,
			struct dunwind_interp_frame *out, __u32 max, __u32 *nr)
{
	*nr = 0;
	if (dunwind_interp_validate(d))
		return IP_EINVAL;
	return dunwind_interp_walk_valid(d, env, mem, out, max, nr);
}
