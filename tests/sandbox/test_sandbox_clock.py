"""Agent code reads the World's clock, not the machine's (issue 13): datetime.now(), date.today(), time.time()
and local time inside the confined interpreter are frozen at the time the parent sends, which moves when the
World's clock moves (at each run and each tool result)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone

from mmtsb.sandbox import Interpreter
from mmtsb.sandbox.clock import posix_tz

REFERENCE = datetime(2026, 4, 16, 23, 51, 15, tzinfo=timezone(timedelta(hours=2)))
READ = ("import datetime, time\n"
        "print(datetime.datetime.now().isoformat(), datetime.date.today().isoformat(), int(time.time()), "
        "time.strftime('%Y-%m-%d %H:%M'), datetime.datetime.now(datetime.timezone.utc).isoformat())")


@dataclass
class Outcome:
    value: object = "ok"
    ok: bool = True
    images: list = field(default_factory=list)


def test_code_reads_the_worlds_frozen_time_in_its_offset(sandbox_server):
    with Interpreter(clock=lambda: REFERENCE, server=sandbox_server) as it:
        first = it.run(READ)
        again = it.run("import time\nfor _ in range(200000): pass\n" + READ)
    assert first.error is None, first.error
    assert first.stdout.split() == ["2026-04-16T23:51:15", "2026-04-16", str(int(REFERENCE.timestamp())),
                                    "2026-04-16", "23:51", "2026-04-16T21:51:15+00:00"]
    assert again.stdout == first.stdout   # frozen: no time passes while code runs
    assert it.layers["seccomp"] or it.layers["rlimits"]   # inside the confined child


def test_the_code_clock_moves_with_the_worlds_clock(sandbox_server):
    world_now = [REFERENCE]

    def advance(name, args):
        world_now[0] += timedelta(days=1, hours=1)   # a tool that moves the World's clock
        return Outcome()

    with Interpreter(tools=["wait_a_day"], tool_handler=advance, clock=lambda: world_now[0],
                     server=sandbox_server) as it:
        result = it.run("import datetime\nbefore = datetime.date.today()\nwait_a_day()\n"
                        "print(before, datetime.datetime.now())")
        world_now[0] = REFERENCE.replace(year=2030)
        later = it.run("import datetime\nprint(datetime.date.today())")
    assert result.stdout.split() == ["2026-04-16", "2026-04-18", "00:51:15"]
    assert later.stdout.strip() == "2030-04-16"


def test_without_a_clock_the_code_sees_the_machine_time(sandbox_server):
    with Interpreter(server=sandbox_server) as it:
        year = it.run("import datetime\ndatetime.date.today().year").value
    assert int(year) == datetime.now(UTC).year


def test_posix_tz_strings_count_west_as_positive():
    assert posix_tz(7200) == "<+0200>-02:00" and posix_tz(-18000) == "<-0500>+05:00" and posix_tz(0) == "<+0000>-00:00"
