"""Load testing: the production server under many concurrent games (`manage.py bench_load`).

The app also holds the bare endpoint the benchmark compares the game actions with: a DRF view
that inserts one row. Its URL is mounted only when `BENCH_ENDPOINTS=on` (the benchmark sets it
for the server it starts); its table is empty everywhere else.
"""
