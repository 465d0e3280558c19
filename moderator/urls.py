from django.contrib import admin
from django.urls import include, path

from moderator import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/new/", views.game_new, name="game_new"),
    path("games/<int:game_id>/", views.game_public, name="game_public"),
    path("games/<int:game_id>/setup/", views.game_setup, name="game_setup"),
    path("admin/", admin.site.urls),
]
