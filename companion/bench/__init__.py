"""Speed figures, one module per kind: `companion bench` runs them (BENCHES in companion/commands/bench.py).

engines: apply / replay / games per second per game; tap: tap -> LED on mock readers; process: the table in
its own process, as `companion run` runs it; sse: tap -> live-update event; dom: tap -> drawn page in
Chromium; idle: a table's idle CPU and memory; hardware: SPI transfers per poll and the terminal round trip; polling: reader cycles per second and CPU per empty
poll for 8/16/24 fake readers;
secret_hitler_apply: per-action-type timings (run as a module).
"""
