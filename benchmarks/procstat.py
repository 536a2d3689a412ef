"""CPU time and memory of a process, read from Linux's ``/proc`` (no psutil needed)."""

from __future__ import annotations

import os
import resource

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far, in seconds (1/100 s steps)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        # The command name (field 2) may hold spaces: count fields after its closing ')'.
        fields = stat.read().rsplit(")", 1)[1].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    return (utime + stime) / _TICKS


def memory_kib(pid: int) -> dict[str, int]:
    """Resident memory now (``VmRSS``) and at its highest so far (``VmHWM``), in KiB."""
    found: dict[str, int] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                found[name] = int(value.split()[0])
    return found


def own_cpu_seconds() -> float:
    """User plus system CPU time of this process so far, in seconds."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
