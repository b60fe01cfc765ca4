"""The bare endpoint: the same DRF stack as the game actions (authentication, parser,
renderer, exception handler), and one INSERT. What an action costs beyond this is the game."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Ping


@extend_schema(exclude=True)
class BareInsertView(APIView):
    def post(self, request: Request) -> Response:
        note = request.data.get("note", "") if isinstance(request.data, dict) else ""
        ping = Ping.objects.create(note=str(note)[:64])
        return Response({"id": ping.pk}, status=http.HTTP_201_CREATED)
