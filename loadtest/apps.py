from django.apps import AppConfig


class LoadtestConfig(AppConfig):
    name = "loadtest"
    verbose_name = "Benchmarks"
    default_auto_field = "django.db.models.BigAutoField"
