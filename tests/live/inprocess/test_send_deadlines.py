"""The stream tier's bounded sends (skyjo_service.asgi): a body write that waits past its
deadline (a client that stopped reading, its buffers full) is cancelled by the next sweep,
as a disconnect would be, while writes that end in time are left alone."""

from __future__ import annotations

import asyncio
import time

from skyjo_service.asgi import SendDeadlines


def test_a_stuck_write_is_cancelled_by_the_sweep_and_a_quick_one_is_not() -> None:
    async def scenario() -> tuple[bool, float, int]:
        deadlines = SendDeadlines(0.2)
        for _ in range(100):  # writes that end at once
            await deadlines.within(asyncio.sleep(0), "/quick")
        stuck = asyncio.get_running_loop().create_future()
        began = time.monotonic()
        writer = asyncio.create_task(deadlines.within(stuck, "/stuck"))
        try:
            await writer
        except asyncio.CancelledError:
            return True, time.monotonic() - began, len(deadlines.under_way)
        return False, time.monotonic() - began, len(deadlines.under_way)

    cancelled, took, left = asyncio.run(scenario())
    assert cancelled and 0.2 <= took < 2.5, took
    assert left == 0
