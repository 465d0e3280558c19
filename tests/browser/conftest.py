import os

import pytest

from tests.browser import a11y
from tests.conftest import CHROMIUM

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright (no browser download), one per test file: starting the driver and the
    browser costs seconds, and every test opens its own context (cookies, storage, tabs), which it closes. Not one per
    run: between its calls Playwright's sync API leaves its event loop marked as running in this thread, which only
    the browser files may see."""
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test, so that a fixture's teardown knows whether the test itself passed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def page(browser, live_server, request):
    context = browser.new_context(base_url=live_server.url, locale="zh-CN", viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    tab.site = live_server.url  # for console_kit.login
    yield tab
    try:
        # The page a test ends on goes through axe-core too (test_accessibility.py visits every page at both widths).
        passed = getattr(request.node, "report_call", None) is not None and request.node.report_call.passed
        if passed and not tab.is_closed() and tab.query_selector("main") is not None:
            a11y.check(tab, f"{request.node.name} 结束时的页面")
    finally:
        context.close()
