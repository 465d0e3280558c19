"""The private and the public page on a 390-pixel-wide phone — no zooming, no sideways scrolling; the
countdown and the AP ledger readable (16 px or more). Real headless Chromium at an iPhone-sized viewport."""

import pytest

from bench.sample import sample_game
from tests.browser import conftest as chromium
from tests.browser.test_gm_flow import shot

browser = chromium.browser  # the Debian chromium fixture of tests/browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="zh-CN", viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    yield tab
    context.close()


def font_px(page, selector) -> float:
    return page.eval_on_selector(selector, "el => parseFloat(getComputedStyle(el).fontSize)")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_private_page_is_readable_on_a_phone(phone):
    s = sample_game()
    phone.goto(f"/p/{s.seats['甲'].token}/")
    assert fits(phone), "the private page scrolls sideways on a 390 px phone"
    assert font_px(phone, ".clock") >= 16 and font_px(phone, "table.ledger td") >= 16
    ledger = phone.eval_on_selector("table.ledger", "el => el.getBoundingClientRect().right")
    assert ledger <= PHONE["width"], "the AP ledger is wider than the screen"
    assert phone.is_visible(".countdown-left")
    shot(phone, "phone_private")


def test_the_public_page_is_readable_on_a_phone(phone):
    s = sample_game()
    phone.goto(f"/games/{s.game.pk}/")
    assert fits(phone), "the public page scrolls sideways on a 390 px phone"
    assert font_px(phone, ".clock") >= 16 and font_px(phone, "main td") >= 16
    shot(phone, "phone_public")
