"""Private games and rematches in Chromium: a guest creates a private game from the lobby and
copies its invite link, a second guest joins by it; they play to the end by clicking, one
clicks Rematch, the other's finished table shows it live and the other takes its seat too. At
a phone's size, a guest's rematch of a game against a bot seats the bot again at once."""

from __future__ import annotations

from typing import Any

from .support import button, my_cards, status, wait_until
from .test_bots_clocks import my_move
from .test_play import MAX_MOVES, click_and_wait, next_to_move, play_turn

#: Logged (console.log) by each page at each `htmx:sseError`: its stream closed.
STREAM_CLOSED = "skyjo test: the stream closed"
#: What htmx's SSE extension logs (console.error) when a stream closes, as a finished
#: game's does after its last frame (its client reconnects): tolerated once for each close.
SSE_CLOSE_ERROR = "[object Event]"
#: What htmx logs when a move's answer and a live re-read of the table cross (the answer for
#: the table replaced meanwhile finds no `#announce` from where it looks): the pages did so
#: before the rematch (any game played by clicking), and it changes nothing shown.
CROSSED_ANSWER_ERROR = "htmx:oobErrorNoTarget, #announce"


class Console:
    """A page's console errors from now on; `unexpected()`, those but htmx's known logs: one
    SSE close's for each time a stream of the page closed (a finished game's stream ends
    after its last frame, and its client reconnects), and crossed answers'."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        self.closes = 0
        page.add_init_script(
            "document.addEventListener('htmx:sseError', function () {"
            f" console.log({STREAM_CLOSED!r}); }});"
        )
        page.on("console", self.seen)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def seen(self, message: Any) -> None:
        if message.type == "log" and message.text == STREAM_CLOSED:
            self.closes += 1
        elif message.type == "error":
            self.errors.append(message.text)

    def unexpected(self) -> list[str]:
        left = [error for error in self.errors if error != CROSSED_ANSWER_ERROR]
        for _ in range(self.closes):
            if SSE_CLOSE_ERROR in left:
                left.remove(SSE_CLOSE_ERROR)
        return left


def create_private(page: Any, name: str, **choices: str) -> str:
    """A 2-seat private game with an end score of 1 from the lobby, seated as `name`;
    `choices`: seats' selects by their labels."""
    page.goto("/")
    form = page.get_by_role("region", name="New game")
    form.get_by_label("Seats", exact=True).fill("2")
    form.get_by_text("More options").click()  # the rules, clock and seats fold there
    form.get_by_label("End score").fill("1")
    form.get_by_label("Your name").fill(name)
    form.get_by_label("Private game").check()
    for label, value in choices.items():
        form.get_by_label(label, exact=True).select_option(label=value)
    button(form, "Create game").click()
    page.wait_for_url("**/games/*")
    return str(page.url.rsplit("/", 1)[1])


def play_to_the_end(seated: dict[str, Any]) -> None:
    """The seated pages play by clicking until every one of them shows the game finished."""
    turns = dict.fromkeys(seated, 0)
    for _ in range(MAX_MOVES):
        mover = next_to_move(seated)
        if mover is None:
            return
        name, page = mover
        if status(page) == "setup":
            click_and_wait(page, my_cards(page, name).get_by_role("button").first)
            continue
        play_turn(page, name, turns[name])
        turns[name] += 1
    raise AssertionError(f"no end after {MAX_MOVES} moves")


def test_two_guests_play_by_invite_link_and_rematch(new_page: Any, site: str) -> None:
    ada, bob = new_page(), new_page()
    consoles = [Console(ada), Console(bob)]
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    game_id = create_private(ada, "Ada")
    invite = ada.get_by_role("region", name="Invite players")
    assert invite.get_by_text("A private game").is_visible()
    button(invite, "Copy invite link").click()
    wait_until(lambda: invite.get_by_text("Copied.").is_visible(), message="copied")
    link = ada.evaluate("navigator.clipboard.readText()")
    assert link == f"{site}/games/{game_id}"
    bob.goto("/")
    assert not bob.locator(f'li[aria-labelledby="game-{game_id}"]').count()  # not listed
    bob.goto(link)
    bob.get_by_label("Your name").fill("Bob")
    button(bob, "Join").click()
    wait_until(lambda: my_cards(bob, "Bob").is_visible(), message="Bob seated")

    play_to_the_end({"Ada": ada, "Bob": bob})
    panel = ada.get_by_role("region", name="Rematch")
    button(panel, "Rematch").click()
    ada.wait_for_url(lambda url: game_id not in url)
    rematch_id = ada.url.rsplit("/", 1)[1]
    assert "Waiting for players: 1 of 2 seats open." in ada.locator("h1").inner_text()
    assert my_cards(ada, "Ada").is_visible()

    bobs = bob.get_by_role("region", name="Rematch")
    wait_until(  # Bob's finished table learns of it by itself (its stream, no reload)
        lambda: bobs.get_by_text("Seated in it: Ada.").count(), message="the rematch on Bob's"
    )
    assert bobs.get_by_role("link", name="open the rematch").get_attribute("href") == (
        f"/games/{rematch_id}"
    )
    button(bobs, "Rematch").click()
    bob.wait_for_url(f"**/games/{rematch_id}")
    assert my_cards(bob, "Bob").is_visible()
    wait_until(lambda: status(ada) == "setup", message="Ada's table dealt, live")
    ada.go_back()  # the finished table now says where Ada sits
    ada.reload()
    assert ada.get_by_text("Seated in it: Ada, Bob.").is_visible()
    assert ada.get_by_role("link", name="go to your seat in it").is_visible()
    assert not [console.unexpected() for console in consoles if console.unexpected()]


def test_a_rematch_against_a_bot_at_a_phone_s_size(new_page: Any) -> None:
    page = new_page(width=390, height=844)
    console = Console(page)
    create_private(page, "Ada", **{"Seat 2": "Bot: greedy"})
    for turn in range(MAX_MOVES):
        wait_until(
            lambda: status(page) == "finished" or page.locator("#table form button").count(),
            message="my move, or the end, after the bot's",
        )
        if status(page) == "finished":
            break
        my_move(page, turn)
    else:
        raise AssertionError(f"no end after {MAX_MOVES} moves")
    panel = page.get_by_role("region", name="Rematch")
    rematch = button(panel, "Rematch")
    assert rematch.is_visible()
    for shown in (panel, rematch):  # within the phone's width
        box = shown.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    finished = page.url
    rematch.click()
    page.wait_for_url(lambda url: "/games/" in url and url != finished)
    wait_until(lambda: status(page) in ("setup", "playing"), message="the bot and Ada: dealt")
    assert page.get_by_role("region", name="Greedy bot").get_by_text("bot: greedy").is_visible()
    assert my_cards(page, "Ada").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not console.unexpected()
