"""Mounted under /bench/ only when BENCH_ENDPOINTS=on (see skyjo_service/urls.py)."""

from django.urls import path

from .views import BareInsertView

urlpatterns = [path("insert", BareInsertView.as_view(), name="bench-insert")]
