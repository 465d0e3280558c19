"""A new game: the create form, then its set-up page (the deal PMs with each seat's private link, the player list,
the start form)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from moderator.console.forms import GameCreateForm, StartForm
from moderator.console.views import deal_pms
from moderator.services import errors, setup
from moderator.services.once import AlreadyMade, Once
from moderator.web.access import gm_game


@login_required
def game_new(request):
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = setup.game_create(
                name=data["name"],
                player_names=data["players"],
                camps=data["camps"],
                hands=data["hands"],
                camp_seed=data["seed"],
                deal_seed=data["seed"],
                order_seed=data["seed"],
                gm=request.user,
                once=Once.from_post(request.POST),
                self_entry=data["self_entry"],
            )
        except AlreadyMade as exc:
            if exc.game is not None and exc.game.gms.filter(pk=request.user.pk).exists():
                messages.warning(request, str(exc))
                return redirect("game_setup", game_id=exc.game.pk)
            form.add_error(None, str(exc))
        except (setup.SetupError, errors.PlayError) as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("game_setup", game_id=game.pk)
    return render(request, "moderator/game_new.html", {"form": form})


@login_required
def game_setup(request, game_id: int):
    game = gm_game(request, game_id)
    return render(
        request,
        "moderator/game_setup.html",
        {
            "game": game,
            "seats": deal_pms(request, game),  # each with the seat's private link
            "player_list": setup.player_list_post(game),
            "start_form": StartForm(),
        },
    )
