// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SFrame encoder (user space only).  Functions are written in the order
 * given; the caller sets DUNWIND_SFRAME_F_FDE_SORTED only if they are sorted
 * (tests write unsorted tables on purpose).  FREs are written with the
 * narrowest start field and data words that fit, or wider if asked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sframe/sframe_enc.h"
#include "util/array.h"

struct enc_buf {
	__u8 *p;
	size_t len, cap;
};

static int buf_put(struct enc_buf *b, const void *src, size_t n)
{
	if (DW_ARRAY_RESERVE(b->p, b->cap, b->len + n, 256))
		return -ENOMEM;
	memcpy(b->p + b->len, src, n);
	b->len += n;
	return 0;
}

static int buf_le(struct enc_buf *b, __u64 v, unsigned int bytes)
{
	__u8 tmp[8];
	unsigned int i;

	for (i = 0; i < bytes; i++)
		tmp[i] = (__u8)(v >> (8 * i));
	return buf_put(b, tmp, bytes);
}

static void put_le(__u8 *p, __u64 v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = (__u8)(v >> (8 * i));
}

/* The ABI's view of rows: its registers and where the RA is by default. */
struct enc_abi {
	__u8 id, sp, fp, ra;	/* ra: the register the RA is in, 0xff for none */
	__s8 fixed_ra;		/* RA slot fixed by the header, 0: tracked per row */
};

static void enc_abi(const struct dw_sframe_enc_opts *o, struct enc_abi *a)
{
	a->id = o->abi ? o->abi : DUNWIND_SFRAME_ABI_AMD64_LE;
	if (a->id == DUNWIND_SFRAME_ABI_AARCH64_LE) {
		a->sp = DUNWIND_SFRAME_A64_REG_SP;
		a->fp = DUNWIND_SFRAME_A64_REG_FP;
		a->ra = DUNWIND_SFRAME_A64_REG_LR;
		a->fixed_ra = o->fixed_ra;
		return;
	}
	a->sp = DUNWIND_SFRAME_REG_SP;
	a->fp = DUNWIND_SFRAME_REG_FP;
	a->ra = 0xff;
	a->fixed_ra = o->fixed_ra ? o->fixed_ra : -8;
}

/* Is @r's RA where an FRE says it is without a word: the fixed slot, or x30? */
static int ra_implied(const struct enc_abi *a, const struct dunwind_sframe_rule *r)
{
	if (a->fixed_ra)
		return r->kind == DUNWIND_SFRAME_RULE_CFA && r->deref && r->off == a->fixed_ra;
	return r->kind == DUNWIND_SFRAME_RULE_REG && r->reg == a->ra && !r->deref && !r->off;
}

/* Can a v1/v2/v3-default FRE express @r? */
static int row_is_default(const struct enc_abi *a, const struct dw_sframe_enc_row *r)
{
	int ra_in_reg = ra_implied(a, &r->ra);

	if (r->ra_undef)
		return 1;
	if (r->cfa.kind != DUNWIND_SFRAME_RULE_REG || r->cfa.deref ||
	    (r->cfa.reg != a->sp && r->cfa.reg != a->fp))
		return 0;
	/* A tracked RA is implied or saved; no word can skip it for the FP's. */
	if (!ra_in_reg && (a->fixed_ra || r->ra.kind != DUNWIND_SFRAME_RULE_CFA || !r->ra.deref))
		return 0;
	if (r->rbx.kind != DUNWIND_SFRAME_RULE_UNDEF || r->rbx_lost)
		return 0;
	if (r->fp.kind == DUNWIND_SFRAME_RULE_UNDEF)
		return 1;
	return r->fp.kind == DUNWIND_SFRAME_RULE_CFA && r->fp.deref && (a->fixed_ra || !ra_in_reg);
}

static int rule_ctrl(const struct dunwind_sframe_rule *r, __u32 *ctrl)
{
	if (r->kind == DUNWIND_SFRAME_RULE_REG) {
		if (r->reg > 31)
			return -EINVAL;
		*ctrl = (__u32)r->reg << 3 | (r->deref ? 2u : 0u) | 1u;
		return 0;
	}
	if (r->kind == DUNWIND_SFRAME_RULE_CFA) {
		*ctrl = r->deref ? 2u : 0u;
		/* "CFA + 0, no deref" would read back as padding. */
		return *ctrl ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/* The %rbx item (EXT_RBX), if the row has one: last in a flex FRE. */
static int row_rbx_words(const struct dw_sframe_enc_row *r, __s64 *w, int *ctl, unsigned int *n)
{
	if (r->rbx_lost) {
		ctl[*n] = 1;
		w[(*n)++] = DUNWIND_SFRAME_RBX_LOST;
		return 0;
	}
	if (r->rbx.kind == DUNWIND_SFRAME_RULE_UNDEF)
		return 0;
	if (r->rbx.kind != DUNWIND_SFRAME_RULE_CFA || !r->rbx.deref)
		return -EINVAL;
	ctl[*n] = 1;
	w[(*n)++] = 2;			/* CFA-relative, deref */
	w[(*n)++] = r->rbx.off;
	return 0;
}

/* Data words for one row; ctl[i] set for unsigned control words. */
static int row_words(const struct dw_sframe_enc_row *r, int flex, const struct enc_abi *a,
		     __s64 *w, int *ctl, unsigned int *n)
{
	int rbx = r->rbx.kind != DUNWIND_SFRAME_RULE_UNDEF || r->rbx_lost;
	__u32 c;
	int err, ra_fixed;

	*n = 0;
	if (r->ra_undef)
		return 0;
	if (!flex) {
		w[(*n)++] = r->cfa.off;
		if (!ra_implied(a, &r->ra))
			w[(*n)++] = r->ra.off;
		if (r->fp.kind != DUNWIND_SFRAME_RULE_UNDEF)
			w[(*n)++] = r->fp.off;
		return 0;
	}
	if (r->cfa.kind != DUNWIND_SFRAME_RULE_REG)
		return -EINVAL;
	err = rule_ctrl(&r->cfa, &c);
	if (err)
		return err;
	ctl[*n] = 1;
	w[(*n)++] = c;
	w[(*n)++] = r->cfa.off;
	ra_fixed = ra_implied(a, &r->ra);
	if (!ra_fixed) {
		err = rule_ctrl(&r->ra, &c);
		if (err)
			return err;
		ctl[*n] = 1;
		w[(*n)++] = c;
		w[(*n)++] = r->ra.off;
	} else if (r->fp.kind != DUNWIND_SFRAME_RULE_UNDEF || rbx) {
		ctl[*n] = 1;
		w[(*n)++] = 0;		/* RA padding */
	}
	if (r->fp.kind != DUNWIND_SFRAME_RULE_UNDEF) {
		err = rule_ctrl(&r->fp, &c);
		if (err)
			return err;
		ctl[*n] = 1;
		w[(*n)++] = c;
		w[(*n)++] = r->fp.off;
	} else if (rbx) {
		ctl[*n] = 1;
		w[(*n)++] = 0;		/* FP padding: not saved */
	}
	return row_rbx_words(r, w, ctl, n);
}

static unsigned int word_bytes(__s64 v, int ctl)
{
	if (ctl)
		return v <= 0xff ? 1 : v <= 0xffff ? 2 : 4;
	if (v >= -128 && v <= 127)
		return 1;
	if (v >= -32768 && v <= 32767)
		return 2;
	return 4;
}

static int encode_fres(const struct dw_sframe_enc_opts *o, const struct dw_sframe_enc_func *f,
		       const struct enc_abi *a, struct enc_buf *b, __u8 *info, __u8 *info2,
		       __u32 *nfres)
{
	__u32 max_off = 0, i;
	unsigned int fre_type, asz, k;
	int flex = 0, err;

	for (i = 0; i < f->nrows; i++) {
		if (f->rows[i].pc_off > max_off)
			max_off = f->rows[i].pc_off;
		if (!row_is_default(a, &f->rows[i]))
			flex = 1;
	}
	if (flex && o->version != DUNWIND_SFRAME_V3)
		return -EINVAL;
	if (o->version == DUNWIND_SFRAME_V3 && f->nrows > 0xffff)
		return -ERANGE;
	fre_type = max_off <= 0xff ? 0 : max_off <= 0xffff ? 1 : 2;
	if (fre_type < o->min_fre_type)
		fre_type = o->min_fre_type > 2 ? 2 : o->min_fre_type;
	asz = 1u << fre_type;
	*info = (__u8)(fre_type | (unsigned int)(f->pc_type & 1) << 4);
	if (o->version == DUNWIND_SFRAME_V3 && f->signal)
		*info |= 0x80;
	*info2 = flex ? DUNWIND_SFRAME_FDE_FLEX : DUNWIND_SFRAME_FDE_DEFAULT;
	*nfres = f->nrows;
	if (o->version == DUNWIND_SFRAME_V3) {
		__u8 attr[DUNWIND_SFRAME_ATTR_V3_SIZE];

		put_le(attr, f->nrows, 2);
		attr[2] = *info;
		attr[3] = *info2;
		attr[4] = f->rep_size;
		err = buf_put(b, attr, sizeof(attr));
		if (err)
			return err;
	}
	for (i = 0; i < f->nrows; i++) {
		const struct dw_sframe_enc_row *r = &f->rows[i];
		__s64 w[8];
		int ctl[8] = { 0 };
		unsigned int n, ws = o->min_word_size ? o->min_word_size : 1, wcode;
		__u8 fi;

		err = row_words(r, flex, a, w, ctl, &n);
		if (err)
			return err;
		for (k = 0; k < n; k++)
			if (word_bytes(w[k], ctl[k]) > ws)
				ws = word_bytes(w[k], ctl[k]);
		if (ws > 4)
			ws = 4;
		wcode = ws == 1 ? 0 : ws == 2 ? 1 : 2;
		fi = (__u8)(wcode << 5 | n << 1);
		if (!flex && !r->ra_undef && r->cfa.reg == a->sp)
			fi |= 1;
		if (r->ra_mangled)
			fi |= 0x80;
		err = buf_le(b, r->pc_off, asz);
		if (!err)
			err = buf_put(b, &fi, 1);
		for (k = 0; !err && k < n; k++)
			err = buf_le(b, (__u64)w[k], ws);
		if (err)
			return err;
	}
	return 0;
}

/* The SFrame header (without the auxiliary header) into @h. */
static void put_header(__u8 *h, const struct dw_sframe_enc_opts *o, const struct enc_abi *a,
		       __u32 nfuncs, __u32 nfres, __u32 fre_len, unsigned int fde_size)
{
	put_le(h, DUNWIND_SFRAME_MAGIC, 2);
	h[2] = o->version;
	h[3] = o->flags;
	h[4] = a->id;
	h[5] = (__u8)o->fixed_fp;
	h[6] = (__u8)a->fixed_ra;
	h[7] = o->auxhdr_len;
	put_le(h + 8, nfuncs, 4);
	put_le(h + 12, nfres, 4);
	put_le(h + 16, fre_len, 4);
	put_le(h + 20, 0, 4);
	put_le(h + 24, (__u64)nfuncs * fde_size, 4);
}

/*
 * One FDE of @o->version at section offset @field: function start (PC- or
 * section-relative), size, its FREs' offset; v1/v2 also their count and
 * info bytes.  0, or -ERANGE for a start v1/v2 cannot express.
 */
static int put_fde(struct enc_buf *sec, const struct dw_sframe_enc_opts *o,
		   const struct dw_sframe_enc_func *f, __u64 field, unsigned int fde_size,
		   __u32 fre_off, __u32 nfres, __u8 info)
{
	__u8 e[DUNWIND_SFRAME_FDE_V2_SIZE] = { 0 };
	__u64 base = o->sec_vaddr;
	__s64 val;

	if (o->flags & DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL)
		base += field;
	val = (__s64)(f->start - base);
	if (o->version == DUNWIND_SFRAME_V3) {
		put_le(e, (__u64)val, 8);
		put_le(e + 8, f->size, 4);
		put_le(e + 12, fre_off, 4);
	} else {
		if (val < INT32_MIN || val > INT32_MAX)
			return -ERANGE;
		put_le(e, (__u64)val, 4);
		put_le(e + 4, f->size, 4);
		put_le(e + 8, fre_off, 4);
		put_le(e + 12, nfres, 4);
		e[16] = info;
		if (o->version == DUNWIND_SFRAME_V2)
			e[17] = f->rep_size;
	}
	return buf_put(sec, e, fde_size);
}

/**
 * dw_sframe_encode() - write an SFrame section.
 * @o:		version, header flags and fields, and where it will be mapped.
 * @funcs:	@nfuncs functions with their rows.
 * @out, @out_len: on success a malloc()ed section and its size.
 *
 * Context: user space.
 * Return: 0; -EINVAL if a row cannot be expressed in the version (flex
 * rules before v3, RA undefined in the middle of rules...); -ERANGE if a
 * start address does not fit a v1/v2 32-bit offset or a v3 FDE has more
 * than 65535 rows; -ENOMEM.
 */
int dw_sframe_encode(const struct dw_sframe_enc_opts *o, const struct dw_sframe_enc_func *funcs,
		     __u32 nfuncs, __u8 **out, size_t *out_len)
{
	struct enc_buf fres = { 0 }, sec = { 0 };
	unsigned int fde_size, hdr_len;
	struct enc_abi abi;
	__u32 *fre_offs = NULL, *nfres = NULL, total = 0, i;
	__u8 *infos = NULL, *infos2 = NULL, h[DUNWIND_SFRAME_HDR_SIZE];
	int err = -EINVAL;

	if (o->version < DUNWIND_SFRAME_V1 || o->version > DUNWIND_SFRAME_V3)
		return -EINVAL;
	enc_abi(o, &abi);
	fde_size = o->version == 1 ? DUNWIND_SFRAME_FDE_V1_SIZE :
		   o->version == 2 ? DUNWIND_SFRAME_FDE_V2_SIZE : DUNWIND_SFRAME_FDE_V3_SIZE;
	hdr_len = DUNWIND_SFRAME_HDR_SIZE + o->auxhdr_len;
	fre_offs = calloc(nfuncs + 1, sizeof(*fre_offs));
	nfres = calloc(nfuncs + 1, sizeof(*nfres));
	infos = calloc(nfuncs + 1, 1);
	infos2 = calloc(nfuncs + 1, 1);
	if (!fre_offs || !nfres || !infos || !infos2) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nfuncs; i++) {
		fre_offs[i] = (__u32)fres.len;
		err = encode_fres(o, &funcs[i], &abi, &fres, &infos[i], &infos2[i], &nfres[i]);
		if (err)
			goto out;
		total += nfres[i];
	}
	put_header(h, o, &abi, nfuncs, total, (__u32)fres.len, fde_size);
	err = buf_put(&sec, h, sizeof(h));
	for (i = 0; !err && i < o->auxhdr_len; i++)
		err = buf_le(&sec, 0, 1);
	for (i = 0; !err && i < nfuncs; i++)
		err = put_fde(&sec, o, &funcs[i], hdr_len + (__u64)i * fde_size, fde_size,
			      fre_offs[i], nfres[i], infos[i]);
	if (!err)
		err = buf_put(&sec, fres.p ? fres.p : (__u8 *)"", fres.len);
	if (!err) {
		*out = sec.p;
		*out_len = sec.len;
		sec.p = NULL;
	}
out:
	free(sec.p);
	free(fres.p);
	free(fre_offs);
	free(nfres);
	free(infos);
	free(infos2);
	return err;
}
