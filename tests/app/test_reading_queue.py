"""Photos read two at a time for the whole server: a photo that has to wait is told how many
are ahead of it (being read, or waiting before it), and every slot is given back."""
from __future__ import annotations

import threading
import time

from app import recognise


def _hold(release: threading.Event, said: list, started: threading.Event):
    def run():
        with recognise.reading_slot(on_wait=said.append):
            started.set()
            release.wait(10)
    return threading.Thread(target=run)


def test_a_waiting_photo_is_told_how_many_are_ahead():
    release, said = threading.Event(), []
    threads = []
    for expected_said in ([], [], [2], [2, 3]):
        started = threading.Event()
        threads.append(_hold(release, said, started))
        threads[-1].start()
        if not expected_said:
            assert started.wait(5)  # a free slot: read at once, nothing said
        else:
            deadline = time.monotonic() + 5
            while said != expected_said and time.monotonic() < deadline:
                time.sleep(0.01)
        assert said == expected_said
    release.set()
    for thread in threads:
        thread.join(10)
    assert recognise._READS._value == recognise.MAX_READS_AT_ONCE
    assert recognise._QUEUE["waiting"] == 0


def test_a_wait_given_up_takes_no_slot():
    release, holders = threading.Event(), []
    for _ in range(recognise.MAX_READS_AT_ONCE):
        started = threading.Event()
        holders.append(_hold(release, [], started))
        holders[-1].start()
        assert started.wait(5)

    def give_up(ahead):
        raise RuntimeError("the page moved on")
    try:
        with recognise.reading_slot(on_wait=give_up):
            raise AssertionError("read without a slot")
    except RuntimeError:
        pass
    release.set()
    for thread in holders:
        thread.join(10)
    assert recognise._READS._value == recognise.MAX_READS_AT_ONCE
    assert recognise._QUEUE["waiting"] == 0
