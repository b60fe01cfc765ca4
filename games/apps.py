import os

from django.apps import AppConfig
from django.core.servers.basehttp import WSGIRequestHandler
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Skyjo games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .api.server_errors import send_problem_error
        from .rate_limit_table import create_rate_limit_table

        # The shared rate limits' table, created by every migrate (games.rate_limit_table).
        post_migrate.connect(create_rate_limit_table, sender=self)
        self.fast_development_server()
        # Its refusals of oversized request lines and headers as problems (games.api.server_errors).
        WSGIRequestHandler.send_error = send_problem_error

    def fast_development_server(self) -> None:
        """The development server (`make run`) sets TCP_NODELAY on its connections, as
        production servers do: it writes headers and body apart, and on a kept-alive
        connection Nagle's algorithm held every answer until the client's delayed ACK
        (`manage.py bench_devserver` measures it; DEVSERVER_TCP_NODELAY=off shows it)."""
        if os.environ.get("DEVSERVER_TCP_NODELAY", "on") != "off":
            WSGIRequestHandler.disable_nagle_algorithm = True
