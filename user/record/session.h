/* SPDX-License-Identifier: GPL-2.0 */
/* A dunwind session from user space: open, configure, map, drain the ring. */
#ifndef DW_SESSION_H
#define DW_SESSION_H

#include <stddef.h>
#include <linux/dunwind.h>

struct dw_session {
	int fd;
	void *map;
	size_t map_len;
	struct dunwind_ring_ctrl *ctrl;
	unsigned char *data;
	__u64 data_size;
	unsigned char *scratch;		/* one record, for wrapped records */
};

/* Open @dev (NULL: DUNWIND_DEVICE), DUNWIND_IOC_CONFIG with @cfg, mmap. 0 or -errno. */
int dw_session_open(struct dw_session *s, const char *dev, const struct dunwind_config *cfg);
int dw_session_start(struct dw_session *s);		/* 0 or -errno */
int dw_session_stop(struct dw_session *s);		/* 0 or -errno */
int dw_session_stats(struct dw_session *s, struct dunwind_stats *st); /* 0 or -errno */
/* Wait until readable or @timeout_ms; 1 readable, 0 timeout, -errno. */
int dw_session_poll(struct dw_session *s, int timeout_ms);

/*
 * Call @fn for every committed record, in ring order, each contiguous and
 * checked with dunwind_rec_check(); advance data_tail.  @fn returning
 * non-zero stops the drain with that value.  Return: records consumed, or
 * -EPROTO if the ring holds a malformed record, or @fn's value.
 */
typedef int (*dw_record_fn)(const struct dunwind_rec_header *rec, void *arg);
int dw_session_drain(struct dw_session *s, dw_record_fn fn, void *arg);
/*
 * The same, each record copied to where @place says (room for @size
 * bytes, 8-byte aligned; NULL: the session's scratch) rather than always
 * to the scratch: the recorder copies records straight into its output.
 */
typedef void *(*dw_place_fn)(__u32 size, void *arg);
int dw_session_drain_to(struct dw_session *s, dw_place_fn place, dw_record_fn fn, void *arg);
/* The same, stopping once about @max bytes were consumed (at least one record). */
int dw_session_drain_some(struct dw_session *s, dw_place_fn place, dw_record_fn fn, void *arg,
			  __u64 max);
/* Bytes in the ring not yet drained. */
__u64 dw_session_backlog(const struct dw_session *s);
void dw_session_close(struct dw_session *s);
/*
 * Drain a ring that is already mapped (tests build one in memory): checks
 * the control page, allocates @s->scratch.  Set @s->fd = -1 first when no
 * device owns the mapping (dw_session_close() then leaves it mapped).
 * 0, -EPROTO (inconsistent control page) or -ENOMEM.
 */
int dw_session_attach(struct dw_session *s, void *map, size_t map_len);

#endif
