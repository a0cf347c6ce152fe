# SPDX-License-Identifier: GPL-2.0
# bench/table.awk: turn the RESULT/FIXED/INFO lines of bench/guest into the
# benchmark table and the targets check.  POSIX awk.
#
#   awk -v md=0|1 [-v date=... -v host=... -v secs=N -v repeats=N -v freq=N
#       -v accel=...] -f table.awk RESULTS
#
# md=0: a plain text table (stdout of make bench); md=1: the Markdown of
# Documentation/benchmarks.md.  -v section=arm64 (with md=1): the results of
# tools/bench --arch arm64 as a section of that document ("## arm64 ...",
# its fixed cost and targets as "###" headings under it), which refers to
# the columns the x86 table above explains.  Per workload x build x tool, over the repeats:
# complete = sum complete / sum window (stacks.awk); B/sample = capture bytes
# / samples; net B/sample = (bytes - the tool's FIXED capture) / samples;
# throughput = median work profiled / median work unprofiled; lost summed;
# dunwind's module figures averaged over the repeats (weighted by walks and
# frames where that is what they are per).
# The FIXEDCOST runs (bench/guest's fixedcost): one table, and the target.
function fixedcost(   i, ns0, w0, dw, inside, n, sep) {
	ns0 = fcnone_n ? fcnone_ns / fcnone_n : 0
	w0 = fcnone_n ? fcnone_work / fcnone_n : 0
	sep = md ? " | " : "  "
	print ""
	print md ? sub2 "Fixed cost of a recording" sfx : "Fixed cost of a recording:"
	if (md) {
		print ""
		print "chain-nofp for " secs " s alone (*none*) and under `dunwind record -F 1`" \
			" (two samples, whose cost vanishes), each command timed whole by" \
			" `bench/elapsed.c`" (exact ? " (1 ns = one instruction, or the guest" \
			" idling)" : "") ".  *beyond* is the command's time past the" \
			" program's (outside its time: tables before the exec, snapshots after" \
			" its end); *work* the program's own, whose drop is the cost inside its" \
			" time; the first recording of the boot finds the table cache *cold*."
		print ""
		print "| run | time | beyond | work | tables | kernel symbols | user symbols |"
		print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	}
	for (i = 1; i <= nfc; i++) {
		if (fc[i, "run"] != "none") {
			dw += fc[i, "work"]
			n++
		}
		printf "%s%s%s%.3f s%s%s%s%d%s%s%s%s%s%s%s\n", md ? "| " : "  ", fc[i, "run"], sep,
			fc[i, "ns"] / 1e9, sep,
			fc[i, "run"] == "none" ? "-" : sprintf("%.3f s", (fc[i, "ns"] - ns0) / 1e9),
			sep, fc[i, "work"], sep,
			fc[i, "run"] == "none" ? "-" : fc[i, "tables_ms"] " ms", sep,
			fc[i, "run"] == "none" ? "-" : fc[i, "ksyms_ms"] " ms", sep,
			fc[i, "run"] == "none" ? "-" : fc[i, "usyms_ms"] " ms", md ? " |" : ""
	}
	inside = n && w0 ? 100 * (w0 - dw / n) / w0 : 0
	print ""
	printf "Inside the program's time: %.3f %% of its work (mean of %d recordings against" \
		" %d unprofiled runs; target under 0.2 %%: %s).\n", inside, n, fcnone_n,
		inside < 0.2 ? "met" : "missed"
}

function kv(   i, p) {
	delete f
	for (i = 2; i <= NF; i++) {
		p = index($i, "=")
		if (p)
			f[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
}
function median(key,   n, i, j, t, v) {
	n = nval[key]
	if (!n)
		return 0
	for (i = 1; i <= n; i++)
		v[i] = val[key, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function spread(key,   n, i, lo, hi, m) {
	n = nval[key]
	m = median(key)
	if (n < 2 || m <= 0)
		return "-"
	lo = hi = val[key, 1]
	for (i = 2; i <= n; i++) {
		if (val[key, i] < lo)
			lo = val[key, i]
		if (val[key, i] > hi)
			hi = val[key, i]
	}
	return sprintf("%.0f", 100 * (hi - lo) / m)
}
function num(x) {
	return x == "na" || x == "" ? 0 : x + 0
}
function add(key, name, x) {
	sum[key, name] += num(x)
}
function pct(a, b) {
	return b > 0 ? sprintf("%.1f", 100 * a / b) : "-"
}
function row(cells,   n, c, i, out) {
	n = split(cells, c, "|")
	if (md) {
		out = "|"
		for (i = 1; i <= n; i++)
			out = out " " c[i] " |"
		print out
		return
	}
	out = ""
	for (i = 1; i <= n; i++)
		out = out sprintf(i <= 3 ? "%-" width[i] "s " : "%" width[i] "s ", c[i])
	sub(/ +$/, "", out)
	print out
}
$1 == "INFO" {
	kv()
	kernel = f["kernel"]; guestcpu = f["cpu"]; gsub(/_/, " ", guestcpu)
	perfver = f["perf"]; gsub(/_/, " ", perfver)
	perf7ver = f["perf7"]; gsub(/_/, " ", perf7ver)
	ncpu = f["cpus"]
	pinall = f["pinall"] + 0
	if (f["secs"] != "") {
		secs = f["secs"]; repeats = f["repeats"]; freq = f["freq"]
	}
}
$1 == "MODE" {
	kv()
	exact = f["exact"] + 0
}
$1 == "bench:" && $2 == "done" {
	elapsed = $4
}
$1 == "FIXEDCOST" {
	kv()
	nfc++
	for (k in f)
		fc[nfc, k] = f[k]
	if (f["run"] == "none") {
		fcnone_ns += f["ns"]
		fcnone_work += f["work"]
		fcnone_n++
	}
}
$1 == "FIXED" {
	kv()
	fixedb[f["t"]] = f["bytes"]
}
$1 == "RESULT" {
	kv()
	key = f["w"] SUBSEP f["b"] SUBSEP f["t"]
	wseen[f["w"]] = 1
	if (!(key in seen)) {
		seen[key] = 1
		order[++nkeys] = key
	}
	val[key, ++nval[key]] = f["work"] + 0
	add(key, "runs", 1)
	add(key, "failed", f["work"] == "0")
	if (f["t"] == "none")
		next
	add(key, "bytes", f["bytes"])
	add(key, "samples", f["samples"])
	add(key, "window", f["window"])
	add(key, "complete", f["complete"])
	add(key, "lost", f["lost"])
	add(key, "fixed", fixedb[f["t"]])
	# The recorder's CPU over the run's window, read from outside (guest).
	if (f["recwin"] != "na" && f["recwin"] != "") {
		add(key, "recwin", f["recwin"])
		add(key, "recwinsamples", f["samples"])
	}
	if (f["t"] ~ /^dunwind/) {
		add(key, "dwsamples", f["dwsamples"])
		add(key, "spw", f["spw"])
		add(key, "handler", num(f["handler"]) * num(f["dwsamples"]))
		add(key, "walkns", num(f["walk"]) * num(f["walks"]))
		if (f["recorder"] != "na" && f["recorder"] != "") {
			add(key, "recns", num(f["recorder"]) * num(f["dwsamples"]))
			add(key, "recsamples", f["dwsamples"])
		}
		add(key, "frames", f["frames"])
		add(key, "fpframes", f["fpframes"])
		add(key, "sfframes", f["sfframes"])
		if (f["fpns"] != "na") {
			havesplit = 1
			add(key, "fpns", num(f["fpns"]) * num(f["fpframes"]))
			add(key, "sfns", num(f["sfns"]) * num(f["sfframes"]))
		}
	}
}
# section_head: the head of a section of another architecture's run
# (-v section=NAME, tools/bench --arch): where it ran, what ran and what
# did not, what differs from the x86 runs; columns as the x86 table's.
function section_head(   all, n, i, w, ran, left) {
	n = split("chain deep qsort syscall sleep threads", all, " ")
	for (i = 1; i <= n; i++) {
		w = all[i]
		if (w in wseen)
			ran = ran (ran == "" ? "" : ", ") w
		else
			left = left (left == "" ? "" : ", ") w
	}
	print "## " section " (`make bench ARCH=" section "`, `tools/bench --arch " section "`)"
	print ""
	print "Generated by `tools/bench --arch " section "` on " date "."
	print ""
	print "- Kernel: " kernel " in QEMU (" accel ", " ncpu " vCPUs; guest CPU: " \
		guestcpu ")" (exact ? "; exact mode: `-icount shift=0,sleep=off`, guest time" \
		" is instructions executed" : "; wall-clock mode")
	print "- Host: " host
	print "- " perfver " (Debian 12's arm64 `linux-perf`, unpacked by `tools/arm64-perf`," \
		" never installed); dunwind from this tree, cross-built (`make user ARCH=arm64`)"
	print "- Each run: the workload for " secs " s, sampled at " freq " Hz (cpu-clock); " \
		repeats " repeats per workload x build x tool, tools taking turns; all runs in" \
		" one VM boot" (elapsed != "" ? " (" elapsed " in the guest)" : "")
	print ""
	print "Reproduce with `make bench ARCH=" section "` (`BENCH_*` as above; this" \
		" run's defaults: `tools/bench --help`).  Raw results: `out/bench/" section ".txt`."
	print ""
	print "Workloads, tools and columns as in the x86 table above; workloads run: " \
		ran (left != "" ? "; left out to keep the run under 25 minutes of wall" \
		" time (`BENCH_WORKLOADS` adds them): " left : "") ".  Builds as on x86," \
		" cross-built with `aarch64-linux-gnu-gcc` against `tools/arm64-sysroot`" \
		" (Debian 12's arm64 libc, no frame pointers, no .sframe): fp" \
		" `-O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer` (x29/x30 frame" \
		" records), nofp `-O2 -fomit-frame-pointer` (the recorder's tables from" \
		" `.eh_frame`), sframe `-O2 -fomit-frame-pointer -Wa,--gsframe` (aarch64" \
		" SFrame v1 from the cross binutils 2.40).  *perf-dwarf* names its user" \
		" registers (`--user-regs=x0,...,x28,x29,lr,sp,pc`): left to itself, perf" \
		" 6.1 adds SVE's VG to the mask on this `-cpu max` guest (its probe, a" \
		" hardware event, accepts it), which the kernel refuses for a software event" \
		" such as cpu-clock (EOPNOTSUPP, \"PMU Hardware doesn't support" \
		" sampling/overflow-interrupts\")."
	print ""
}

END {
	unit = exact ? "instr" : "ns"
	split("workload|build|tool|complete %|B/sample|net B/sample|throughput %|" unit "/sample|lost|" \
	      "samples/walk|handler " unit "/sample|walk " unit "/frame|recorder " unit "/sample|" \
	      "frames fp/sframe|spread %", hdr, "|")
	for (i = 1; i <= 15; i++)
		width[i] = length(hdr[i])
	width[1] = 8; width[2] = 6; width[3] = 10
	# The headings under the table: "##" in the document's head, "###"
	# under a section's own heading.
	sub2 = section != "" ? "### " : "## "
	sfx = section != "" ? " (" section ")" : ""
	if (md && section != "") {
		section_head()
		row(hdr[1] "|" hdr[2] "|" hdr[3] "|" hdr[4] "|" hdr[5] "|" hdr[6] "|" hdr[7] \
		    "|" hdr[8] "|" hdr[9] "|" hdr[10] "|" hdr[11] "|" hdr[12] "|" hdr[13] "|" hdr[14] \
		    "|" hdr[15])
		print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" \
		      " ---: | ---: | ---: |"
	} else if (md) {
		print "# Benchmarks: dunwind against Linux perf"
		print ""
		print "Generated by `make bench` (`tools/bench`) on " date "."
		print ""
		print "- Kernel: " kernel " in QEMU (" accel ", " ncpu " vCPUs; guest CPU: " \
			guestcpu ")" (exact ? "; exact mode: `-icount shift=0,sleep=off`, guest time" \
			" is instructions executed" : "; wall-clock mode")
		print "- Host: " host
		print "- " perfver (perf7ver != "" ? "; perf-defer: Debian unstable's " perf7ver \
			" (`--call-graph fp,defer`)" : "") "; dunwind from this tree"
		print "- Each run: the workload for " secs " s, sampled at " freq \
			" Hz (cpu-clock); " repeats " repeats per workload x build x tool," \
			" tools taking turns; all runs in one VM boot" \
			(elapsed != "" ? " (" elapsed " in the guest)" : "")
		print ""
		print "Reproduce with `make bench` (`BENCH_SECS`, `BENCH_REPEATS`, `BENCH_FREQ`," \
			" `BENCH_WORKLOADS`, `BENCH_BUILDS`, `BENCH_TOOLS` narrow or lengthen it;" \
			" see `tools/bench --help`).  Raw results: `out/bench/results.txt`."
		print ""
		print "Workloads (`bench/*.c`; each prints the work it did):"
		print ""
		print "| workload | known chain (leaf first) | what |"
		print "| --- | --- | --- |"
		print "| chain | leaf c b a main | CPU-bound, leaf spins |"
		print "| deep | deep_leaf descend x100 a main | 100 frames of ~208 bytes (20 KiB);" \
			" not deeper: perf (kernel.perf_event_max_stack 127) and dunwind" \
			" (--max-stack 128) cut longer stacks by default |"
		print "| qsort | compare (libc qsort...) sort_once c b a main | hot callback called from libc |"
		print "| syscall | (libc write) do_write c b a main | write(2) of 1 byte to /dev/null |"
		print "| sleep | (libc nanosleep) nap c b a main | 20 us nanosleep: off-CPU loop |"
		print "| threads | leaf c b a worker | 8 threads running the chain" \
			(exact ? "; in exact mode on one vCPU (below) |" : " |")
		print ""
		print "Tools: *perf-fp* `perf record -g` (`--call-graph fp`), *perf-dwarf*" \
			" `--call-graph dwarf` (8 KiB stack copies), *dunwind* `dunwind record`" \
			" (defaults), *dunwind-fp* `dunwind record --fp-only` (frame pointers" \
			" only: its stacks stop in code without them; there for the" \
			" frame-pointer walk's cost per frame, no target applies), *dunwind-z*" \
			" `dunwind record -z` (zstd-compressed capture; only when BENCH_TOOLS" \
			" names it)" (perf7ver != "" ? "; *perf-defer* upstream's own deferred" \
			" callchains, `perf record --call-graph fp,defer` (frame pointers only," \
			" walked at return to user; " perf7ver ", its `defer_callchain` attribute" \
			" checked on every capture, stacks read with `perf script --merge-callchains`)" : "") "."
		print ""
		print "Builds: fp `-O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer`," \
			" nofp `-O2 -fomit-frame-pointer`, sframe `-O2 -fomit-frame-pointer" \
			" -Wa,--gsframe` (SFrame v1 from binutils 2.40).  libc and ld.so are" \
			" Debian's (no frame pointers, no .sframe)."
		print ""
		print "Columns: *complete*: share of the samples taken while the loop runs whose" \
			" user stack has the known chain in order up to the root (`bench/stacks.awk`);" \
			" *B/sample*: capture file size / samples; *net B/sample*: the same" \
			" without the tool's fixed cost (its capture of `true`: headers; dunwind" \
			" also stores kernel symbols); *throughput*: median work profiled /" \
			" median work unprofiled; *" unit "/sample*: what one sample costs the" \
			" profiled program, (1 - throughput) x run time / samples per run" \
			(exact ? " (exact mode: 1 ns of guest time is one instruction, so" \
			 " the module's ns counters are instruction counts too)" : "") "; *spread*: (max - min) / median of the" \
			" work over the repeats, the noise of the machine; *lost*: perf's lost chunks (as `perf script`" \
			" warns), dunwind's lost records; dunwind columns from the recorder's" \
			" summary (DUNWIND_IOC_STATS): *handler " unit "/sample* the module's" \
			" sampling handler, *walk " unit "/frame* the walk time per" \
			" user frame (FP/SFrame apart once the recorder prints `fp N ns/frame," \
			" sframe N ns/frame`), *frames fp/sframe* the frames each unwound;" \
			" *recorder " unit "/sample*, every tool: the recording process's CPU" \
			" time while the workload ran, over the samples, read from outside it" \
			" (the profiled command is `sh -c` around the workload, which sums its" \
			" parent's, the recorder's, /proc/PID/task/*/schedstat before and after" \
			" the workload: the shell's own reads, no process, outside the" \
			" workload's timed run), and on dunwind rows in parentheses its" \
			" summary's `recorder: N ms of CPU while recording, N ns per sample`" \
			" (from the session's start to its last drain after the workload's" \
			" end; the tables before, the stop and the symbol snapshots left out)." \
			"  What a recorder does after the workload's end is outside" \
			" *throughput*: perf drains its buffer when it fills up or at the end" \
			" (on chain/fp, perf fp used about 19 us of CPU while the workload ran)."
		print ""
		print "Only samples of a thread running its loop count for *complete* (the" \
			" workloads rename each thread `bench-loop` for it), so the loader, setup" \
			" and exit are out whatever the unwinder does.  A sample counts as" \
			" complete when its frames in the executable, up to the root, are the" \
			" outer part of the known chain, and when it is in a library (or a PLT" \
			" stub) they start at the function that calls the library: a walk that" \
			" skips a frame is caught.  " (exact ? "In exact mode the guest's clock" \
			" counts instructions: a run gives the same work to a few iterations" \
			" whatever the host does.  That holds while one vCPU runs: QEMU runs" \
			" the vCPUs in turn on one thread, so with two busy vCPUs a vCPU's" \
			" clock also counts the other's instructions (the module's ns" \
			" counters, handler and walk, are no instruction counts then), and" \
			" the second vCPU's timer interrupts stop now and then for up to" \
			" 0.7 s (/proc/interrupts), which cost either tool a third of its" \
			" samples in some runs and made throughput unfair between tools." \
			(pinall ? "  So every workload runs with its tool pinned to CPU 0" \
			 " (`taskset -c 0`, the recorder too; the other vCPU idles): threads'" \
			 " 8 threads on one vCPU, every run " secs * freq " samples or so." : \
			 "  So the threads workload runs with every tool pinned to CPU 0" \
			 " (`taskset -c 0`, the recorder too): 8 threads on one vCPU, every" \
			 " run " secs * freq " samples or so.") : "The guest runs on TCG under whatever" \
			" else the host runs: throughput figures are only as good as the" \
			" *spread* column says.")
		print ""
		if (exact) {
			print "The recorder's cost is in *throughput* whichever vCPU it runs on:" \
				" the guest clock counts the instructions of both vCPUs, so the" \
				" recorder's are time the workload's timer counts and work it does" \
				" not do, and *" unit "/sample* is the whole cost of a sample" \
				" (handler, walk, interrupt and return paths, recorder).  Measured" \
				" by hand on chain/fp (7.2, 2 s, two runs each): dunwind with" \
				" recorder and workload on CPU 0 did 24780 and 24779 iterations," \
				" with the recorder on CPU 1 and the workload on CPU 0 24782 and" \
				" 24780, unpinned 24772 and 24778; perf fp 24876 to 24879 in the" \
				" same three placements.  The recorder's 1.4 M instructions are 17" \
				" iterations, which no placement gained.  Its own CPU time is an" \
				" instruction count only while the other vCPU idles: with the" \
				" recorder on CPU 1, one of the two runs' summaries said 335 ms" \
				" (167,569 per sample) against 1.4 ms (the workload's instructions" \
				" on CPU 0 counted in the recorder's time)" (pinall ? ": hence" \
				" every workload on CPU 0, where the recorder's figure and the" \
				" module's are instruction counts." : ".")
			print ""
		}
		row(hdr[1] "|" hdr[2] "|" hdr[3] "|" hdr[4] "|" hdr[5] "|" hdr[6] "|" hdr[7] \
		    "|" hdr[8] "|" hdr[9] "|" hdr[10] "|" hdr[11] "|" hdr[12] "|" hdr[13] "|" hdr[14] \
		    "|" hdr[15])
		print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" \
		      " ---: | ---: | ---: |"
	} else {
		row(hdr[1] "|" hdr[2] "|" hdr[3] "|" hdr[4] "|" hdr[5] "|" hdr[6] "|" hdr[7] \
		    "|" hdr[8] "|" hdr[9] "|" hdr[10] "|" hdr[11] "|" hdr[12] "|" hdr[13] "|" hdr[14] \
		    "|" hdr[15])
	}
	for (k = 1; k <= nkeys; k++) {
		key = order[k]
		split(key, p, SUBSEP)
		base = p[1] SUBSEP p[2] SUBSEP "none"
		if (p[3] == "none") {
			row(p[1] "|" p[2] "|" "unprofiled" "|-|-|-|100|-|-|-|-|-|-|-|" spread(key))
			continue
		}
		s = sum[key, "samples"]
		comp = pct(sum[key, "complete"], sum[key, "window"])
		bps = s > 0 ? sprintf("%.0f", sum[key, "bytes"] / s) : "-"
		net = s > 0 ? sprintf("%.0f", (sum[key, "bytes"] - sum[key, "fixed"]) / s) : "-"
		thr = median(base) > 0 ? sprintf("%.1f", 100 * median(key) / median(base)) : "-"
		# What one sample costs the profiled program: the work it lost
		# (in time: instructions in exact mode) over the samples taken.
		cps = "-"
		if (median(base) > 0 && s > 0) {
			lost_work = 1 - median(key) / median(base)
			cps = sprintf("%.0f", lost_work * secs * 1e9 * sum[key, "runs"] / s)
		}
		spw = hnd = wns = rec = fr = "-"
		if (p[3] ~ /^dunwind/) {
			n = sum[key, "runs"]
			spw = sprintf("%.2f", sum[key, "spw"] / n)
			if (sum[key, "dwsamples"] > 0)
				hnd = sprintf("%.0f", sum[key, "handler"] / sum[key, "dwsamples"])
			if (sum[key, "frames"] > 0)
				wns = sprintf("%.0f", sum[key, "walkns"] / sum[key, "frames"])
			if (havesplit)
				wns = (sum[key, "fpframes"] > 0 ? sprintf("%.0f",
					sum[key, "fpns"] / sum[key, "fpframes"]) : "-") "/" \
				      (sum[key, "sfframes"] > 0 ? sprintf("%.0f",
					sum[key, "sfns"] / sum[key, "sfframes"]) : "-")
			fr = sum[key, "fpframes"] "/" sum[key, "sfframes"]
		}
		# The recorder's CPU while the workload ran, read from outside
		# (every tool); dunwind's own figure for its whole recording after it.
		if (sum[key, "recwinsamples"] > 0)
			rec = sprintf("%.0f", sum[key, "recwin"] / sum[key, "recwinsamples"])
		if (sum[key, "recsamples"] > 0) {
			rec = rec " (" sprintf("%.0f", sum[key, "recns"] / sum[key, "recsamples"]) ")"
			if (sum[key, "recwinsamples"] > 0) {
				chk_sum += sum[key, "recns"]
				chk_win += sum[key, "recwin"] * sum[key, "recsamples"] / \
					   sum[key, "recwinsamples"]
			}
		}
		R[key, "comp"] = comp; R[key, "bps"] = bps; R[key, "thr"] = thr
		if (sum[key, "fpframes"] > 0)
			R[key, "fpf"] = sum[key, "fpns"] / sum[key, "fpframes"]
		if (sum[key, "sfframes"] > 0)
			R[key, "sff"] = sum[key, "sfns"] / sum[key, "sfframes"]
		R[key, "net"] = net
		if (sum[key, "failed"] > 0)
			failed = failed " " p[1] "-" p[2] "/" p[3] "(" sum[key, "failed"] ")"
		R[key, "cps"] = cps
		row(p[1] "|" p[2] "|" p[3] "|" comp "|" bps "|" net "|" thr "|" cps "|" \
		    sprintf("%d", sum[key, "lost"]) "|" spw "|" hnd "|" wns "|" rec "|" fr "|" \
		    spread(key))
	}
	if (chk_sum > 0)
		printf "%sdunwind's recorder while the workloads ran: %.0f %% of its whole" \
			" recording's CPU (its summaries), over the dunwind rows.\n", md ? "\n" : "",
			100 * chk_win / chk_sum
	if (failed != "")
		print (md ? "\n**Failed runs** (work 0, counted as such):" : "FAILED runs:") failed
	if (nfc)
		fixedcost()
	# Targets, per workload x build that has a dunwind row.
	print ""
	print md ? sub2 "Targets" sfx : "Targets:"
	if (md) {
		print ""
		print "dunwind >= 99 % complete on every row (every build has frame pointers," \
			" SFrame or SFrame generated from .eh_frame); where perf fp is complete" \
			" (>= 99 %), B/sample <= perf fp's and throughput within 0.5 points of" \
			" perf fp's; B/sample <= 2 % of perf dwarf's and throughput never below" \
			" perf dwarf's" (perf7ver != "" ? "; within 0.5 points of perf" \
			" fp,defer's" : "") "; SFrame instructions per frame <= 2x the" \
			" frame-pointer walk's (the dunwind-fp row, where its stacks are whole)."
		print ""
	}
	met = total = 0
	for (k = 1; k <= nkeys; k++) {
		key = order[k]
		split(key, p, SUBSEP)
		if (p[3] != "dunwind")
			continue
		fp = p[1] SUBSEP p[2] SUBSEP "perf-fp"
		dw = p[1] SUBSEP p[2] SUBSEP "perf-dwarf"
		df = p[1] SUBSEP p[2] SUBSEP "perf-defer"
		dfp = p[1] SUBSEP p[2] SUBSEP "dunwind-fp"
		# perf fp's bytes and throughput are a bar only where its stacks are whole.
		fpok = (fp, "comp") in R && R[fp, "comp"] != "-" && R[fp, "comp"] + 0 >= 99
		miss = ""
		if (R[key, "comp"] == "-" || R[key, "comp"] + 0 < 99)
			miss = miss sprintf("; complete %s %% (%.1f points short)", R[key, "comp"],
					    99 - R[key, "comp"])
		if (fpok && R[fp, "bps"] != "-" && R[key, "bps"] + 0 > R[fp, "bps"] + 0)
			miss = miss sprintf("; %s B/sample > perf fp's %s (+%.0f %%; net %s vs %s)",
					    R[key, "bps"], R[fp, "bps"],
					    100 * R[key, "bps"] / R[fp, "bps"] - 100, R[key, "net"],
					    R[fp, "net"])
		if ((dw, "bps") in R && R[dw, "bps"] != "-" &&
		    R[key, "bps"] + 0 > 0.02 * R[dw, "bps"])
			miss = miss sprintf("; %s B/sample > 2 %% of perf dwarf's %s (%.1f %%;" \
					    " net %.1f %%)", R[key, "bps"], R[dw, "bps"],
					    100 * R[key, "bps"] / R[dw, "bps"],
					    R[dw, "net"] > 0 ? 100 * R[key, "net"] / R[dw, "net"] : 0)
		if (fpok && R[fp, "thr"] != "-" && R[key, "thr"] + 0.5 < R[fp, "thr"] + 0)
			miss = miss sprintf("; throughput %s %% < perf fp's %s %% - 0.5 (%.1f points)",
					    R[key, "thr"], R[fp, "thr"],
					    R[fp, "thr"] - 0.5 - R[key, "thr"])
		# Per frame against the FP walk only where that walk's stacks are whole.
		if ((key, "sff") in R && (dfp, "fpf") in R && R[dfp, "comp"] != "-" &&
		    R[dfp, "comp"] + 0 >= 99 && R[key, "sff"] > 2 * R[dfp, "fpf"])
			miss = miss sprintf("; SFrame %.0f instructions/frame > 2 x FP's %.0f",
					    R[key, "sff"], R[dfp, "fpf"])
		if ((dw, "thr") in R && R[dw, "thr"] != "-" && R[key, "thr"] + 0 < R[dw, "thr"] + 0)
			miss = miss sprintf("; throughput %s %% < perf dwarf's %s %% (%.1f points)",
					    R[key, "thr"], R[dw, "thr"], R[dw, "thr"] - R[key, "thr"])
		# Said with how complete its stacks were: fp,defer stops at code without FP.
		dfc = ""
		if ((df, "comp") in R && R[df, "comp"] != "-" && R[df, "comp"] + 0 < 99)
			dfc = "; its stacks " R[df, "comp"] " % complete"
		if ((df, "thr") in R && R[df, "thr"] != "-" && R[key, "thr"] + 0.5 < R[df, "thr"] + 0)
			miss = miss sprintf("; throughput %s %% < perf fp,defer's %s %% - 0.5 (%.1f points%s)",
					    R[key, "thr"], R[df, "thr"],
					    R[df, "thr"] - 0.5 - R[key, "thr"], dfc)
		total++
		if (miss == "") {
			met++
			continue
		}
		print (md ? "- " : "  ") p[1] "/" p[2] ": " substr(miss, 3)
	}
	print (md ? "\n" : "  ") met " of " total " dunwind rows meet every target."
}
