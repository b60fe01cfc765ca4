"""The ratings' pages without a browser: the leaderboards (people and bots, the "?" of a
provisional rating, its bar), a profile's history chart and table, the ladder's empty table,
and a rated table's seats (ratings, win chances, changes); a casual table shows none of it."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from accounts.services import builtin_account_id
from games import core
from ratings.models import Rating, RatingChange
from tests.api.bots_support import run_jobs

pytestmark = pytest.mark.django_db


def bots_game(*strategies: str, rated: bool = True, seed: int = 7) -> uuid.UUID:
    """A game of built-in bots, seated (the jobs play it: `run_jobs`)."""
    game = core.create_game(seats=len(strategies), options={"end_score": 1}, seed=seed, rated=rated)
    for strategy in strategies:
        core.join_game(game.id, strategy, strategy)
    return game.id


def page(path: str, status: int = 200) -> str:
    answer = Client().get(path)
    assert answer.status_code == status, answer.content
    return answer.content.decode()


def test_the_nav_links_the_leaderboard_and_the_ladder() -> None:
    html = page("/")
    assert 'href="/leaderboard">Leaderboard</a>' in html and 'href="/ladder">Ladder</a>' in html


def test_a_provisional_bot_is_listed_with_its_question_mark_and_bar_only_on_request() -> None:
    bots_game("greedy", "random")
    run_jobs()
    established = page("/leaderboard?kind=bot")
    assert "greedy" not in established and "No established rating yet" in established
    assert 'href="?kind=bot&amp;provisional=true">Show provisional' in established
    html = page("/leaderboard?kind=bot&provisional=true")
    assert 'href="/players/greedy">greedy</a>' in html and 'href="/players/random">' in html
    assert '<span aria-hidden="true">?</span><span class="visually-hidden"> (provisional)' in html
    assert html.count('class="rating-bar"') == 2
    assert re.search(r'role="img" aria-label="Skill \d+\.\d, likely between', html)
    assert "Hide provisional" in html
    assert "greedy" not in page("/leaderboard?provisional=true")  # people's: no bot


def test_an_established_rating_has_no_question_mark() -> None:
    for seed in range(10):
        bots_game("greedy", "random", seed=seed)
        run_jobs()
    assert Rating.objects.get(account__handle="greedy").games == 10
    html = page("/leaderboard?kind=bot")
    assert ">1</td>" in html and 'href="/players/greedy"' in html
    assert "(provisional)" not in html


def test_the_leaderboard_ranks_by_ordinal_across_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.web import rating_pages

    monkeypatch.setattr(rating_pages, "PER_PAGE", 1)
    bots_game("greedy", "random")
    run_jobs()
    best = Rating.objects.order_by("-ordinal").first()
    assert best is not None
    first = page("/leaderboard?kind=bot&provisional=true")
    assert f'href="/players/{best.account.handle}"' in first and "Page 1 of 2" in first
    second = page("/leaderboard?kind=bot&provisional=true&page=2")
    assert '<td class="rank">2</td>' in second and "Previous" in second


def test_a_profile_draws_its_history_for_screen_readers_too() -> None:
    games = [bots_game("greedy", "statistician", seed=seed) for seed in (1, 2, 3)]
    run_jobs()
    html = page("/players/greedy")
    assert "<h1>greedy</h1>" in html and "A built-in bot" in html
    assert 'role="img" aria-labelledby="chart-title" aria-describedby="chart-desc"' in html
    assert '<title id="chart-title">Rating history of greedy</title>' in html
    assert "after each of 3 rated games" in html
    assert html.count('<circle class="dot"') == 3
    for game_id in games:  # the table of points and the recent games link every game
        assert html.count(f'href="/games/{game_id}"') == 2
    last = RatingChange.objects.filter(account__handle="greedy").order_by("rated_game").last()
    assert last is not None and f"{last.mu_after:.2f}" in html
    assert "provisional" in html


def test_a_profile_before_any_rated_game_and_an_unknown_player() -> None:
    builtin_account_id("random")
    html = page("/players/RANDOM")  # any case
    assert "No rated game yet" in html and '<svg class="chart"' not in html
    assert "No such player" in page("/players/nobody", status=404)


def test_the_ladder_says_it_has_no_games_yet() -> None:
    html = page("/ladder?seats=2")
    assert "No ladder games yet." in html and "Games of 2 seats" in html
    assert 'href="?seats=4">4 seats</a>' in html
    assert "Games of 2 seats" in page("/ladder?seats=zz")


def test_a_rated_table_shows_ratings_win_chances_and_changes() -> None:
    bots_game("greedy", "random", seed=1)
    run_jobs()
    game_id = bots_game("greedy", "random", seed=2)
    run_jobs()
    html = page(f"/games/{game_id}")
    assert '<span class="badge rated"' in html
    assert len(re.findall(r'<span class="seat-rating">rating -?\d+\.\d', html)) == 2
    assert len(re.findall(r'<span class="win-chance">\d+% to win</span>', html)) == 2
    assert len(re.findall(r"rating change [-+±]\d+\.\d", html)) == 2
    assert "(provisional)" in html  # one game each before this one
    assert '<strong class="badge rated">Rated</strong>' in page("/")  # in the lobby's list


def test_a_rated_table_before_its_end_has_no_change_yet() -> None:
    game_id = core.create_game(seats=2, options={"end_score": 100}, seed=3, rated=True).id
    for strategy in ("greedy", "random"):
        core.join_game(game_id, strategy, strategy)
    html = page(f"/games/{game_id}")
    assert html.count("50% to win") == 2 and "rating change" not in html


def test_a_casual_table_is_unchanged() -> None:
    game_id = bots_game("greedy", "random", rated=False)
    run_jobs()
    html = page(f"/games/{game_id}")
    assert "seat-rating" not in html and "to win" not in html and "badge" not in html
    assert "Rated</strong>" not in page("/")


def test_a_long_history_is_drawn_by_its_last_points(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.web import charts, rating_pages

    monkeypatch.setattr(charts, "CHART_POINTS", 2)
    monkeypatch.setattr(rating_pages, "CHART_POINTS", 2)
    for seed in (1, 2, 3):
        bots_game("greedy", "random", seed=seed)
        run_jobs()
    html = page("/players/greedy")
    assert "after each of the last 2 of 3 rated games" in html
    assert html.count('<circle class="dot"') == 2 and html.count('<tr><th scope="row">') == 2


def test_changes_chances_and_axes_in_words() -> None:
    from games.web.charts import axis, bar, percent, signed

    assert [signed(1.24), signed(-0.8), signed(0.04)] == ["+1.2", "-0.8", "±0.0"]
    assert [percent(0.534), percent(0.001), percent(0.0)] == ["53%", "<1%", "0%"]
    scale = axis([11.3, 38.9])
    assert (scale.low, scale.high, scale.ticks) == (10, 40, [10, 15, 20, 25, 30, 35, 40])
    drawn = bar({"mu": 25.0, "sigma": 25 / 3}, (0, 50))
    assert (drawn["x"], drawn["mu_x"], drawn["length"]) == (33.33, 100.0, 133.34)


def test_a_finished_rated_tables_partial_changes_once_the_game_is_rated() -> None:
    """The ratings' changes come after the game's last event: a page that showed the game by
    its version alone would never fetch them."""
    from django.test import Client

    from games import core
    from tests.api.bots_support import due_jobs, run_jobs

    game = core.create_game(seats=2, options={"end_score": 30}, seed=3, rated=True)
    for strategy in ("greedy", "random"):
        core.join_game(game.id, strategy, strategy)
    rating = [job for job in due_jobs() if "rate_finished_games" in job.task_path]
    while not rating:  # the bots' moves, up to the end (which queues the rating)
        job = due_jobs().exclude(task_path__contains="rate_finished").first()
        job.task.call(*job.args_kwargs["args"], **job.args_kwargs["kwargs"])
        job.set_successful(None)
        rating = [job for job in due_jobs() if "rate_finished_games" in job.task_path]
    version = str(core.get_game(game.id).version)
    client = Client()
    assert client.get(f"/games/{game.id}/table?since={version}").status_code == 204
    run_jobs()  # rated now
    page = client.get(f"/games/{game.id}/table?since={version}")
    assert page.status_code == 200 and "rating change" in page.content.decode()
