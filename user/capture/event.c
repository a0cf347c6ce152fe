// SPDX-License-Identifier: GPL-2.0
/* Sampling events by name: see event.h. */
#include <errno.h>
#include <string.h>
#include "capture/event.h"

static const char *const dw_events[DUNWIND_EVENT_MAX] = {
	[DUNWIND_EVENT_CPU_CLOCK]	= "cpu-clock",
	[DUNWIND_EVENT_TASK_CLOCK]	= "task-clock",
	[DUNWIND_EVENT_CYCLES]		= "cycles",
	[DUNWIND_EVENT_INSTRUCTIONS]	= "instructions",
	[DUNWIND_EVENT_CACHE_MISSES]	= "cache-misses",
	[DUNWIND_EVENT_BRANCH_MISSES]	= "branch-misses",
};

int dw_event_parse(const char *name)
{
	unsigned int i;

	for (i = 0; i < DUNWIND_EVENT_MAX; i++)
		if (!strcmp(name, dw_events[i]))
			return (int)i;
	return -EINVAL;
}

const char *dw_event_name(unsigned int event)
{
	return event < DUNWIND_EVENT_MAX ? dw_events[event] : "unknown-event";
}

bool dw_event_is_hw(unsigned int event)
{
	return event >= DUNWIND_EVENT_CYCLES && event < DUNWIND_EVENT_MAX;
}

const char *dw_sample_event_name(unsigned int event, __u32 flags)
{
	return flags & DUNWIND_SAMPLE_OFF_CPU ? DW_EVENT_OFFCPU_NAME : dw_event_name(event);
}

const char *dw_event_names(void)
{
	return "cpu-clock, task-clock, cycles, instructions, cache-misses, branch-misses";
}
