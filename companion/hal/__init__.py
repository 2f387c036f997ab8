"""Hardware abstraction: interfaces, events and backends (mock, pi)."""
