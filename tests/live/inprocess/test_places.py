"""The places streams and long polls hold in a process (games.live.Hub.reserve): taken and
counted at once, so simultaneous requests never get more than there are; given back once."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.test import override_settings

from games.core.errors import TooManyStreams, TooManyStreamsFromAddress
from games.live.fanout import LONG_POLL, STREAM, Hub, Place


@override_settings(LIVE_MAX_STREAMS=10, LIVE_MAX_STREAMS_PER_ADDRESS=100)
def test_thirty_at_once_get_the_places_and_no_more() -> None:
    hub, start = Hub(), threading.Barrier(30)
    places: list[Place] = []

    def take(number: int) -> None:
        start.wait()
        with contextlib.suppress(TooManyStreams):
            places.append(hub.reserve(STREAM if number % 2 else LONG_POLL, f"10.0.0.{number}"))

    takers = [threading.Thread(target=take, args=(n,)) for n in range(30)]
    for taker in takers:
        taker.start()
    for taker in takers:
        taker.join(10)
    assert len(places) == 10 and hub.held.total() == 10
    for place in places:
        place.release()
        place.release()  # twice: given back once
    assert hub.held.total() == 0


@override_settings(LIVE_MAX_STREAMS=10, LIVE_MAX_STREAMS_PER_ADDRESS=2)
def test_an_address_gets_its_places_and_no_more() -> None:
    hub = Hub()
    with hub.reserve(STREAM, "10.0.0.1"), hub.reserve(LONG_POLL, "10.0.0.1"):
        with pytest.raises(TooManyStreamsFromAddress):
            hub.reserve(STREAM, "10.0.0.1")
        hub.reserve(STREAM, "10.0.0.2").release()  # another address
    hub.reserve(STREAM, "10.0.0.1").release()  # its places came back
    assert hub.held.total() == 0
