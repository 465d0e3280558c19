from django.shortcuts import get_object_or_404, render

from moderator.models import Game


def game_public(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    return render(request, "moderator/game_public.html", {"game": game, "seats": game.seats.all()})
