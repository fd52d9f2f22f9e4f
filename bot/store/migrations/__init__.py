"""Alembic migrations for dpscale's database, shipped inside the package (run by `bot.store.migrate`)."""
