"""The process's turns at the application (games.api.gate): at most N requests run it at once,
and one that waits for news gives its turn to another meanwhile."""

from __future__ import annotations

import threading
import time

from games.live.gate import Turns


def test_a_turn_waits_for_one_given_back() -> None:
    turns = Turns(1)
    entered = threading.Event()

    def second() -> None:
        with turns.turn():
            entered.set()

    with turns.turn():
        waiting = threading.Thread(target=second)
        waiting.start()
        assert not entered.wait(0.2)  # the only turn is held
    assert entered.wait(5)
    waiting.join(5)


def test_stepping_out_lets_another_in_and_takes_a_turn_again() -> None:
    turns = Turns(1)
    entered, left = threading.Event(), threading.Event()

    def other() -> None:
        with turns.turn():
            entered.set()
            time.sleep(0.2)
        left.set()

    with turns.turn():
        thread = threading.Thread(target=other)
        thread.start()
        with turns.stepped_out():
            assert entered.wait(5)  # the other request runs while this one waits
        assert left.is_set()  # and this one ran on only once it had a turn again
    thread.join(5)


def test_without_a_turn_stepping_out_changes_nothing() -> None:
    turns = Turns(1)
    with turns.stepped_out(), turns.turn():  # a stream's thread, outside any turn
        pass
    with turns.turn():  # the single turn is still there
        pass


def test_zero_means_no_limit() -> None:
    turns = Turns(0)
    with turns.turn(), turns.turn(), turns.stepped_out():
        pass
