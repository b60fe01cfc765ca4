"""What docs/OPERATIONS.md tells an operator matches what the code runs."""

from __future__ import annotations

from pathlib import Path

from django_tasks_db.models import DBTaskResult

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "OPERATIONS.md"


def test_the_job_queue_is_named_by_its_real_table() -> None:
    """The queue's table was named `django_tasks_db_dbtaskresult`, which does not exist (the
    app's label is `django_tasks_database`): an operator looking for stuck jobs found none."""
    text = OPERATIONS.read_text()
    assert f"`{DBTaskResult._meta.db_table}`" in text
    assert "django_tasks_db_dbtaskresult" not in text
