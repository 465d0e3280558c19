from django.urls import path

from moderator.public import act, feeds, views

urlpatterns = [
    path("games/<int:game_id>/", views.game_public, name="game_public"),
    path("games/<int:game_id>/feed/", feeds.GameFeed(), name="game_feed"),
    path("games/<int:game_id>/phase/", feeds.phase_watch, name="game_phase_watch"),
    path("p/<str:token>/", views.seat_private, name="seat_private"),
    path("p/<str:token>/act/", act.seat_act, name="seat_act"),
]
