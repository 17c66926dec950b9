"""provision benchmarks (issue 9): B1 software ceiling, B2 radio floor, B3 peers, B4 manifests, B5 readers;
B6a the Type 4 (NTAG 424 DNA) radio floor, B6b its keyed personalisation, B7 stations on PostgreSQL, B8 Type 5,
B9 Type 3; B10 `provision serve` under wrk (and sdm-backend with SDM_BACKEND=<checkout>); B11 B6b with its master in
a SoftHSM2 token ÷ in a key file.

Usage: python3 scripts/bench [--quick] [--only B1,B2,...] [--skip-build]

Builds the release binary, generates job folders under .build/bench/, runs them and writes
reports/bench.md and reports/bench.json. Every figure in the reports comes from this one run.
These are benchmarks, not tests: nothing here is part of `make test`.

Modules: common (shared runner), emulator (tag side and airtime model), softhsm (B11's token), sunload (B10's tap
URLs, pools and wrk script), b1 … b11 (one a benchmark), report (bench.md and bench.json), __main__ (arguments and
the run).
"""
