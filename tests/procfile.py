"""The Procfile's commands as the tests and benches start them."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def procfile_line(process: str) -> str:
    """The command of the Procfile's `process` line (`worker` -> "python -OO -m worker ...")."""
    prefix = f"{process}:"
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith(prefix))
    return line.removeprefix(prefix).strip()


def procfile_web(port: int, processes: int = 1) -> list[str]:
    """The Procfile's `web` command listening on `port` with `processes` processes, as this Python runs
    it (`python -m granian ...`: this interpreter's, whatever the PATH)."""
    line = procfile_line("web").replace("${PORT:-5000}", str(port))
    line = line.replace("${WEB_CONCURRENCY:-1}", str(processes))
    words = shlex.split(line)
    assert words[0] == "granian" and "$" not in line, line
    return [sys.executable, "-m", "granian", *words[1:]]


def procfile_python_flags(process: str = "worker") -> list[str]:
    """The interpreter's options on a Procfile line (`worker: python -OO -m worker ...`: ["-OO"]), for
    the tests and benches that start that process with this interpreter."""
    line = procfile_line(process)
    words = shlex.split(line)
    assert words[0] == "python" and "-m" in words, line
    return words[1:words.index("-m")]
