// SPDX-License-Identifier: GPL-2.0
/*
 * DUNWIND_IOC_KSYM: the kernel symbol holding an address, as a line of
 * /proc/kallsyms names it.  A recorder names the few hundred kernel
 * addresses its capture holds without reading the whole file, which the
 * kernel makes for about 4,000 instructions a symbol (0.77 s of a 7.2
 * guest in exact mode, after every recording).
 *
 * kallsyms_lookup() is not exported; sprint_symbol() is, and says
 * "NAME+0xOFF/0xLEN [MODULE]", or "0xADDR" when no symbol holds the
 * address.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "dunwind.h"

/*
 * Split sprint_symbol()'s @text (changed in place) into @k's fields.
 * Return: 0; -ENOENT for no symbol (or text of another shape: @k as it was).
 */
static int dunwind_ksym_parse(char *text, struct dunwind_ksym *k)
{
	char *mod = strchr(text, ' '), *plus, *slash, *end;
	unsigned long long off, len;

	if (!strncmp(text, "0x", 2))
		return -ENOENT;
	if (mod) {
		*mod++ = '\0';
		end = strchr(mod, ']');
		if (mod[0] != '[' || !end)
			return -ENOENT;
		*end = '\0';
		mod++;
	}
	slash = strrchr(text, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	plus = strrchr(text, '+');
	if (!plus || plus == text)
		return -ENOENT;
	*plus = '\0';
	if (kstrtoull(plus + 1, 16, &off) || kstrtoull(slash + 1, 16, &len) || off > k->addr)
		return -ENOENT;
	k->start = k->addr - off;
	k->len = len;
	strscpy(k->name, text, sizeof(k->name));
	strscpy(k->module, mod ? mod : "", sizeof(k->module));
	return 0;
}

/**
 * dunwind_ksym() - DUNWIND_IOC_KSYM
 * @arg:	struct dunwind_ksym in user memory
 *
 * Context: ioctl (may sleep, may fault).
 * Return: 0, or -errno as documented in uapi/linux/dunwind.h.
 */
int dunwind_ksym(void __user *arg)
{
	struct dunwind_ksym k;
	char *text;
	int ret;

	ret = dunwind_copy_arg(&k, sizeof(k), DUNWIND_KSYM_SIZE_VER0, arg);
	if (ret)
		return ret;
	if (k.flags)
		return -EINVAL;
	if (!dunwind_perm_kernel_addresses())
		return -EPERM;
	text = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	k.start = 0;
	k.len = 0;
	memset(k.module, 0, sizeof(k.module));
	memset(k.name, 0, sizeof(k.name));
	sprint_symbol(text, (unsigned long)k.addr);
	ret = dunwind_ksym_parse(text, &k);
	if (copy_to_user(arg, &k, sizeof(k)))
		ret = -EFAULT;
	kfree(text);
	return ret;
}
