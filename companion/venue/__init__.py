"""Many tables, one venue: what a table publishes to an MQTT broker (Mosquitto 2 with the Eclipse Paho client),
and `companion venue`, the venue's dashboard, results and broker config (docs/VENUE.md).

The table side is `publisher.VenuePublisher`, a worker the running table feeds with its public snapshots and
never waits on; the venue side is `collector.Collector` (one MQTT subscriber), `store.VenueStore` (SQLite:
results, standings, staff, announcements), `board.Board` (the live grid and its alerts) and the Flask dashboard
in `dashboard/`. Paho is imported only here, lazily, when a venue is configured or run.
"""
