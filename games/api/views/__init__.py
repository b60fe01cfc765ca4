"""HTTP views, a module per tag of the schema (lobby, turns, history, meta): parse and
validate, call a service, present the result. Nothing else."""
