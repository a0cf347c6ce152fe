// SPDX-License-Identifier: GPL-2.0
/* dw_event_*: sampling events by name, both ways, and the hardware ones. */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "capture/event.h"

int main(void)
{
	static const char *const names[] = { "cpu-clock", "task-clock", "cycles",
					      "instructions", "cache-misses", "branch-misses" };
	unsigned int i, round_trip = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		round_trip += dw_event_parse(names[i]) == (int)i &&
			      !strcmp(dw_event_name(i), names[i]);
	ok(round_trip == DUNWIND_EVENT_MAX, "every event's name parses back to it (%u of %d)",
	   round_trip, DUNWIND_EVENT_MAX);
	ok(dw_event_parse("cpu-clock") == DUNWIND_EVENT_CPU_CLOCK && DUNWIND_EVENT_CPU_CLOCK == 0,
	   "cpu-clock is event 0, what older captures and configs hold");
	ok(dw_event_parse("cycle") == -EINVAL && dw_event_parse("") == -EINVAL &&
	   dw_event_parse("CPU-CLOCK") == -EINVAL, "unknown or misspelt names are -EINVAL");
	ok(!strcmp(dw_event_name(DUNWIND_EVENT_MAX), "unknown-event"),
	   "an event number past the known ones is named unknown-event");
	ok(!dw_event_is_hw(DUNWIND_EVENT_CPU_CLOCK) && !dw_event_is_hw(DUNWIND_EVENT_TASK_CLOCK) &&
	   dw_event_is_hw(DUNWIND_EVENT_CYCLES) && dw_event_is_hw(DUNWIND_EVENT_BRANCH_MISSES) &&
	   !dw_event_is_hw(DUNWIND_EVENT_MAX), "the clocks are software, the rest hardware");
	for (i = 0; i < DUNWIND_EVENT_MAX; i++)
		if (!strstr(dw_event_names(), dw_event_name(i)))
			break;
	ok(i == DUNWIND_EVENT_MAX, "the help's list names every event");
	return tap_done();
}
