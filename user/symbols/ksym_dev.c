// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols asked of the module (ksym_dev.h): the symbol holding each
 * of a capture's kernel addresses, one DUNWIND_IOC_KSYM each, written as
 * the lines of /proc/kallsyms that name them.  Reading /proc/kallsyms
 * costs the kernel about 4,000 instructions a symbol of the whole
 * machine; this, a lookup per address.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "symbols/ksym_dev.h"
#include "util/array.h"

/**
 * dw_ksym_dev() - the kernel symbol holding @addr
 * @dev_fd:	an open /dev/dunwind
 * @addr:	a kernel address
 * @k:		set to the module's answer (names NUL-terminated)
 *
 * Context: user space.
 * Return: 0; -ENOENT: no symbol holds @addr; -EPERM: the caller may not
 * see kernel addresses (kernel.kptr_restrict); -ENOTTY: a module without
 * DUNWIND_IOC_KSYM; -errno.
 */
int dw_ksym_dev(int dev_fd, __u64 addr, struct dunwind_ksym *k)
{
	memset(k, 0, sizeof(*k));
	k->size = sizeof(*k);
	k->addr = addr;
	if (ioctl(dev_fd, DUNWIND_IOC_KSYM, k))
		return -errno;
	/* The module's word: bounded all the same. */
	k->module[sizeof(k->module) - 1] = '\0';
	k->name[sizeof(k->name) - 1] = '\0';
	return k->name[0] && !strpbrk(k->name, " \t\n") && !strpbrk(k->module, " \t\n]") ?
		0 : -ENOENT;
}

/* Append @k's kallsyms line to @buf. 0 or -ENOMEM. */
static int put_line(char **buf, size_t *cap, size_t *len, const struct dunwind_ksym *k)
{
	size_t need = 16 + 3 + strlen(k->name) + 3 + strlen(k->module) + 2;
	int n;

	if (DW_ARRAY_RESERVE(*buf, *cap, *len + need + 1, 4096))
		return -ENOMEM;
	n = snprintf(*buf + *len, need + 1, k->module[0] ? "%016llx t %s\t[%s]\n" : "%016llx t %s\n",
		     (unsigned long long)k->start, k->name, k->module);
	*len += (size_t)n;
	return 0;
}

/**
 * dw_ksym_dev_lines() - the kallsyms lines that name some kernel addresses
 * @dev_fd:	an open /dev/dunwind
 * @ips:	the addresses, sorted
 * @nips:	how many
 * @len:	set to the text's length
 *
 * For each address, the line of the symbol holding it and the line of the
 * symbol right after (which bounds it), as the whole file's would be: each
 * symbol once.  An address no symbol holds has none.
 *
 * Context: user space; a DUNWIND_IOC_KSYM for each new symbol and its
 * successor.
 * Return: the text (free() it), "" for none; NULL with errno EPERM,
 * ENOTTY (as dw_ksym_dev()) or ENOMEM.
 */
char *dw_ksym_dev_lines(int dev_fd, const __u64 *ips, size_t nips, size_t *len)
{
	__u64 start = 0, end = 0, written = 0;
	struct dunwind_ksym k, next;
	size_t cap = 0, i;
	int err = 0, any = 0;
	char *buf = NULL;

	*len = 0;
	for (i = 0; i < nips && !err; i++) {
		if (any && ips[i] >= start && ips[i] < end)
			continue;		/* in the symbol of the one before */
		err = dw_ksym_dev(dev_fd, ips[i], &k);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err)
			break;
		/* Written already as the successor of the one before? */
		if (!any || k.start != written)
			err = put_line(&buf, &cap, len, &k);
		any = 1;
		written = start = k.start;
		end = k.start + k.len;
		if (err || end <= start)
			continue;
		err = dw_ksym_dev(dev_fd, end, &next);
		if (!err && next.start == end) {
			err = put_line(&buf, &cap, len, &next);
			written = end;
		} else if (err == -ENOENT) {
			err = 0;
		}
	}
	if (err) {
		free(buf);
		errno = -err;
		return NULL;
	}
	if (!buf) {
		buf = calloc(1, 1);
		if (!buf)
			errno = ENOMEM;
	}
	return buf;
}
