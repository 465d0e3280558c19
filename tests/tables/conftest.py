"""Table-tracker tests: the Django ones need the app installed; they find its URLs with or without the project's."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from tables_client import SigningClient

from tests.browser.conftest import browser  # noqa: F401  (the project's Playwright + Debian chromium fixture)


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


@pytest.fixture
def client():
    return SigningClient()


@pytest.fixture(autouse=True)
def _fresh_create_limit():
    """The per-address create limit counts in the cache: every test starts with none made (locmem, this process)."""
    from django.core.cache import cache

    if settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"):
        cache.clear()
    yield


@pytest.fixture
def phone(browser, live_server):  # noqa: F811  (the fixture imported above)
    """A browser tab at a phone's size (390 × 844) on the test's live server (the trackers' browser tests)."""
    context = browser.new_context(base_url=live_server.url, locale="zh-CN", viewport={"width": 390, "height": 844})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    yield tab
    context.close()
