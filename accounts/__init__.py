"""Accounts: people and bots with a handle that lasts across games, their personal tokens with
scopes, and each account's inbox (what its account stream reads).

Below `games.core` in the import contracts: the use cases ask this room who a credential is
and write to an account's inbox in their own transaction; it never imports the games' rooms.
People's passwords and sessions are Django's (`django.contrib.auth`): an account of kind
`person` is bound to a `User`; a bot has none, so it cannot log in to the pages.
"""
