// SPDX-License-Identifier: GPL-2.0
/*
 * Unwind rules for code without CFI, from its instructions: see gap_scan.h.
 *
 * Where a file's CFI has a gap, the code there is usually hand-written
 * glue: the parent's side of glibc's clone()/clone3() (the CFI ends before
 * the syscall; the child's part after it has its own FDE), or GCC's
 * crtstuff functions in every executable (__do_global_dtors_aux and its
 * kin, assembled without CFI).  Such code does little with the stack, so
 * its CFA is SP plus a height that follows from the instructions: +8 for
 * a push, -8 for a pop, the immediate of "sub/add $imm, %rsp", the height
 * "mov %rsp, %rbp" recorded for "leave" or "mov %rbp, %rsp".
 *
 * An entry is where the height is known: 8 (the return address only) at a
 * function's first instruction, which is taken to be the first instruction
 * after alignment padding (a run of nops or int3), or the gap's first
 * byte when the caller knows it is one: the start of an executable
 * section (.init's _init, .fini's _fini), or code that the code before
 * may run on into but whose CFI ends with that same state (CFA = SP + 8,
 * FP not saved) so that both readings agree.  Every path is
 * followed from each entry.  The gap is left alone (-ENOENT) at the first
 * instruction outside the list below, an instruction reached with two
 * states, a ret whose height is not 8, a write to SP other than the known
 * forms, or a store through SP or FP (it could overwrite a saved slot).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sframe/gap_insn.h"
#include "sframe/gap_scan.h"

#define GAP_MAX_BYTES	4096		/* larger gaps are not glue: left alone */
#define GAP_MAX_HEIGHT	4096

/* The state before an instruction: CFA = SP + @h; 0 in @h: not reached. */
struct gap_state {
	int h;
	int fp_saved;		/* the caller's FP is at CFA - @fp_saved; 0: in rbp */
	int fp_h;		/* rbp = CFA - @fp_h (mov %rsp, %rbp); 0: unknown */
	unsigned int len;	/* of the instruction starting here */
};

struct gap_walk {
	const __u8 *code;
	size_t size;
	struct gap_state *st;
	size_t *todo;		/* offsets reached, not yet decoded */
	size_t ntodo;
};

/* Reach offset @at with state @s: a new one is queued, a different one fails. */
static int gap_reach(struct gap_walk *w, size_t at, const struct gap_state *s)
{
	struct gap_state *t = &w->st[at];

	if (t->h)
		return t->h == s->h && t->fp_saved == s->fp_saved && t->fp_h == s->fp_h ? 0 : -1;
	t->h = s->h;
	t->fp_saved = s->fp_saved;
	t->fp_h = s->fp_h;
	w->todo[w->ntodo++] = at;
	return 0;
}

/* The state after @in at a state @s.  0, or -1 if not known. */
static int gap_step(const struct dw_gap_insn *in, struct gap_state *s)
{
	switch (in->kind) {
	case GI_PUSH_FP:
		s->h += 8;
		if (!s->fp_saved)
			s->fp_saved = s->h;
		return 0;
	case GI_POP_FP:
		if (s->fp_saved != s->h)
			return -1;
		s->fp_saved = 0;
		s->fp_h = 0;
		s->h -= 8;
		return s->h >= 8 ? 0 : -1;
	case GI_SP_ADD:
		if (in->imm & 7 || s->h + in->imm < 8 || s->h + in->imm > GAP_MAX_HEIGHT)
			return -1;
		s->h += (int)in->imm;
		return s->fp_saved > s->h ? -1 : 0;
	case GI_SET_FP:
		s->fp_h = s->h;
		return 0;
	case GI_FP_CLOBBER:
		s->fp_h = 0;
		return 0;
	case GI_SP_FROM_FP:
	case GI_LEAVE:
		if (!s->fp_h)
			return -1;
		s->h = s->fp_h;
		if (in->kind == GI_LEAVE) {
			in = &(struct dw_gap_insn){ .kind = GI_POP_FP };
			return gap_step(in, s);
		}
		return 0;
	default:
		return 0;
	}
}

/* Follow every path from the queued offsets.  0, or -1 to leave the gap. */
static int gap_follow(struct gap_walk *w)
{
	struct dw_gap_insn in;
	struct gap_state s;
	size_t at, next, k;
	long long to;

	while (w->ntodo) {
		at = w->todo[--w->ntodo];
		s = w->st[at];
		if (dw_gap_decode(w->code + at, w->size - at, &in) || gap_step(&in, &s))
			return -1;
		w->st[at].len = in.len;
		next = at + in.len;
		/* A jump into the middle of an instruction: two readings of the bytes. */
		for (k = at + 1; k < next; k++)
			if (w->st[k].h)
				return -1;
		if (in.kind == GI_RET && (s.h != 8 || s.fp_saved))
			return -1;
		if (in.has_rel) {
			to = (long long)next + in.rel;
			if (to >= 0 && (size_t)to < w->size && gap_reach(w, (size_t)to, &s))
				return -1;
		}
		if (in.kind == GI_RET || in.kind == GI_JMP || in.kind == GI_END || next >= w->size)
			continue;
		if (gap_reach(w, next, &s))
			return -1;
	}
	return 0;
}

/* The next function entry at or after @at: after padding, not reached yet. */
static size_t gap_next_entry(const struct gap_walk *w, size_t at, int padded)
{
	int nop, len;

	while (at < w->size) {
		if (w->st[at].h) {
			at += w->st[at].len;
			padded = 0;
			continue;
		}
		/* Code not reached from an entry and not after padding: left out. */
		len = dw_gap_insn_len(w->code + at, w->size - at, &nop);
		if (len < 0 || !nop)
			return padded ? at : w->size;
		at += (size_t)len;
		padded = 1;
	}
	return w->size;
}

/* The rows of the reached instructions, by address. */
static int gap_rows(const struct gap_walk *w, __u64 lo, struct dw_gap_scan *out)
{
	size_t at, n = 0;

	for (at = 0; at < w->size; at++)
		n += !!w->st[at].h;
	out->rows = calloc(n ? n : 1, sizeof(*out->rows));
	if (!out->rows)
		return -ENOMEM;
	for (at = 0; at < w->size; at++) {
		const struct gap_state *s = &w->st[at];
		struct dw_gap_row *r;

		if (!s->h)
			continue;
		r = &out->rows[out->nrows++];
		r->lo = lo + at;
		r->hi = lo + at + s->len;
		r->rule.why = -1;
		r->rule.cfa_reg = CFI_REG_SP;
		r->rule.cfa_off = s->h;
		r->rule.fp_saved = !!s->fp_saved;
		r->rule.fp_off = -s->fp_saved;
	}
	return 0;
}

/**
 * dw_gap_scan() - rules for the code of [lo, hi), which has no CFI
 * @code:	its bytes
 * @lo, @hi:	its addresses
 * @entry:	the gap's first byte is a function's entry: the start of an
 *		executable section (no code runs on into another section), or
 *		the code before it may run on into it but its CFI ends with
 *		CFA = SP + 8, FP not saved, the same state
 * @out:	set: the rows (none if the gap is left alone)
 *
 * Context: user space.
 * Return: 0 with @out set; -ENOENT if the gap is left alone (see the head
 * of this file); -ENOMEM.
 */
int dw_gap_scan(const __u8 *code, __u64 lo, __u64 hi, int entry,
		struct dw_gap_scan *out)
{
	static const struct gap_state at_entry = { .h = 8 };
	struct gap_walk w = { .code = code, .size = hi - lo };
	size_t at;
	int err = -ENOENT, nop;

	memset(out, 0, sizeof(*out));
	if (hi <= lo || hi - lo > GAP_MAX_BYTES)
		return -ENOENT;
	w.st = calloc(w.size, sizeof(*w.st));
	w.todo = calloc(w.size, sizeof(*w.todo));
	if (!w.st || !w.todo) {
		err = -ENOMEM;
		goto out;
	}
	/* Real code at @lo: an entry only if the caller knows it is one. */
	if (dw_gap_insn_len(code, w.size, &nop) < 0 || (!nop && !entry))
		goto out;
	for (at = nop ? gap_next_entry(&w, 0, 0) : 0; at < w.size;
	     at = gap_next_entry(&w, at, 0)) {
		if (gap_reach(&w, at, &at_entry) || gap_follow(&w))
			goto out;
	}
	err = gap_rows(&w, lo, out);
out:
	free(w.st);
	free(w.todo);
	return err;
}

/**
 * dw_gap_scan_free() - release a scan's rows
 * @s:	the scan (may be zeroed)
 *
 * Context: user space.
 */
void dw_gap_scan_free(struct dw_gap_scan *s)
{
	free(s->rows);
	s->rows = NULL;
	s->nrows = 0;
}
