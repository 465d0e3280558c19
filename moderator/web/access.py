"""Who may open a 天神's page."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from moderator.models import Game


def gm_game(request, game_id: int) -> Game:
    """A game this user is a 天神 of (superusers see every game); anyone else gets a 404, not a hint. Every GM page
    (console and set-up) goes through here."""
    game = get_object_or_404(Game, pk=game_id)
    if not (request.user.is_superuser or game.gms.filter(pk=request.user.pk).exists()):
        raise Http404
    return game
