// SPDX-License-Identifier: GPL-2.0
/*
 * A dunwind session: the device, its configuration and the mmap ring.
 *
 * The ring is read as hostile input: every position and size read from
 * the shared pages is checked against what the consumer knows before any
 * byte is copied, and every record is copied out of the ring (so that it
 * cannot change under the checks) and validated before it is handed out.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "record.h"
#include "record/session.h"

/* Largest record the header's u16 size can describe, 8-byte aligned. */
#define DW_RECORD_MAX	(0xffffU & ~7U)

/**
 * dw_session_attach() - set up @s to drain an already-mapped ring
 * @s:		session; @s->fd is left untouched
 * @map:	the mapping: control page, then the data area
 * @map_len:	its length in bytes
 *
 * Context: user space.  Used by dw_session_open() and by tests that build
 * a ring in memory.  The control page is checked: size, ABI version, and
 * that the data area is a power of two lying inside the mapping.
 * Return: 0, -EPROTO if the control page is inconsistent, -ENOMEM.
 */
int dw_session_attach(struct dw_session *s, void *map, size_t map_len)
{
	struct dunwind_ring_ctrl *ctrl = map;
	__u64 off, size;

	if (map_len < sizeof(*ctrl))
		return -EPROTO;
	off = __atomic_load_n(&ctrl->data_offset, __ATOMIC_RELAXED);
	size = __atomic_load_n(&ctrl->data_size, __ATOMIC_RELAXED);
	if (ctrl->size < sizeof(*ctrl) || ctrl->version != DUNWIND_ABI_VERSION)
		return -EPROTO;
	if (off < sizeof(*ctrl) || off % 8 || off > map_len || size < 8 ||
	    size & (size - 1) || size > map_len - off)
		return -EPROTO;
	s->scratch = malloc(DW_RECORD_MAX);
	if (!s->scratch)
		return -ENOMEM;
	s->map = map;
	s->map_len = map_len;
	s->ctrl = ctrl;
	s->data = (unsigned char *)map + off;
	s->data_size = size;
	return 0;
}

/**
 * dw_session_open() - open the device, configure a session and map its ring
 * @s:		session to initialise; close with dw_session_close()
 * @dev:	device path, NULL for DUNWIND_DEVICE
 * @cfg:	configuration; @cfg->size must be set
 *
 * Context: user space, may sleep.  The session is configured but not
 * started (see dw_session_start()).
 * Return: 0; -errno from open() (-ENOENT: no module loaded, -EACCES),
 * from DUNWIND_IOC_CONFIG (-EINVAL, -ESRCH, -EPERM, ...) or mmap();
 * -EPROTO if the module's control page is inconsistent.
 */
int dw_session_open(struct dw_session *s, const char *dev, const struct dunwind_config *cfg)
{
	__u32 pages = cfg->ring_pages ? cfg->ring_pages : DUNWIND_DEFAULT_RING_PAGES;
	long ps = sysconf(_SC_PAGESIZE);
	size_t len;
	void *map;
	int err;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (ps <= 0)
		return -EINVAL;
	len = (size_t)ps * (1 + (size_t)pages);
	s->fd = open(dev ? dev : DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	if (ioctl(s->fd, DUNWIND_IOC_CONFIG, cfg) < 0)
		goto fail_errno;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (map == MAP_FAILED)
		goto fail_errno;
	err = dw_session_attach(s, map, len);
	if (err) {
		munmap(map, len);
		goto fail;
	}
	return 0;
fail_errno:
	err = -errno;
fail:
	close(s->fd);
	s->fd = -1;
	return err;
}

static int session_ioctl(struct dw_session *s, unsigned long cmd, void *arg)
{
	if (s->fd < 0)
		return -EBADF;
	return ioctl(s->fd, cmd, arg) < 0 ? -errno : 0;
}

/**
 * dw_session_start() - attach to the target and start sampling
 * @s:		an open session
 *
 * Context: user space, may sleep.
 * Return: 0 or -errno from DUNWIND_IOC_START (-ESRCH: the target is gone,
 * -EPERM: no permission to profile it, -EBUSY: already started).
 */
int dw_session_start(struct dw_session *s)
{
	return session_ioctl(s, DUNWIND_IOC_START, NULL);
}

/**
 * dw_session_stop() - stop sampling; walks already pending still complete
 * @s:		an open session
 *
 * Context: user space, may sleep.
 * Return: 0 or -errno from DUNWIND_IOC_STOP.
 */
int dw_session_stop(struct dw_session *s)
{
	return session_ioctl(s, DUNWIND_IOC_STOP, NULL);
}

/**
 * dw_session_stats() - read the session's counters
 * @s:		an open session
 * @st:		filled; fields the module does not know stay zero
 *
 * Context: user space.
 * Return: 0 or -errno from DUNWIND_IOC_STATS.
 */
int dw_session_stats(struct dw_session *s, struct dunwind_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return session_ioctl(s, DUNWIND_IOC_STATS, st);
}

/**
 * dw_session_poll() - wait until the ring has data or @timeout_ms passes
 * @s:		an open session
 * @timeout_ms:	as for poll(); -1 waits forever
 *
 * Context: user space, sleeps.
 * Return: 1 readable, 0 timeout, -EINTR on a signal, -errno from poll(),
 * -EIO if the device reports an error or hang-up.
 */
int dw_session_poll(struct dw_session *s, int timeout_ms)
{
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -errno;
	if (n == 0)
		return 0;
	if (p.revents & (POLLERR | POLLNVAL))
		return -EIO;
	return (p.revents & POLLIN) ? 1 : -EIO;
}

/* Copy @len bytes at ring position @pos out of the data area, wrapping. */
static void ring_copy(const struct dw_session *s, void *dst, __u64 pos, __u64 len)
{
	__u64 off = pos & (s->data_size - 1);
	__u64 first = s->data_size - off;

	if (first >= len) {
		memcpy(dst, s->data + off, len);
	} else {
		memcpy(dst, s->data + off, first);
		memcpy((unsigned char *)dst + first, s->data, len - first);
	}
}

/**
 * dw_session_drain_some() - hand committed records to @fn, about @max bytes
 * of them, and free their space
 * @s:		an open (or attached) session
 * @place:	where to copy a record of the given size (room for it, 8-byte
 *		aligned, not in the ring), or NULL: @s->scratch; may be NULL
 * @fn:		called with each record, a checked copy valid during the call
 * @arg:	passed to @place and @fn
 * @max:	stop once this many bytes were consumed (the record that
 *		crosses it is the last); at least one record is consumed
 *
 * Context: user space; the only consumer of the ring.  Follows the
 * protocol in uapi/linux/dunwind.h: load-acquire data_head, load-acquire
 * each record's type (stop at DUNWIND_REC_BUSY: retry later), copy and
 * check the record, store-release data_tail past it.  A record handed to
 * @fn is consumed even when @fn stops the drain.  After -EPROTO the ring
 * cannot be resynchronised: stop and close the session.
 * Return: records consumed; -EPROTO if data_head/data_tail are
 * inconsistent or a record is malformed (the tail stays before it);
 * or the non-zero value @fn returned.
 */
int dw_session_drain_some(struct dw_session *s, dw_place_fn place, dw_record_fn fn, void *arg,
			  __u64 max)
{
	__u64 head, tail, start;
	int n = 0, ret;

	head = __atomic_load_n(&s->ctrl->data_head, __ATOMIC_ACQUIRE);
	tail = __atomic_load_n(&s->ctrl->data_tail, __ATOMIC_RELAXED);
	if (head - tail > s->data_size || tail % 8 || head % 8)
		return -EPROTO;
	start = tail;
	while (tail != head && (tail == start || tail - start < max)) {
		const struct dunwind_rec_header *h =
			(const void *)(s->data + (tail & (s->data_size - 1)));
		__u32 type = __atomic_load_n(&h->type, __ATOMIC_ACQUIRE);
		__u16 size = __atomic_load_n(&h->size, __ATOMIC_RELAXED);
		struct dunwind_rec_header *rec;

		if (type == DUNWIND_REC_BUSY)
			break;
		if (size < sizeof(*h) || size % 8 || size > head - tail)
			return -EPROTO;
		rec = place ? place(size, arg) : NULL;
		if (!rec)
			rec = (void *)s->scratch;
		ring_copy(s, rec, tail, size);
		if (rec->size != size || rec->type != type || dunwind_rec_check(rec, size))
			return -EPROTO;
		tail += size;
		__atomic_store_n(&s->ctrl->data_tail, tail, __ATOMIC_RELEASE);
		if (n < __INT_MAX__)
			n++;
		ret = fn(rec, arg);
		if (ret)
			return ret;
	}
	return n;
}

/**
 * dw_session_drain_to() - hand every committed record to @fn and free its space
 * @s:		an open (or attached) session
 * @place:	as for dw_session_drain_some()
 * @fn:		as for dw_session_drain_some()
 * @arg:	passed to @place and @fn
 *
 * Context: user space; the only consumer of the ring.
 * Return: as dw_session_drain_some().
 */
int dw_session_drain_to(struct dw_session *s, dw_place_fn place, dw_record_fn fn, void *arg)
{
	return dw_session_drain_some(s, place, fn, arg, UINT64_MAX);
}

/**
 * dw_session_backlog() - bytes committed or being written, not yet drained
 * @s:		an open (or attached) session
 *
 * Context: user space; the only consumer of the ring.
 * Return: data_head - data_tail (a malformed control page may say more
 * than the ring holds: the next drain says -EPROTO).
 */
__u64 dw_session_backlog(const struct dw_session *s)
{
	return __atomic_load_n(&s->ctrl->data_head, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(&s->ctrl->data_tail, __ATOMIC_RELAXED);
}

/**
 * dw_session_drain() - dw_session_drain_to() through the session's scratch
 * @s:		an open (or attached) session
 * @fn:		called with each record, a checked copy valid during the call
 * @arg:	passed to @fn
 *
 * Context: user space; the only consumer of the ring.
 * Return: as dw_session_drain_to().
 */
int dw_session_drain(struct dw_session *s, dw_record_fn fn, void *arg)
{
	return dw_session_drain_to(s, NULL, fn, arg);
}

/**
 * dw_session_close() - unmap the ring and close the device
 * @s:		a session, open or not (a failed open leaves it closable)
 *
 * Context: user space.  Closing the device ends the session in the module.
 */
void dw_session_close(struct dw_session *s)
{
	if (s->map && s->fd >= 0)
		munmap(s->map, s->map_len);
	if (s->fd >= 0)
		close(s->fd);
	free(s->scratch);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
