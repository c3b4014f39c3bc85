#!/usr/bin/env python3
"""Where a server's CPU goes, per request, from a perf profile of its JVM (docs/design.md, "Known limits").

Reads the output of `perf script -F comm,tid,ip,sym` for a recording of the server process
(`perf record -F HZ -g -p PID -- sleep SECONDS`, taken while SteadyLoad holds it at a rate) and prints
microseconds of CPU per request in each part, so that the JDK default's carriers and Shuttle's can be set
side by side whatever their thread names:

  scheduler   carrier samples outside any virtual thread: looking for work, parking, waking others
  vt-user     a virtual thread's own code (the handler, the HTTP library), out of the kernel
  vt-io       a virtual thread in a socket read or write system call
  vt-irq      a virtual thread interrupted or switched out (the leaf frames are interrupt exit or a switch)
  vt-lock     a virtual thread in dev.shuttle.lock (spinning or parking for the lock)
  dispatcher, jit, gc, other   the threads that are not carriers, by name

Usage: perf_split.py SCRIPT_FILE --hz 997 --requests 157000
"""
import argparse
import collections
import sys

CARRIER_PREFIXES = ("ForkJoinPool", "shuttle-carrier")
PARTS = ["scheduler", "vt-user", "vt-io", "vt-irq", "vt-lock", "dispatcher", "jit", "gc", "other"]


def part(comm, stack):
    if not comm.startswith(CARRIER_PREFIXES):
        if comm.startswith("HTTP-Dispatch"):
            return "dispatcher"
        if comm in ("C1", "C2"):
            return "jit"
        if comm in ("GC", "G1"):
            return "gc"
        return "other"
    if not any("runContinuation" in f for f in stack):
        return "scheduler"
    if any(f.startswith(("ksys_write", "ksys_read")) for f in stack):
        return "vt-io"
    if any(f.startswith(("asm_", "irqentry", "finish_task")) for f in stack[:3]):
        return "vt-irq"
    if any("dev.shuttle.lock." in f for f in stack):
        return "vt-lock"
    return "vt-user"


def samples(lines):
    """Yields (comm, stack leaf first) per sample of `perf script -F comm,tid,ip,sym`; a thread name with a space
    in it ("C2 CompilerThread0", "GC Thread#0") comes as its first word."""
    comm, stack = None, []
    for line in lines:
        if not line.strip():
            continue
        if line[0] not in " \t":
            if comm is not None:
                yield comm, stack
            comm, stack = line.split()[0], []
        else:
            fields = line.strip().split(None, 1)
            stack.append(fields[1] if len(fields) > 1 else "")
    if comm is not None:
        yield comm, stack


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("script")
    p.add_argument("--hz", type=float, required=True, help="the -F given to perf record")
    p.add_argument("--requests", type=float, required=True, help="requests completed while perf recorded")
    a = p.parse_args()
    if a.hz <= 0 or a.requests <= 0:
        sys.exit("perf_split.py: --hz and --requests must be above 0")
    counts = collections.Counter()
    try:
        with open(a.script) as f:
            for comm, stack in samples(f):
                counts[part(comm, stack)] += 1
    except OSError as e:
        sys.exit("perf_split.py: cannot read " + a.script + ": " + str(e))
    if not counts:
        sys.exit("perf_split.py: no samples in " + a.script + " (perf script -F comm,tid,ip,sym output?)")
    per_request = 1e6 / a.hz / a.requests
    total = sum(counts.values())
    print("total %.1f µs per request (%d samples)" % (total * per_request, total))
    for name in PARTS:
        print("  %-10s %6.1f" % (name, counts[name] * per_request))


if __name__ == "__main__":
    main()
