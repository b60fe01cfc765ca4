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

from games.api.problems import PROBLEM_TYPES, Problem, problem_type
from games.api.schema import RETRY_AFTER, problems

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
    code = serializers.CharField(help_text="The problem's stable machine code.")
    type = serializers.CharField(
        help_text="The URI every problem of this code carries as its `type`: this document."
    )
    status = serializers.IntegerField(help_text="The HTTP status it is answered with.")
    title = serializers.CharField(help_text="A short summary, the problem's `title`.")
    explanation = serializers.CharField(help_text="What happened, and why.")
    advice = serializers.CharField(help_text="What the client should do about it.")
    description = serializers.CharField(help_text="`explanation` then `advice`, as one text.")


def problem_document(code: str) -> dict[str, Any]:
    """The document of one problem code, from the table (games.api.problems.PROBLEM_TYPES)."""
    problem = PROBLEM_TYPES[code]
    return {
        "code": code,
        "type": problem_type(code),
        "status": problem.status,
        "title": problem.title,
        "explanation": problem.explanation,
        "advice": problem.advice,
        "description": f"{problem.explanation} {problem.advice}",
    }


class ProblemIndexView(APIView):
    """Every problem code the service answers with: what a client should be ready for."""

    @extend_schema(
        operation_id="list_problem_types",
        summary="List the problem types",
        description="Every problem `code` the API answers with, each with its status, title, "
        "explanation and advice; its `type` is the URL of its own document.",
        tags=["meta"],
        auth=[],
        parameters=[RETRY_AFTER],
        responses={200: ProblemTypeSerializer(many=True), **problems()},
    )
    def get(self, request: Request) -> Response:
        return Response([problem_document(code) for code in PROBLEM_TYPES])


class ProblemTypeView(APIView):
    """What one problem `code` means: the target of every problem's `type` URI."""

    @extend_schema(
        operation_id="get_problem_type",
        summary="Describe a problem type",
        description="Every error's `type` points here: its status, title, what happened and "
        "why (`explanation`) and what to do (`advice`).",
        tags=["meta"],
        auth=[],
        parameters=[
            OpenApiParameter(
                "code",
                str,
                OpenApiParameter.PATH,
                description="A problem code (`GET /api/v1/problems` lists them).",
            ),
            RETRY_AFTER,
        ],
        responses={200: ProblemTypeSerializer, **problems(404)},
    )
    def get(self, request: Request, code: str) -> Response:
        if code not in PROBLEM_TYPES:
            raise Problem(404, "not_found", f"There is no problem type {code!r}.")
        return Response(problem_document(code))
