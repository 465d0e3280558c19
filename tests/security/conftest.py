"""The attack tests use the page tests' fixtures (the played sample game and a fresh cache) and a signed-in superuser."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.pages.conftest import _fresh_cache, sample  # noqa: F401 (fixtures)


@pytest.fixture
def admin_client(db):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-123456"))
    return client
