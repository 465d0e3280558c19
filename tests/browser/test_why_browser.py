"""为什么 in Chromium: the 天神 opens a closed night's page and a line's 为什么, and the dashboard's dry run line by
line; each shows the steps with their clauses (services/explain.py, templates/console/_why.html)."""

from __future__ import annotations

import pytest
from console_kit import login

from bench.sample import sample_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_gm_opens_the_why_of_a_dawn_line_and_of_the_dry_run(page, django_user_model):
    user = login(page, django_user_model)
    s = sample_game(name="为什么局", upto=4)
    s.game.gms.add(user)
    night = s.phase("night", 1)
    page.goto(f"/gm/{s.game.pk}/why/{night.pk}/")
    line = page.locator("#why-post li", has_text="乙昨夜受到了攻击")
    step = line.locator("details.why li", has_text="最优顺序")
    assert not step.is_visible()
    line.locator("summary", has_text="为什么").click()
    assert step.is_visible()
    assert "这个顺序打掉 2 张" in step.inner_text()
    assert "B5" in step.inner_text()

    page.goto(f"/gm/{s.game.pk}/")
    page.locator("#dryrun-why > summary").click()
    tally = page.locator("#dryrun-why li", has_text="处决").first
    tally.locator("summary", has_text="为什么").click()
    assert "D5" in tally.locator("details.why").inner_text()
