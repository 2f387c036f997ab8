"""The fault tests run real tables on mock hardware: the table tests' fixtures, shared."""

from tests.table.conftest import make_table, tiny_game  # noqa: F401  (pytest fixtures)
