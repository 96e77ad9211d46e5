"""The sandbox starts beside the episode's first model call; its first run waits for it."""

from __future__ import annotations

import threading
import time

import pytest

from mmtsb.episode.play import StartingRunner


class Runner:
    def __init__(self) -> None:
        self.ran: list[str] = []
        self.closed = False

    def run(self, code: str) -> str:
        self.ran.append(code)
        return f"ran {code}"

    def close(self) -> None:
        self.closed = True


def test_the_first_run_waits_for_the_start_and_close_closes_it():
    release, made = threading.Event(), Runner()

    def start() -> Runner:
        release.wait(5)
        return made

    starting = StartingRunner(start)
    threading.Timer(0.2, release.set).start()
    t0 = time.perf_counter()
    assert starting.run("1+1") == "ran 1+1" and time.perf_counter() - t0 >= 0.15
    starting.close()
    assert made.ran == ["1+1"] and made.closed


def test_a_failed_start_raises_from_every_run_and_close_is_quiet():
    def start() -> Runner:
        raise RuntimeError("could not start a sandboxed interpreter")

    starting = StartingRunner(start)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="could not start"):
            starting.run("x = 1")
    starting.close()
