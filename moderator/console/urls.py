from django.urls import path

from moderator import views

urlpatterns = [
    path("games/new/", views.game_new, name="game_new"),
    path("games/<int:game_id>/setup/", views.game_setup, name="game_setup"),
]
