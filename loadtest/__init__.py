"""The benchmarks' home: `manage.py bench_load` (the production server under many concurrent
games), `bench_replay` (a game's cost against the length of its log) and `bench_devserver`
(kept-alive connections on the development server); `server.py` starts the production server
for them and for the multi-process tests.

The app also holds the bare endpoint `bench_load` compares the game actions with: a DRF view
that inserts one row. It is installed only where benchmarks run (development, and servers
started with `BENCH_ENDPOINTS=on`, which also mounts the endpoint's URL), so a production
server (`make serve`) never migrates its table. Its figures are in docs/PERFORMANCE.md.
"""
