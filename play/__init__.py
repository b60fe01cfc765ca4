"""Playing together: private games' invitations, challenges, quick play (seeks and their
matcher), rematches and each game's chat.

It sits above the games' use cases (`games.core`), whose door it calls to create, seat and
cancel games, and below the push and HTTP rooms (`games.live`, `games.api`, `games.web`),
which call its door here. It never imports the store, DRF or drf-spectacular (the import
contracts in pyproject.toml).
"""
