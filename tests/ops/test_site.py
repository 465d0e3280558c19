"""What a newcomer's browser sees first: the sign-in page in Chinese whatever the browser's language, and an icon
(/favicon.ico, which browsers ask for on every site, and the <link rel="icon"> of every page)."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_the_sign_in_page_is_chinese_in_an_english_browser(client):
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert "用户名" in page and "密码" in page
    assert "Username" not in page and "Password" not in page
    wrong = client.post(
        "/accounts/login/", {"username": "nobody", "password": "wrong-password"}, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "请输入一个正确的" in wrong and "Please enter" not in wrong


@pytest.mark.django_db
def test_the_favicon_is_served_and_every_page_links_an_icon(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon["Content-Type"] == "image/svg+xml"
    assert b"<svg" in icon.content
    for url in ("/", "/accounts/login/", "/tables/"):
        assert 'rel="icon"' in client.get(url).content.decode(), url
