/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling events by name (perf's names: cpu-clock, task-clock, cycles,
 * instructions, cache-misses, branch-misses), as DUNWIND_IOC_CONFIG takes
 * them (enum dunwind_event) and as a capture's header records them.
 */
#ifndef DW_CAPTURE_EVENT_H
#define DW_CAPTURE_EVENT_H

#include <stdbool.h>
#include <linux/dunwind.h>

/* The DUNWIND_EVENT_* called @name, or -EINVAL. */
int dw_event_parse(const char *name);
/* The name of DUNWIND_EVENT_* @event ("unknown-event" for others). */
const char *dw_event_name(unsigned int event);
/* Whether @event is counted by a hardware PMU (and overflows in NMI). */
bool dw_event_is_hw(unsigned int event);
/* The names, comma-separated, for messages and help. */
const char *dw_event_names(void);

/* Off-CPU samples' event name (perf's): their period is ns off CPU. */
#define DW_EVENT_OFFCPU_NAME	"offcpu-time"
/* The event name of a sample with @flags (DUNWIND_SAMPLE_*) in a capture of @event. */
const char *dw_sample_event_name(unsigned int event, __u32 flags);

#endif
