"""The project's URLs with the throttled sign-in mounted first (what moderator/urls.py should do)."""

from django.urls import include, path

from moderator.public.auth import ThrottledLoginView

urlpatterns = [
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("", include("moderator.urls")),
]
