"""Table-tracker tests: the Django ones need the app installed; they find its URLs with or without the project's."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import NoReverseMatch, reverse


def pytest_collection_modifyitems(config, items):
    if "tables" in settings.INSTALLED_APPS:
        return
    reason = "tables 尚未加入 INSTALLED_APPS(可临时设置环境变量 EXTRA_APPS=tables)"
    for item in items:
        if "tests/tables" in item.nodeid and item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def tables_urls(settings):
    """Use the project's URLs when they include tables, else the project's plus tables."""
    try:
        reverse("tables:list")
    except NoReverseMatch:
        settings.ROOT_URLCONF = "tables_test_urls"
    return settings


@pytest.fixture(autouse=True)
def _fresh_create_limit():
    """The per-address create limit counts in the cache: every test starts with none made (locmem, this process)."""
    from django.core.cache import cache

    if settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"):
        cache.clear()
    yield


@pytest.fixture
def browser():
    """Debian's chromium driven by Playwright (no browser download), launched as tests/browser/conftest.py does."""
    import os

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM_ARGS
    from tests.conftest import CHROMIUM

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
