"""The web table: lobby, table and replay pages in Django templates and htmx, over
the same use cases as the API (`games.services`)."""
