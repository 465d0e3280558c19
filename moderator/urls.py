from django.contrib import admin
from django.urls import include, path

from moderator import views
from moderator.public.auth import ThrottledLoginView

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),  # throttled (issue 7)
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("moderator.public.urls")),  # the public game page and the players' private pages (issue 7)
    path("", include("moderator.console.urls")),  # the 天神's console (issue 6)
    path("tables/", include("tables.urls")),  # the other four games (issue 8)
    path("admin/", admin.site.urls),
]
