"""Realtime: the per-table hub, its in-memory and Postgres LISTEN/NOTIFY backends, the socket protocol."""
