"""Persistence: SQLAlchemy 2 models, the database handle, repositories and migrations glue."""
