"""The ratings (R14): rated games' results as OpenSkill ratings, leaderboards and the bot
ladder. Above the use cases (`games.core`), whose `game_finished` signal tells it of each
finished game, inside that game's last append."""

from typing import Any

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.core.resources import show_ratings_with
        from games.core.signals import game_finished
        from ratings.reading import view_ratings

        game_finished.connect(_queue_rating, dispatch_uid="ratings")
        show_ratings_with(view_ratings)


def _queue_rating(*, game_id: Any, rated: bool, **_: Any) -> None:
    """A rated game finished: the job that rates finished games is queued in the same
    transaction (so it exists once the game's end has committed, and only then), and for a
    ladder game the job that deals its set's next rotation."""
    if rated:
        from ratings import tasks
        from ratings.models import DuplicateGame

        tasks.rate_finished_games.enqueue()
        if DuplicateGame.objects.filter(game_id=game_id).exists():
            tasks.start_ladder_games.enqueue()
