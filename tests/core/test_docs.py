"""What the documents tell matches what exists: docs/OPERATIONS.md names the code's real
tables, every relative link between the documents leads somewhere, and every example the
suite runs (tests/api/test_readme.py, tests/clients/test_sdk_typing.py) is where those tests
look for it. No server: `make test-fast` runs these."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django_tasks_db.models import DBTaskResult

from tests.api.test_readme import (
    BOTS_AND_CLOCK,
    STREAM_BOT,
    STREAM_COMMANDS,
    WALKTHROUGH,
    doc_block,
)

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "docs" / "OPERATIONS.md"
README = ROOT / "README.md"
#: The documents whose links are checked.
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$", re.MULTILINE)


def test_the_job_queue_is_named_by_its_real_table() -> None:
    """The queue's table was named `django_tasks_db_dbtaskresult`, which does not exist (the
    app's label is `django_tasks_database`): an operator looking for stuck jobs found none."""
    text = OPERATIONS.read_text()
    assert f"`{DBTaskResult._meta.db_table}`" in text
    assert "django_tasks_db_dbtaskresult" not in text


def prose(text: str) -> str:
    """`text` without its fenced blocks (a shell comment is no heading, a string no link)."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated one gets -1, -2...)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(prose(path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """The relative links of `path` that lead to no file, or to no heading of it (files named
    from `root`)."""
    broken = []
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:...
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target} (no file {linked.relative_to(root)})")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target} (no heading #{anchor} in {linked.relative_to(root)})")
    return broken


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(path: Path) -> None:
    assert broken_links(path) == []


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    """The harness itself: a missing file and a missing heading are both reported."""
    (tmp_path / "other.md").write_text("# A heading\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n[ok](other.md#a-heading) [ok](#top) [web](https://example.org/x)\n"
        "[gone](missing.md) [no heading](other.md#nothing)\n```sh\n# no heading\n```\n"
    )
    assert broken_links(page, tmp_path) == [
        "missing.md (no file missing.md)",
        "other.md#nothing (no heading #nothing in other.md)",
    ]


@pytest.mark.parametrize(
    ("where", "language", "holds"),
    [
        (WALKTHROUGH, "sh", "call -X POST $API/games/$GAME/actions"),
        (STREAM_COMMANDS, "sh", "curl -N -H 'Last-Event-ID: 12'"),
        (STREAM_BOT, "python", "def play(api: str, game: str, token: str)"),
        (BOTS_AND_CLOCK, "sh", '{"bot": "statistician"}'),
    ],
    ids=["walkthrough", "stream-commands", "stream-bot", "bots-and-clock"],
)
def test_each_executed_example_is_where_its_test_reads_it(
    where: tuple[str, str], language: str, holds: str
) -> None:
    """tests/api/test_readme.py runs these against a live server (marked `server`): a block
    moved away from its heading fails here first, without one."""
    assert holds in doc_block(where, language)


def test_the_sdk_snippet_is_in_the_clients_guide() -> None:
    """tests/clients/test_sdk_typing.py type-checks the one SDK snippet of docs/CLIENTS.md."""
    text = (ROOT / "docs" / "CLIENTS.md").read_text(encoding="utf-8")
    assert text.count("```python\nfrom skyjo_service_api_client") == 1


def test_the_readme_stays_a_short_guide() -> None:
    """The README is a ten-minute guide: the set-up commands, the walkthrough, the stream, the
    map of the code and the index; everything else lives in docs/."""
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= 16_000
    assert "make run" in text and "make test" in text and "make test-fast" in text
