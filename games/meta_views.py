"""Documentation the API serves about itself: the rules and the problem types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .problems import PROBLEM_TYPES, RULE_ERROR_DOCS, Problem, problem_type
from .schema import RETRY_AFTER, problems

RULES_FILE = Path(settings.BASE_DIR) / "docs" / "RULES.md"


class MarkdownRenderer(BaseRenderer):
    media_type = "text/markdown"
    format = "md"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, str):
            return data.encode()
        return json.dumps(data).encode()  # a problem-details body


class RulesView(APIView):
    """The rules this service implements, with its decisions, as Markdown."""

    renderer_classes = [MarkdownRenderer]

    @extend_schema(
        operation_id="get_rules",
        summary="The rules",
        description="RULES.md: the rules of Skyjo as this service implements them, each tagged "
        "(R1, R2...) and with every decision on what the printed rules leave open.",
        tags=["meta"],
        auth=[],
        parameters=[RETRY_AFTER],
        responses={
            (200, "text/markdown"): OpenApiResponse(OpenApiTypes.STR, description="Markdown."),
            **problems(),
        },
    )
    def get(self, request: Request) -> Response:
        return Response(RULES_FILE.read_text(encoding="utf-8"), content_type="text/markdown")


class ProblemTypeSerializer(serializers.Serializer):
    code = serializers.CharField()
    type = serializers.CharField()
    status = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField()


class ProblemTypeView(APIView):
    """What one problem `code` means: the target of every problem's `type` URI."""

    @extend_schema(
        operation_id="get_problem_type",
        summary="Describe a problem type",
        description="Every error's `type` points here: its status, title and meaning.",
        tags=["meta"],
        auth=[],
        parameters=[
            OpenApiParameter("code", str, OpenApiParameter.PATH, description="A problem code."),
            RETRY_AFTER,
        ],
        responses={200: ProblemTypeSerializer, **problems(404)},
    )
    def get(self, request: Request, code: str) -> Response:
        if code not in PROBLEM_TYPES:
            raise Problem(404, "not_found", f"There is no problem type {code!r}.")
        status, title = PROBLEM_TYPES[code]
        return Response(
            {
                "code": code,
                "type": problem_type(code),
                "status": status,
                "title": title,
                "description": RULE_ERROR_DOCS.get(code, title + "."),
            }
        )
