"""At the end of the game every camp and hand is public (V1–V4), and a final summary is drafted."""

from dataclasses import replace

import pytest
from django.template.loader import render_to_string

from moderator.models import Announcement
from moderator.rules import views
from moderator.services import drafts, storage

pytestmark = pytest.mark.django_db


def test_the_final_summary_and_the_public_view_reveal_every_camp_and_hand_once_there_is_a_winner(game):
    state = storage.game_replay(game).state
    assert views.public_view(state)["final"] is None  # while the game runs, nothing is revealed
    won = replace(state, winner="平民")
    final = views.public_view(won)["final"]
    assert {(s["name"], s["camp"]) for s in final} == {("甲", "杀手"), ("乙", "平民"), ("丙", "平民"), ("丁", "狼人")}
    draft = drafts.final_summary_draft(game=game, phase=game.phases.get(), state=won, winner="平民")
    assert draft.kind == Announcement.Kind.NOTICE
    assert "平民阵营获胜" in draft.text and "甲:杀手" in draft.text and "狙击手" in draft.text
    html = render_to_string("public/_final.html", {"final": final})
    assert "杀手" in html and "禁锢/反狙击" in html
