from django.urls import path

from moderator.public import views

urlpatterns = [
    path("games/<int:game_id>/", views.game_public, name="game_public"),
    path("p/<str:token>/", views.seat_private, name="seat_private"),
]
