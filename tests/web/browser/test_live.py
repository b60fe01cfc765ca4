"""The table follows the game live: a `view` frame of the game's stream makes it re-read its
partial (htmx's SSE extension, `hx-trigger="sse:view"`); while no stream answers, it polls.

The stream itself is issue 14's: here the page's `EventSource` is a stand-in the test drives
(an init script), so what is checked is the page's wiring, whatever serves the stream.
"""

from __future__ import annotations

from typing import Any

from .support import api_create, api_join, button, status, version, wait_until

#: An EventSource that opens at once and whose frames the test dispatches.
FAKE_EVENT_SOURCE = """
class StandInEventSource extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    (window.streams = window.streams || []).push(this);
    setTimeout(() => { this.readyState = 1; if (this.onopen) this.onopen(new Event("open")); });
  }
  close() { this.readyState = 2; }
}
StandInEventSource.CONNECTING = 0;
StandInEventSource.OPEN = 1;
StandInEventSource.CLOSED = 2;
window.EventSource = StandInEventSource;
window.skyjoSafetyMs = 1e9;  // no re-read but the frames' (the page's net under the stream)
"""
VIEW_FRAME = "window.streams[0].dispatchEvent(new MessageEvent('view', {data: '{}'}))"
TABLE_BUSY = "document.getElementById('table').classList.contains('htmx-request')"


def create(page: Any) -> str:
    page.goto("/")
    form = page.get_by_role("region", name="New game")
    form.get_by_label("Your name").fill("Ada")
    button(form, "Create game").click()
    page.wait_for_url("**/games/*")
    return str(page.url.rsplit("/", 1)[1])


def test_a_view_frame_makes_the_table_reread_itself(new_page: Any, site: str) -> None:
    page = new_page()
    page.add_init_script(FAKE_EVENT_SOURCE)
    rereads: list[str] = []
    page.on("request", lambda r: rereads.append(r.url) if "/table?since=" in r.url else None)
    game_id = create(page)
    assert page.evaluate("window.streams.map(s => s.url)") == [f"/api/v1/games/{game_id}/stream"]
    before = version(page)
    api_join(site, game_id, "Bob")
    page.wait_for_timeout(2500)
    assert version(page) == before and rereads == []  # a stream is open: no polling
    page.evaluate(VIEW_FRAME)
    wait_until(lambda: status(page) == "setup", 5, "the table after the view frame")
    assert rereads == [f"{site}/games/{game_id}/table?since={before}"]
    # htmx drops a trigger while the table's request is still out (the page then catches up
    # by version, which this stand-in frame has none of): the next frame comes once it settled.
    wait_until(lambda: not page.evaluate(TABLE_BUSY), 5, "the first re-read settled")
    page.evaluate(VIEW_FRAME)  # a frame of a version the page shows: 204, nothing swapped
    wait_until(lambda: len(rereads) == 2, 5, "the second re-read")
    assert status(page) == "setup"


def test_without_a_stream_the_table_polls(new_page: Any, site: str) -> None:
    """A stream that cannot connect (a proxy that cuts it): the page polls each second."""
    page = new_page()
    page.add_init_script(
        "window.EventSource = class extends EventTarget {"
        " constructor() { super(); this.readyState = 2;"
        " setTimeout(() => this.onerror && this.onerror(new Event('error'))); }"
        " close() {} }; window.EventSource.CLOSED = 2;"
    )
    game_id = create(page)
    api_join(site, game_id, "Bob")
    wait_until(lambda: status(page) == "setup", 5, "the deal, polled")


def test_a_name_being_typed_survives_a_live_update(new_page: Any, site: str) -> None:
    """Joining from a waiting table's page: another player taking a seat meanwhile re-renders
    the table, and the name typed so far stays (hx-preserve)."""
    game_id = api_create(site, seats=3)
    page = new_page()
    page.goto(f"/games/{game_id}")
    page.get_by_label("Your name").fill("Mo")
    before = version(page)
    api_join(site, game_id, "Ned")
    wait_until(lambda: version(page) > before, 5, "the table after Ned joined")
    assert "Ned" in page.get_by_role("heading", level=2).all_inner_texts()
    button(page, "Join").click()
    page.wait_for_load_state()
    assert page.get_by_role("region", name="Mo (you)").is_visible()
