// SPDX-License-Identifier: GPL-2.0
/*
 * A process the capture has no MMAP records (or no name) for stands in
 * for itself when it is still running and is the process that was
 * recorded: started before the capture was, during the boot that
 * recorded it.  Its name and maps are then read from /proc.  Otherwise
 * it is ":PID", as perf names a process it does not know.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/profile_priv.h"

/* Boot-time start of process @pid in ns, or 0 if unknown. */
static unsigned long long proc_start_ns(int pid)
{
	char path[64], buf[1024], *s;
	unsigned long long ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	s = strrchr(buf, ')');		/* comm may hold spaces */
	if (!s || hz <= 0)
		return 0;
	for (i = 3; i <= 22 && s; i++)	/* starttime is field 22 */
		s = strchr(s + 1, ' ');
	if (!s || sscanf(s + 1, "%llu", &ticks) != 1)
		return 0;
	return ticks * (1000000000ULL / (unsigned long long)hz);
}

/* What the running system says about @pid, if it is the recorded process. */
struct live_proc *prof_live_get(struct dw_prof *p, int pid)
{
	struct prof_priv *pp = p->priv;
	struct live_proc *lp;
	unsigned long long start;
	char path[64];
	FILE *f;

	for (lp = pp->live; lp; lp = lp->next)
		if (lp->pid == pid)
			return lp;
	lp = calloc(1, sizeof(*lp));
	if (!lp)
		return NULL;
	lp->pid = pid;
	snprintf(lp->comm, sizeof(lp->comm), ":%d", pid);	/* perf's "unknown" */
	lp->next = pp->live;
	pp->live = lp;
	if (pp->other_boot) {
		p->live_refused++;
		return lp;
	}
	start = proc_start_ns(pid);
	if (!start || !p->hdr.created_boottime_ns || start > p->hdr.created_boottime_ns)
		return lp;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(lp->comm, sizeof(lp->comm), f))
			lp->comm[strcspn(lp->comm, "\n")] = '\0';
		fclose(f);
	}
	if (pp->o->user_symbols)
		lp->maps = dw_maps_load(pp->dsos, pid);
	return lp;
}

/* Free the processes read from /proc. */
void prof_live_free(struct prof_priv *pp)
{
	struct live_proc *lp, *lnext;

	for (lp = pp->live; lp; lp = lnext) {
		lnext = lp->next;
		dw_maps_free(lp->maps);
		free(lp);
	}
	pp->live = NULL;
}
