"""The test process's resident memory, read from /proc (Linux): current, and peak since a reset."""

from __future__ import annotations

from pathlib import Path

MB = 1 << 20


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(f"{field} is not in /proc/self/status")


def reset_peak() -> float:
    """Start a new peak measurement (Linux ``clear_refs`` 5); returns the current RSS in MB."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_kib("VmRSS") / 1024


def peak_mb() -> float:
    """The highest RSS in MB since :func:`reset_peak`."""
    return _status_kib("VmHWM") / 1024
