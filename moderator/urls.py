from django.contrib import admin
from django.urls import include, path

from moderator import views

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("django.contrib.auth.urls")),  # sign-in throttled by django-axes
    path("", include("moderator.public.urls")),  # the public game page and the players' private pages
    path("", include("moderator.console.urls")),  # the 天神's console
    path("tables/", include("tables.urls")),  # the other four games
    path("admin/", admin.site.urls),
]
