"""The table's chat in Chromium: two seats talk in the players' room (one on a phone), a
guest watching reads the spectators' room only, texts show as text (a `<script>` is words,
never run), a seat mutes a room, and no page logs an error. Controls by role and accessible
name: the regions "Players' chat" and "Spectators' chat", the field "Message", the buttons
"Send" and "Mute" (pressed while muted)."""

from __future__ import annotations

from typing import Any

from .support import button, wait_until
from .test_accounts_browser import with_console_errors
from .test_play import create_game, join_game

ATTACK = 'Hello Bob <script>alert("chat")</script><img src=x onerror=alert(1)>'


def room(page: Any, name: str) -> Any:
    return page.get_by_role("region", name=f"{name}' chat")


def say(page: Any, where: str, text: str) -> None:
    chat = room(page, where)
    chat.get_by_label("Message").fill(text)
    button(chat, "Send").click()
    chat.get_by_role("listitem").filter(has_text=text).wait_for()


def shows(page: Any, where: str, text: str) -> bool:
    return bool(room(page, where).get_by_role("listitem").filter(has_text=text).count())


def test_two_seats_talk_a_guest_reads_the_spectators_room(new_page: Any) -> None:
    ada, bob, watcher = new_page(), new_page(width=390, height=844), new_page()
    errors = [with_console_errors(page) for page in (ada, bob, watcher)]
    dialogs: list[str] = []
    for page in (ada, bob, watcher):
        page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    game_id = create_game(ada, "Ada")
    join_game(bob, game_id, "Bob")
    watcher.goto(f"/games/{game_id}")

    say(ada, "Players", ATTACK)
    focused = "document.activeElement && document.activeElement.id"
    wait_until(lambda: ada.evaluate(focused) == "chat-text-players", 5, "typing on")
    assert room(ada, "Players").get_by_label("Message").input_value() == ""
    wait_until(lambda: shows(bob, "Players", ATTACK), 10, "Ada's message on Bob's page")
    assert room(bob, "Players").get_by_text(ATTACK, exact=True).is_visible()  # as text
    assert bob.locator(".chat-log script, .chat-log img").count() == 0

    # The guest watching: the spectators' room alone, read-only, with a way to log in.
    assert room(watcher, "Players").count() == 0
    assert not watcher.get_by_text(ATTACK).count()
    spectators = room(watcher, "Spectators")
    assert spectators.get_by_role("link", name="Log in").is_visible()
    assert spectators.get_by_label("Message").count() == 0
    say(bob, "Spectators", "Hi watchers")
    wait_until(lambda: shows(watcher, "Spectators", "Hi watchers"), 10, "on the guest's page")

    # Ada mutes the spectators' room: it is hidden from her, and she cannot write there.
    mute = button(room(ada, "Spectators"), "Mute")
    wait_until(lambda: shows(ada, "Spectators", "Hi watchers"), 10, "on Ada's page")
    mute.click()
    wait_until(lambda: mute.get_attribute("aria-pressed") == "true", 5, "the room muted")
    assert not shows(ada, "Spectators", "Hi watchers")
    assert room(ada, "Spectators").get_by_label("Message").count() == 0
    assert shows(ada, "Players", ATTACK)
    say(bob, "Spectators", "Still here?")
    ada.reload()  # the service keeps the mute
    assert button(room(ada, "Spectators"), "Mute").get_attribute("aria-pressed") == "true"
    assert not shows(ada, "Spectators", "Still here?")
    button(room(ada, "Spectators"), "Mute").click()
    wait_until(lambda: shows(ada, "Spectators", "Still here?"), 5, "the room unmuted")

    assert dialogs == [] and errors == [[], [], []]
