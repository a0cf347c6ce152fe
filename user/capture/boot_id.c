// SPDX-License-Identifier: GPL-2.0
/*
 * The recording boot's id (/proc/sys/kernel/random/boot_id): kernel
 * addresses and live /proc data describe a capture only on that boot.
 */
#include <stdio.h>
#include <string.h>

#include "capture/boot_id.h"
#include "capture/capture.h"

/**
 * dw_boot_id_read() - this boot's id, as 16 bytes
 * @id:		where
 *
 * Context: user space, reads /proc.
 * Return: 0, or -1 if unavailable.
 */
int dw_boot_id_read(__u8 id[16])
{
	char text[64];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	int i = 0, n = 0;

	if (!f)
		return -1;
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	/* 8-4-4-4-12 hex digits */
	for (; text[i] && n < 32; i++) {
		int v;

		if (text[i] == '-')
			continue;
		if (text[i] >= '0' && text[i] <= '9')
			v = text[i] - '0';
		else if (text[i] >= 'a' && text[i] <= 'f')
			v = text[i] - 'a' + 10;
		else
			break;
		id[n / 2] = (__u8)(n % 2 ? id[n / 2] | v : v << 4);
		n++;
	}
	return n == 32 ? 0 : -1;
}

/**
 * dw_capture_same_boot() - was the capture made during the running boot?
 * @h:		a validated header
 *
 * Context: user space, reads /proc.
 * Return: 1 same boot, 0 another boot, -1 unknown (no boot id on either side).
 */
int dw_capture_same_boot(const struct dw_capture_header *h)
{
	static const __u8 zero[16];
	__u8 now[16];

	if (!memcmp(h->boot_id, zero, sizeof(zero)) || dw_boot_id_read(now))
		return -1;
	return !memcmp(h->boot_id, now, sizeof(now));
}
