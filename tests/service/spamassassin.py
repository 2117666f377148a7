"""SpamAssassin 4 (Debian's package) scoring messages for tests: one spamd on a free port, local rules
only (`--local`: no DNS blocklists or other network tests, so a score is the same on every run and
machine), asked through spamc.  `make test` installs the packages when they are missing, so CI never
skips these checks; elsewhere a test without them skips with the command that installs them."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.services import free_port, required

INSTALL = "apt-get install -y spamassassin spamd spamc"


@dataclass
class Score:
    points: float
    rules: list[tuple[float, str, str]]  # (points, rule, description), the heaviest first

    def __str__(self) -> str:
        return f"{self.points} points: " + ", ".join(f"{rule} {points:+.1f} ({words})" for points, rule, words in
                                                      self.rules if points) or "no rule with points"


def parse_report(report: str) -> Score:
    """spamc -R's answer: "score/threshold" on the first line, then the report's table of rules."""
    points = float(report.split("/", 1)[0])
    table = report.split("---- ----", 1)[1] if "---- ----" in report else ""
    rules = [(float(m.group(1)), m.group(2), m.group(3).strip())
             for m in re.finditer(r"^\s*(-?\d+(?:\.\d+)?) (\w+)\s+(.*)$", table, re.M)]
    return Score(points, sorted(rules, key=lambda rule: -rule[0]))


class Spamd:
    def __init__(self, directory: Path):
        missing = [tool for tool in ("spamd", "spamc") if shutil.which(tool) is None]
        if missing:
            message = f"SpamAssassin is not installed ({', '.join(missing)} missing): {INSTALL}"
            if required():
                pytest.fail(message + " (RIFTPOST_REQUIRE_SERVICES=1: `make test` installs it)")
            pytest.skip(message)
        self.port = free_port()
        command = ["spamd", "--local", f"--listen=127.0.0.1:{self.port}", f"--pidfile={directory / 'spamd.pid'}",
                   "--min-children=1", "--max-children=2", "--nouser-config", "--syslog=stderr"]
        if os.geteuid() == 0:
            command.append("--username=nobody")  # spamd will not run its children as root
        self.log = open(directory / "spamd.log", "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120  # the first start compiles the rules: a while on a busy machine
        while not self._listening():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail("spamd did not start: " + (directory / "spamd.log").read_text(errors="replace")[-2000:])
            time.sleep(0.2)

    def _listening(self) -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", self.port)) == 0

    def score(self, message: bytes) -> Score:
        answer = subprocess.run(["spamc", "-d", "127.0.0.1", "-p", str(self.port), "-R", "-x"], input=message,
                                capture_output=True, timeout=120)
        assert answer.returncode == 0, answer.stderr.decode(errors="replace")
        return parse_report(answer.stdout.decode("utf-8", errors="replace"))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
