"""为什么: each line of a phase's dawn or dusk draft with the steps behind it (a closed phase, or the open one's dry
run), and the 复盘 post of a finished game. Only for the game's 天神 (`gm_game`): a trace names cards and authors."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from moderator.models import Phase
from moderator.services import explain
from moderator.services import review as review_post
from moderator.web.access import gm_game


@login_required
def why_page(request, game_id: int, phase_id: int):
    game = gm_game(request, game_id)
    phase = Phase.objects.filter(game=game, pk=phase_id).first()
    if phase is None:
        raise Http404
    trace = explain.phase_trace(game, phase)  # an open phase: its dry run's post and steps, from one close
    context = {
        "game": game,
        "phase": phase,
        "trace": trace,
        "why": explain.phase_why(game, trace),
        "dry_run": phase.status != Phase.Status.CLOSED,
    }
    return render(request, "console/why.html", context)


@login_required
def review(request, game_id: int):
    game = gm_game(request, game_id)
    try:
        bbcode, text = review_post.post(game)
    except explain.ReviewNotReady as exc:
        return render(request, "console/review.html", {"game": game, "refused": str(exc)})
    return render(request, "console/review.html", {"game": game, "bbcode": bbcode, "text": text})
