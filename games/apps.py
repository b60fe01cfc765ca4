"""The games app's composition root: where the rooms are wired together once Django is ready.

The use cases (`games.core`) announce each committed append with `signals.game_moved`; the
push (`games.live`) listens here, so core never imports it; the same for each committed
delivery to an account's inbox (`accounts.inbox.inbox_written`), which wakes the account
streams, and for each committed chat message (`play.chat_written`), which wakes the game's.
The HTTP side's plumbing that hooks into Django itself (the rate limits' table, the
development server's error pages) is installed here too.
"""

import os
import uuid
from typing import Any

from django.apps import AppConfig
from django.core.servers.basehttp import WSGIRequestHandler
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Skyjo games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.inbox import inbox_written
        from games.api.rate_limit_table import create_rate_limit_table
        from games.api.server_errors import send_problem_error
        from games.core.signals import game_moved
        from play import chat_written

        game_moved.connect(_wake_streams, dispatch_uid="games.live")
        inbox_written.connect(_wake_account_streams, dispatch_uid="games.live.inbox")
        chat_written.connect(_wake_chat_streams, dispatch_uid="games.live.chat")
        # The shared rate limits' table, created by every migrate (games.api.rate_limit_table).
        post_migrate.connect(create_rate_limit_table, sender=self)
        self.fast_development_server()
        # Its refusals of oversized request lines and headers as problems.
        WSGIRequestHandler.send_error = send_problem_error

    def fast_development_server(self) -> None:
        """The development server (`make run`) sets TCP_NODELAY on its connections, as
        production servers do: it writes headers and body apart, and on a kept-alive
        connection Nagle's algorithm held every answer until the client's delayed ACK
        (`manage.py bench_devserver` measures it; DEVSERVER_TCP_NODELAY=off shows it)."""
        if os.environ.get("DEVSERVER_TCP_NODELAY", "on") != "off":
            WSGIRequestHandler.disable_nagle_algorithm = True


def _wake_streams(*, game_id: uuid.UUID, version: int, **_: Any) -> None:
    """This process's streams and long polls of the game hear of its new version at once."""
    from games.live.fanout import hub

    hub.publish(game_id, version)


def _wake_account_streams(*, account_id: int, sequence: int, **_: Any) -> None:
    """This process's account streams and long polls of the inbox hear of its new entries."""
    from games.live.fanout import hub, inbox_key

    hub.publish(inbox_key(account_id), sequence)


def _wake_chat_streams(*, game_id: uuid.UUID, sequence: int, **_: Any) -> None:
    """This process's streams of the game hear of its chat's new message at once."""
    from games.live.fanout import hub

    hub.publish_chat(game_id, sequence)
