"""HTTP plumbing, apart from the game: body parsing and its limits, rendering, rate limits,
the headers the API reads (ETags, If-Match, Idempotency-Key, bearer tokens), and the problem
documents every error becomes (RFC 9457), with the one handler mapping domain errors to them."""
