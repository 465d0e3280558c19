"""The attack tests use the page tests' fixtures: the played sample game and a fresh cache."""

from tests.pages.conftest import _fresh_cache, sample  # noqa: F401 (fixtures)
