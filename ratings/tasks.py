"""The ratings' job, run by the workers (`manage.py worker`). Its path is named by every
queued job's row, so it stays here."""

from __future__ import annotations

from django_tasks import task


@task()
def rate_finished_games() -> int:
    """Rate every finished rated game not rated yet, in the order they finished, each once
    whatever the number of workers (`ratings.services.rate_pending`). Answers how many."""
    from ratings.services import rate_pending

    return rate_pending()


@task()
def start_ladder_games() -> int:
    """Deal the bot ladder's duplicate sets to the laddered bots present now, within their
    bounds, once whatever the number of workers (`ratings.ladder.start_sets`). Answers how
    many sets it dealt."""
    from ratings.ladder import start_sets

    return len(start_sets())
