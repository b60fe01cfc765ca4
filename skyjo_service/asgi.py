"""ASGI entry point (for `bench_load --worker-class uvicorn`; `make serve` uses WSGI)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_service.settings")
application = get_asgi_application()
