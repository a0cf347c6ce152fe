// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SFrame decoder shared by the kernel module and user space (sframe.h).
 * It builds in the kernel, in user space and freestanding: no includes but
 * lib/ headers, no libc, no division, no floating point; every loop is
 * bounded by a count checked against the section size; every table byte
 * comes through t->src.read().
 */
#include "sframe.h"
#include "arch.h"
#include "le.h"

#define E(x)	(-DUNWIND_SFRAME_##x)

/*
 * sf_read() - read @len bytes at section offset @off, which must lie in
 * [0, @limit).  Return: 0, -EFAULT if out of bounds, or the callback's error.
 */
static int sf_read(const struct dunwind_sframe_src *src, __u64 off, void *dst, __u32 len,
		   __u64 limit)
{
	int err;

	if (limit > src->size || off > limit || len > limit - off)
		return E(EFAULT);
	if (!len)
		return 0;
	err = src->read(src->ctx, off, dst, len);
	if (err > 0)
		err = E(EFAULT);
	return err;
}

/*
 * sf_add() - *res = base + off (signed) without wrapping a 64-bit address.
 * Return: 0, or -EINVAL when the result leaves [0, 2^64).
 */
static int sf_add(__u64 base, __s64 off, __u64 *res)
{
	__u64 mag;

	if (off >= 0) {
		mag = (__u64)off;
		if (base + mag < base)
			return E(EINVAL);
		*res = base + mag;
		return 0;
	}
	mag = (__u64)(-(off + 1)) + 1;
	if (mag > base)
		return E(EINVAL);
	*res = base - mag;
	return 0;
}

/* a % b for b != 0 by shift-and-subtract (no division instruction). */
static __u32 sf_umod(__u32 a, __u32 b)
{
	__u64 r = 0;
	int i;

	for (i = 31; i >= 0; i--) {
		r = (r << 1) | ((a >> i) & 1);
		if (r >= b)
			r -= b;
	}
	return (__u32)r;
}

static __u8 sf_flags_allowed(__u8 version)
{
	switch (version) {
	case DUNWIND_SFRAME_V1:
		return DUNWIND_SFRAME_F_FDE_SORTED | DUNWIND_SFRAME_F_FRAME_POINTER;
	case DUNWIND_SFRAME_V2:
		return DUNWIND_SFRAME_F_FDE_SORTED | DUNWIND_SFRAME_F_FRAME_POINTER |
		       DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL;
	default:
		return DUNWIND_SFRAME_F_FDE_SORTED | DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL;
	}
}

/**
 * dunwind_sframe_open() - check an SFrame header and prepare lookups.
 * @t:		table to fill; only valid after a 0 return.
 * @src:	section bytes (copied into @t).
 * @sec_vaddr:	run-time address of the section's first byte; function start
 *		addresses are computed relative to it.
 *
 * Context: any; calls src->read (may sleep if the callback does).  Only the
 * header is read; FDEs and FREs are checked by dunwind_sframe_validate() or,
 * one at a time, when a lookup reads them.
 * Return: 0; -EINVAL for a malformed header (bad magic, unknown flags, sub-
 * sections out of the section or overlapping, counts that cannot fit);
 * -EOPNOTSUPP for a well-formed header of another ABI than the one built
 * for (lib/arch.h), big-endian section or unknown version; -EFAULT or the
 * callback's error when the header cannot be read.
 */
int dunwind_sframe_open(struct dunwind_sframe_table *t, const struct dunwind_sframe_src *src,
			__u64 sec_vaddr)
{
	return dunwind_sframe_open_abi(t, src, sec_vaddr, DUNWIND_ARCH_SFRAME_ABI);
}

/*
 * The ABI's registers, and whether its header is complete: AMD64 never
 * tracks the RA per row (the header gives its slot); AArch64 tracks it
 * (or has it in x30) and may track the FP.  Return: 0, -EINVAL for a
 * header the ABI cannot have.
 */
static int sf_abi_regs(struct dunwind_sframe_table *t)
{
	if (t->abi == DUNWIND_SFRAME_ABI_AARCH64_LE) {
		t->reg_sp = DUNWIND_SFRAME_A64_REG_SP;
		t->reg_fp = DUNWIND_SFRAME_A64_REG_FP;
		t->reg_ra = DUNWIND_SFRAME_A64_REG_LR;
		return 0;
	}
	t->reg_sp = DUNWIND_SFRAME_REG_SP;
	t->reg_fp = DUNWIND_SFRAME_REG_FP;
	t->reg_ra = 0xff;
	return t->fixed_ra ? 0 : E(EINVAL);
}

/**
 * dunwind_sframe_open_abi() - dunwind_sframe_open() of a table of @abi.
 * @t, @src, @sec_vaddr: as for dunwind_sframe_open().
 * @abi:	DUNWIND_SFRAME_ABI_AMD64_LE or DUNWIND_SFRAME_ABI_AARCH64_LE: the
 *		one table ABI accepted (a tool that reads another machine's
 *		files, the host tests); any other is -EOPNOTSUPP.
 *
 * Context: any; calls src->read.
 * Return: as dunwind_sframe_open().
 */
int dunwind_sframe_open_abi(struct dunwind_sframe_table *t, const struct dunwind_sframe_src *src,
			    __u64 sec_vaddr, __u8 abi)
{
	__u8 h[DUNWIND_SFRAME_HDR_SIZE];
	__u32 magic, fdeoff, freoff;
	__u64 fde_end, fre_end, min_fre;
	int err;

	if (!t || !src || !src->read)
		return E(EINVAL);
	t->src = *src;
	t->sec_vaddr = sec_vaddr;
	if (src->size < DUNWIND_SFRAME_HDR_SIZE)
		return E(EINVAL);
	err = sf_read(src, 0, h, sizeof(h), src->size);
	if (err)
		return err;
	magic = dunwind_le16(h);
	if (magic == 0xe2de)		/* big-endian section */
		return E(EOPNOTSUPP);
	if (magic != DUNWIND_SFRAME_MAGIC)
		return E(EINVAL);
	t->version = h[2];
	if (t->version < DUNWIND_SFRAME_V1 || t->version > DUNWIND_SFRAME_V3)
		return E(EOPNOTSUPP);
	t->flags = h[3];
	t->abi = h[4];
	if (t->abi != abi || (abi != DUNWIND_SFRAME_ABI_AMD64_LE &&
			      abi != DUNWIND_SFRAME_ABI_AARCH64_LE))
		return t->abi && t->abi <= DUNWIND_SFRAME_ABI_S390X_BE ? E(EOPNOTSUPP) : E(EINVAL);
	if (t->flags & ~sf_flags_allowed(t->version))
		return E(EINVAL);
	t->fixed_fp = (__s8)h[5];
	t->fixed_ra = (__s8)h[6];
	err = sf_abi_regs(t);
	if (err)
		return err;
	t->auxhdr_len = h[7];
	t->num_fdes = dunwind_le32(h + 8);
	t->num_fres = dunwind_le32(h + 12);
	t->fre_len = dunwind_le32(h + 16);
	fdeoff = dunwind_le32(h + 20);
	freoff = dunwind_le32(h + 24);
	t->fde_size = t->version == DUNWIND_SFRAME_V1 ? DUNWIND_SFRAME_FDE_V1_SIZE :
		      t->version == DUNWIND_SFRAME_V2 ? DUNWIND_SFRAME_FDE_V2_SIZE :
		      DUNWIND_SFRAME_FDE_V3_SIZE;
	t->ext = 0;
	t->hdr_len = DUNWIND_SFRAME_HDR_SIZE + (__u32)t->auxhdr_len;
	if (t->hdr_len > src->size)
		return E(EINVAL);
	/* All in 64 bits: 2^32 * 20 + 2^33 cannot wrap. */
	t->fde_off = (__u64)t->hdr_len + fdeoff;
	t->fre_off = (__u64)t->hdr_len + freoff;
	fde_end = t->fde_off + (__u64)t->num_fdes * t->fde_size;
	fre_end = t->fre_off + t->fre_len;
	if (fde_end > src->size || fre_end > src->size)
		return E(EINVAL);
	if (t->num_fdes && t->fre_len && fde_end > t->fre_off && fre_end > t->fde_off)
		return E(EINVAL);
	/* Each FRE is at least 2 bytes; each v3 FDE has 5 attribute bytes. */
	min_fre = (__u64)t->num_fres * 2;
	if (t->version == DUNWIND_SFRAME_V3)
		min_fre += (__u64)t->num_fdes * DUNWIND_SFRAME_ATTR_V3_SIZE;
	if (min_fre > t->fre_len)
		return E(EINVAL);
	return 0;
}

/**
 * dunwind_sframe_get_fde() - decode FDE number @idx.
 * @t:		opened table.
 * @idx:	0 .. t->num_fdes - 1.
 * @fde:	result.
 *
 * Context: any; calls src->read.  Checks what one FDE can say about itself:
 * FRE type, FDE type, repetition size, FREs inside the FRE sub-section,
 * address arithmetic without wrap.
 * Return: 0; -EINVAL for a bad index or malformed FDE; -EOPNOTSUPP for an
 * unknown v3 FDE type; -EFAULT or the callback's error on a failed read.
 */
int dunwind_sframe_get_fde(const struct dunwind_sframe_table *t, __u32 idx,
			   struct dunwind_sframe_fde *fde)
{
	__u8 b[DUNWIND_SFRAME_FDE_V2_SIZE];
	__u8 a[DUNWIND_SFRAME_ATTR_V3_SIZE];
	__u64 pos, fre_end = t->fre_off + t->fre_len, base, end;
	__u32 freoff;
	__s64 start;
	int err;

	if (idx >= t->num_fdes)
		return E(EINVAL);
	pos = t->fde_off + (__u64)idx * t->fde_size;
	err = sf_read(&t->src, pos, b, t->fde_size, t->src.size);
	if (err)
		return err;
	fde->info2 = 0;
	fde->signal = 0;
	fde->__pad = 0;
	if (t->version == DUNWIND_SFRAME_V3) {
		start = dunwind_s64(dunwind_le64(b));
		fde->size = dunwind_le32(b + 8);
		freoff = dunwind_le32(b + 12);
		if ((__u64)freoff + DUNWIND_SFRAME_ATTR_V3_SIZE > t->fre_len)
			return E(EINVAL);
		err = sf_read(&t->src, t->fre_off + freoff, a, sizeof(a), fre_end);
		if (err)
			return err;
		fde->num_fres = dunwind_le16(a);
		fde->info = a[2];
		fde->info2 = a[3];
		fde->rep_size = a[4];
		fde->fres_off = t->fre_off + freoff + DUNWIND_SFRAME_ATTR_V3_SIZE;
		fde->signal = (fde->info >> 7) & 1;
		fde->fde_type = fde->info2 & 0xf;
		if (fde->fde_type > DUNWIND_SFRAME_FDE_FLEX)
			return E(EOPNOTSUPP);
	} else {
		start = dunwind_sext(dunwind_le32(b), 4);
		fde->size = dunwind_le32(b + 4);
		freoff = dunwind_le32(b + 8);
		fde->num_fres = dunwind_le32(b + 12);
		fde->info = b[16];
		fde->rep_size =
			t->version == DUNWIND_SFRAME_V1 ? DUNWIND_SFRAME_V1_REP_SIZE : b[17];
		fde->fres_off = t->fre_off + freoff;
		fde->fde_type = DUNWIND_SFRAME_FDE_DEFAULT;
		if (freoff > t->fre_len)
			return E(EINVAL);
	}
	fde->fre_type = fde->info & 0xf;
	fde->pc_type = (fde->info >> 4) & 1;
	if (fde->fre_type > 2)
		return E(EINVAL);
	if (fde->pc_type == DUNWIND_SFRAME_PC_MASK && !fde->rep_size)
		return E(EINVAL);
	/* Cheap bounds on the FRE walk: 2 bytes at least per FRE. */
	if (fde->num_fres > t->num_fres || fde->num_fres > DUNWIND_SFRAME_MAX_FDE_FRES ||
	    (__u64)fde->num_fres * 2 > fre_end - fde->fres_off)
		return E(EINVAL);
	base = t->sec_vaddr;
	if (t->flags & DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL) {
		if (base + pos < base)
			return E(EINVAL);
		base += pos;
	}
	err = sf_add(base, start, &fde->start);
	if (err)
		return err;
	end = fde->start + fde->size;
	if (end < fde->start)
		return E(EINVAL);
	return 0;
}

/**
 * dunwind_sframe_get_fre() - decode the FRE at section offset @off.
 * @t:		opened table.
 * @fde:	the FDE it belongs to (gives the start address width).
 * @off:	section offset; the first is fde->fres_off, the next off + fre->len.
 * @fre:	result.
 *
 * Context: any; calls src->read.
 * Return: 0; -EINVAL for a bad word size; -EFAULT if the FRE runs past the
 * FRE sub-section, or the callback's error.
 */
int dunwind_sframe_get_fre(const struct dunwind_sframe_table *t,
			   const struct dunwind_sframe_fde *fde, __u64 off,
			   struct dunwind_sframe_fre *fre)
{
	__u64 end = t->fre_off + t->fre_len;
	__u8 b[5 + DUNWIND_SFRAME_MAX_WORDS * 4];
	__u32 asz = 1u << (fde->fre_type & 3), wcode, i;
	int err;

	if (fde->fre_type > 2)
		return E(EINVAL);
	err = sf_read(&t->src, off, b, asz + 1, end);
	if (err)
		return err;
	fre->start = asz == 1 ? b[0] : asz == 2 ? dunwind_le16(b) : dunwind_le32(b);
	fre->info = b[asz];
	fre->nwords = (fre->info >> 1) & 0xf;
	wcode = (fre->info >> 5) & 3;
	if (wcode == 3)
		return E(EINVAL);
	fre->word_size = (__u8)(1u << wcode);
	fre->__pad = 0;
	fre->len = asz + 1 + (__u32)fre->nwords * fre->word_size;
	err = sf_read(&t->src, off + asz + 1, b + asz + 1, fre->len - asz - 1, end);
	if (err)
		return err;
	for (i = 0; i < fre->nwords; i++) {
		const __u8 *p = b + asz + 1 + i * fre->word_size;
		__u32 v = fre->word_size == 1 ? p[0] : fre->word_size == 2 ? dunwind_le16(p) :
			  dunwind_le32(p);

		fre->words[i] = dunwind_sext(v, fre->word_size);
	}
	return 0;
}

/* Flex control word: bit 0 register-based, bit 1 dereference, bits 3-7 register. */
static int sf_flex_rule(__u32 ctrl, __s32 off, struct dunwind_sframe_rule *r)
{
	if (ctrl & ~0xfbu)
		return E(EINVAL);
	r->kind = (ctrl & 1) ? DUNWIND_SFRAME_RULE_REG : DUNWIND_SFRAME_RULE_CFA;
	r->reg = (ctrl & 1) ? (__u8)((ctrl >> 3) & 0x1f) : 0;
	r->deref = (ctrl >> 1) & 1;
	r->__pad = 0;
	r->off = off;
	return 0;
}

static void sf_rule(struct dunwind_sframe_rule *r, __u8 kind, __u8 reg, __u8 deref, __s32 off)
{
	r->kind = kind;
	r->reg = reg;
	r->deref = deref;
	r->__pad = 0;
	r->off = off;
}

static __u32 sf_ctrl(const struct dunwind_sframe_fre *fre, __u32 i)
{
	__u32 v = (__u32)fre->words[i];

	if (fre->word_size == 1)
		return v & 0xff;
	if (fre->word_size == 2)
		return v & 0xffff;
	return v;
}

/*
 * The %rbx item of an EXT_RBX table's flex FRE, from data word @i on: the
 * last item, either the control word RBX_LOST alone or (CFA-relative,
 * deref) and an offset.  Return: 0, or -EINVAL for anything else.
 */
static int sf_rbx_item(const struct dunwind_sframe_fre *fre, __u32 i,
		       struct dunwind_sframe_row *row)
{
	__u32 c = sf_ctrl(fre, i);

	if (c == DUNWIND_SFRAME_RBX_LOST && i + 1 == fre->nwords) {
		row->flags |= DUNWIND_SFRAME_ROW_RBX_LOST;
		return 0;
	}
	if (c != 2 || i + 2 != fre->nwords)
		return E(EINVAL);
	sf_rule(&row->rbx, DUNWIND_SFRAME_RULE_CFA, 0, 1, fre->words[i + 1]);
	return 0;
}

/*
 * A default FDE's FRE: the CFA offset from SP or FP (FRE info bit 0), then
 * the RA offset where the header does not fix the RA's slot (AArch64; an
 * FRE without one has the RA in x30), then the FP offset where the FP is
 * saved and its slot is not fixed either.
 * Return: 0, or -EINVAL for more words than the ABI has rules for.
 */
static int sf_default_rules(const struct dunwind_sframe_table *t,
			    const struct dunwind_sframe_fre *fre, struct dunwind_sframe_row *row)
{
	__u32 n = fre->nwords, i = 1;
	__u32 max = 1u + (t->fixed_ra ? 0u : 1u) + (t->fixed_fp ? 0u : 1u);

	if (n > max)
		return E(EINVAL);
	sf_rule(&row->cfa, DUNWIND_SFRAME_RULE_REG, (fre->info & 1) ? t->reg_sp : t->reg_fp, 0,
		fre->words[0]);
	if (!t->fixed_ra && i < n)
		sf_rule(&row->ra, DUNWIND_SFRAME_RULE_CFA, 0, 1, fre->words[i++]);
	if (!t->fixed_fp && i < n)
		sf_rule(&row->fp, DUNWIND_SFRAME_RULE_CFA, 0, 1, fre->words[i]);
	return 0;
}

/**
 * dunwind_sframe_fre_rules() - turn one FRE into CFA/RA/FP rules.
 * @t, @fde, @fre: the table, the FRE's FDE and the FRE.
 * @row:	receives flags, cfa, ra, fp and rbx; func_start/func_size from
 *		@fde; pc_lo/pc_hi are left to the caller.
 *
 * Context: any; reads nothing.
 * Return: 0; -EINVAL if the data word count or a flex control word does
 * not fit the FDE type (a fourth, %rbx item only in an EXT_RBX table).
 */
int dunwind_sframe_fre_rules(const struct dunwind_sframe_table *t,
			     const struct dunwind_sframe_fde *fde,
			     const struct dunwind_sframe_fre *fre, struct dunwind_sframe_row *row)
{
	__u32 n = fre->nwords, i, c;
	int err;

	row->func_start = fde->start;
	row->func_size = fde->size;
	row->flags = fde->signal ? DUNWIND_SFRAME_ROW_SIGNAL : 0;
	if (fre->info & 0x80)
		row->flags |= DUNWIND_SFRAME_ROW_MANGLED_RA;
	sf_rule(&row->cfa, DUNWIND_SFRAME_RULE_UNDEF, 0, 0, 0);
	if (t->fixed_ra)
		sf_rule(&row->ra, DUNWIND_SFRAME_RULE_CFA, 0, 1, t->fixed_ra);
	else		/* tracked, and where not saved still in its register */
		sf_rule(&row->ra, DUNWIND_SFRAME_RULE_REG, t->reg_ra, 0, 0);
	sf_rule(&row->fp, DUNWIND_SFRAME_RULE_UNDEF, 0, 0, 0);
	sf_rule(&row->rbx, DUNWIND_SFRAME_RULE_UNDEF, 0, 0, 0);
	if (t->ext & DUNWIND_SFRAME_EXT_RBX)
		row->flags |= DUNWIND_SFRAME_ROW_RBX;
	if (t->fixed_fp)
		sf_rule(&row->fp, DUNWIND_SFRAME_RULE_CFA, 0, 1, t->fixed_fp);
	if (fde->fde_type == DUNWIND_SFRAME_FDE_FLEX)
		row->flags |= DUNWIND_SFRAME_ROW_FLEX;
	if (!n) {
		row->flags |= DUNWIND_SFRAME_ROW_RA_UNDEF;
		return 0;
	}
	if (fde->fde_type != DUNWIND_SFRAME_FDE_FLEX)
		return sf_default_rules(t, fre, row);
	/* Flex: (control, offset) for the CFA, then RA and FP, each either
	 * (control, offset) or a single 0 control word (padding). */
	if (n < 2)
		return E(EINVAL);
	c = sf_ctrl(fre, 0);
	if (!(c & 1))		/* the CFA must be register based */
		return E(EINVAL);
	err = sf_flex_rule(c, fre->words[1], &row->cfa);
	if (err)
		return err;
	i = 2;
	if (i < n) {
		c = sf_ctrl(fre, i);
		if (!c) {
			i++;
		} else {
			if (i + 1 >= n)
				return E(EINVAL);
			err = sf_flex_rule(c, fre->words[i + 1], &row->ra);
			if (err)
				return err;
			i += 2;
		}
	}
	if (i < n) {
		c = sf_ctrl(fre, i);
		if (!c) {
			sf_rule(&row->fp, DUNWIND_SFRAME_RULE_UNDEF, 0, 0, 0);
			i++;
		} else {
			if (i + 1 >= n)
				return E(EINVAL);
			err = sf_flex_rule(c, fre->words[i + 1], &row->fp);
			if (err)
				return err;
			i += 2;
		}
	}
	if (i < n && (t->ext & DUNWIND_SFRAME_EXT_RBX))
		return sf_rbx_item(fre, i, row);
	return i == n ? 0 : E(EINVAL);
}

/* Find the FDE covering @pc: binary search if sorted, else a linear scan. */
static int sf_find_fde(const struct dunwind_sframe_table *t, __u64 pc,
		       struct dunwind_sframe_fde *fde)
{
	__u32 lo = 0, hi = t->num_fdes, mid, i;
	int err, guard;

	if (!(t->flags & DUNWIND_SFRAME_F_FDE_SORTED)) {
		for (i = 0; i < t->num_fdes; i++) {
			err = dunwind_sframe_get_fde(t, i, fde);
			if (err)
				return err;
			if (pc >= fde->start && pc - fde->start < fde->size)
				return 0;
		}
		return E(ENOENT);
	}
	/* Last FDE with start <= pc; at most 33 rounds for 32-bit counts. */
	for (guard = 0; lo < hi && guard < 40; guard++) {
		mid = lo + ((hi - lo) >> 1);
		err = dunwind_sframe_get_fde(t, mid, fde);
		if (err)
			return err;
		if (fde->start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return E(ENOENT);
	err = dunwind_sframe_get_fde(t, lo - 1, fde);
	if (err)
		return err;
	if (pc < fde->start || pc - fde->start >= fde->size)
		return E(ENOENT);
	return 0;
}

/**
 * dunwind_sframe_find() - the unwind rule for @pc.
 * @t:		opened table (validated or not: a malformed part met on the way
 *		is an error, never a crash).
 * @pc:		run-time address.
 * @row:	result, including the PC range the rule holds for.
 *
 * Context: any; calls src->read about log2(num_fdes) + num_fres(FDE) times.
 * FDEs are binary searched when the section says they are sorted
 * (dunwind_sframe_validate() checks that it is true), else scanned.
 * Return: 0; -ENOENT if no FDE or no FRE covers @pc; -EINVAL,
 * -EOPNOTSUPP, -EFAULT or the callback's error as for the pieces read.
 */
int dunwind_sframe_find(const struct dunwind_sframe_table *t, __u64 pc,
			struct dunwind_sframe_row *row)
{
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	__u64 off, block = 0, best_off = 0;
	__u32 key, j, best_start = 0, next_start, limit;
	int err, found = 0, have_next = 0;

	err = sf_find_fde(t, pc, &fde);
	if (err)
		return err;
	key = (__u32)(pc - fde.start);		/* < fde.size <= 2^32 - 1 */
	limit = fde.size;
	if (fde.pc_type == DUNWIND_SFRAME_PC_MASK) {
		block = key - sf_umod(key, fde.rep_size);
		key -= (__u32)block;
		limit = fde.size - (__u32)block;
		if (limit > fde.rep_size)
			limit = fde.rep_size;
	}
	next_start = limit;
	off = fde.fres_off;
	for (j = 0; j < fde.num_fres; j++) {
		err = dunwind_sframe_get_fre(t, &fde, off, &fre);
		if (err)
			return err;
		if (fre.start > key) {
			have_next = 1;
			next_start = fre.start;
			break;
		}
		found = 1;
		best_off = off;
		best_start = fre.start;
		off += fre.len;
	}
	if (!found)
		return E(ENOENT);
	err = dunwind_sframe_get_fre(t, &fde, best_off, &fre);
	if (err)
		return err;
	err = dunwind_sframe_fre_rules(t, &fde, &fre, row);
	if (err)
		return err;
	if (!have_next || next_start > limit)
		next_start = limit;
	row->pc_lo = fde.start + block + best_start;
	row->pc_hi = fde.start + block + next_start;
	return 0;
}

/**
 * dunwind_sframe_validate() - check every FDE and FRE of an opened table.
 * @t:		opened table.
 *
 * Context: any; O(num_fdes + num_fres) reads, bounded by the header counts.
 * Checks: each FDE as in dunwind_sframe_get_fde(); if the section says
 * sorted, FDEs ascend and do not overlap; each FDE's FREs lie in the FRE
 * sub-section, have valid word sizes and counts for the FDE type, start
 * offsets ascend (equal allowed) and stay within the function (PC_INC:
 * <= size) or the block (PC_MASK: < repetition size); the FDE FRE counts
 * add up to the header's.
 * Return: 0 if the whole table is consistent; otherwise the first error
 * (-EINVAL, -EOPNOTSUPP, -EFAULT or the callback's error).
 */
int dunwind_sframe_validate(const struct dunwind_sframe_table *t)
{
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	struct dunwind_sframe_row row;
	__u64 prev_end = 0, total = 0, off;
	__u32 i, j, prev;
	int err;

	for (i = 0; i < t->num_fdes; i++) {
		err = dunwind_sframe_get_fde(t, i, &fde);
		if (err)
			return err;
		if ((t->flags & DUNWIND_SFRAME_F_FDE_SORTED) && i && fde.start < prev_end)
			return E(EINVAL);
		prev_end = fde.start + fde.size;
		total += fde.num_fres;
		if (total > t->num_fres)
			return E(EINVAL);
		off = fde.fres_off;
		prev = 0;
		for (j = 0; j < fde.num_fres; j++) {
			err = dunwind_sframe_get_fre(t, &fde, off, &fre);
			if (err)
				return err;
			if (j && fre.start < prev)
				return E(EINVAL);
			if (fde.pc_type == DUNWIND_SFRAME_PC_MASK ? fre.start >= fde.rep_size :
			    fre.start > fde.size)
				return E(EINVAL);
			err = dunwind_sframe_fre_rules(t, &fde, &fre, &row);
			if (err)
				return err;
			prev = fre.start;
			off += fre.len;
		}
	}
	return total == t->num_fres ? 0 : E(EINVAL);
}
