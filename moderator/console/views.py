"""The 天神's console: thin views over the services; every input shows what was understood and why it was
accepted or refused; nothing a user types can make a page fail."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from moderator import rules
from moderator.console import forms
from moderator.console.draw import draw_context
from moderator.console.sentences import audit_sentence
from moderator.models import AuditLog, Game, Message, Phase
from moderator.rules import codec, views
from moderator.selectors import closed_phases_of, open_phase_of, seat_names
from moderator.services import (
    announce,
    clock,
    corrections,
    errors,
    inputs,
    intake,
    posts,
    review,
    revote,
    setup,
    storage,
    transfer,
    verdicts,
)
from moderator.services.once import AlreadyMade, Once
from moderator.services.preview import close_preview, close_result, end_preview
from moderator.web.access import gm_game
from moderator.web.forms import ActionForm
from moderator.web.inputs import input_row, phase_rows, seat_holders
from moderator.web.posted import manifesto_edits, refusal_choices


def _records(phase: Phase | None, game: Game, holders=None) -> list[dict]:
    """This phase's inputs as sentences, with their stored verdicts (the last replay's) and who sent each (S5)."""
    if phase is None:
        return []
    names = seat_names(game)
    return phase_rows(phase, names, holders=seat_holders(game) if holders is None else holders)


def _with_order(game: Game, state: rules.GameState) -> set[str]:
    """O1: the seats whose discard order exists — sent and accepted, or drawn; before that the dealt cards have no
    order and no 底牌 yet."""
    if game.hands_are_orders or state.bottoms_fixed:
        return {s.name for s in state.seats}
    return set(state.ordered)


def _seat_rows(request, game: Game, state: rules.GameState) -> list[dict]:
    """Each seat as the dashboard shows it: camp, hand (in order, or 尚未决定), AP, state, its private link."""
    ordered = _with_order(game, state)
    seats = {s.player_name: s for s in game.seats.all()}
    base = request.build_absolute_uri("/")
    rows = []
    for s in state.seats:
        seat = seats[s.name]
        rows.append(
            {
                "s": s,
                "seat": seat,
                "ordered": s.name in ordered,
                "independent": views.independent(state, s),
                "cards": [c.name for c in s.hand],
                "link": setup.seat_link(seat, base),
            }
        )
    return rows


@login_required
def dashboard(request, game_id: int):
    game = gm_game(request, game_id)
    replay = storage.game_replay(game)  # the page's one replay: the game as stored
    state = replay.state
    phase = open_phase_of(game)
    dryrun = close_preview(game, replay) if phase else None  # its one close, with the orders O1 draws at the deadline
    result = dryrun["result"] if dryrun else None
    return render(
        request,
        "console/dashboard.html",
        {
            "game": game,
            "phase": phase,
            "state": state,
            "seats": _seat_rows(request, game, state),
            "records": _records(phase, game),
            "not_acted": views.not_acted(state) if phase else [],
            "orders_missing": views.orders_missing(state, game.hands_are_orders) if phase else [],
            "alerts": views.alerts(state, result),
            "preview": result,
            "tally": views.sorted_tally(result),
            "executions": dryrun["executions"] if dryrun else [],
            "closed": closed_phases_of(game, newest_first=True),
            "now": timezone.now(),
            "dryrun": dryrun,
            "why": dryrun["why"] if dryrun else [],  # each line of the dry run with the steps of that close
            **draw_context(game, state),
        },
    )


@login_required
def games_overview(request):
    """Every game this 天神 runs, each with its phase, deadline and how many players have not acted (T5)."""
    games = Game.objects.all() if request.user.is_superuser else request.user.gm_games.all()
    rows = []
    for game in games.order_by("-created_at")[:100]:
        phase = open_phase_of(game)
        waiting = clock.waiting_for(game)
        rows.append({"game": game, "phase": phase, "waiting": waiting})
    return render(request, "console/games.html", {"rows": rows, "now": timezone.now()})


def _seat(game: Game, seat_id: int):
    return game.seats.get(pk=seat_id)


@login_required
def pm_intake(request, game_id: int, vote_post: bool = False):
    """Paste → preview (what the parser understood, the AP it will cost, refusals and why) → confirm."""
    game = gm_game(request, game_id)
    form_class = forms.VotePostForm if vote_post else forms.MessageForm
    form = form_class(game, request.POST or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        seat, data = _seat(game, form.cleaned_data["seat"]), form.cleaned_data
        choices, manifestos = refusal_choices(request.POST), manifesto_edits(request.POST, data["text"])
        try:
            if "confirm" in request.POST:
                message, items, refusals = intake.pm_confirm(
                    game,
                    intake.Pasted(
                        seat=seat,
                        text=data["text"],
                        forum_at=data["forum_at"],
                        vote_post=vote_post,
                        choices=choices,
                        manifestos=manifestos,
                    ),
                    user=request.user,
                    once=Once.from_post(request.POST),
                    seen=request.POST.get("seen", ""),
                )
                accepted = sum(i.accepted for i in items)
                unread = sum(not r.get("choice") for r in refusals)
                chosen = "".join(f",天神选定:{r['choice']}" for r in refusals if r.get("choice"))
                if message.parsed.get("manifesto_edits"):
                    chosen += ",杀人宣言按天神修改后的文字公布(原文不变)"
                messages.success(
                    request,
                    f"已保存 {seat.player_name} 的消息:{accepted} 项被接受,{len(items) - accepted} 项被拒绝,"
                    f"{unread} 处没有读懂{chosen}。",
                )
                return redirect("console_message", game_id=game.pk, message_id=message.pk)
            preview = _preview(game, seat, data, vote_post, choices, manifestos)
        except verdicts.NotAsSeen as exc:  # the confirm would not store what the preview showed: show it again
            form.add_error(None, str(exc))
            try:
                preview = _preview(game, seat, data, vote_post, choices, manifestos)
            except errors.PlayError as again:
                form.add_error(None, str(again))
        except errors.PlayError as exc:
            form.add_error(None, str(exc))
    context = {"game": game, "form": form, "preview": preview, "vote_post": vote_post, "future": _future(preview)}
    return render(request, "console/intake.html", context)


def _future(preview) -> str:
    """How far in the future a message's forum time lies (a typo in the date: warned, not refused), or ""."""
    ahead = (preview.forum_at - timezone.now()).total_seconds() if preview is not None else 0
    if ahead < 120:
        return ""
    hours, minutes = divmod(int(ahead // 60), 60)
    return f"{hours} 小时 {minutes} 分钟" if hours else f"{minutes} 分钟"


def _preview(game: Game, seat, data: dict, vote_post: bool, choices: dict[int, str], manifestos=None):
    text, at = data["text"], data["forum_at"]
    return intake.pm_preview(
        game,
        intake.Pasted(
            seat=seat, text=text, forum_at=at, vote_post=vote_post, choices=choices, manifestos=dict(manifestos or {})
        ),
    )


@login_required
def message_detail(request, game_id: int, message_id: int):
    game = gm_game(request, game_id)
    message = get_object_or_404(Message, pk=message_id, game=game)
    names = seat_names(game)
    records = message.inputs.select_related("void", "verdict", "seat").order_by("forum_at", "seq")
    rows = [input_row(rec, names) for rec in records]
    return render(request, "console/message.html", {"game": game, "message": message, "rows": rows})


@login_required
def action_form(request, game_id: int):
    """The structured alternative to pasting."""
    game = gm_game(request, game_id)
    form = ActionForm(game, request.POST or None)
    ripple = None
    if request.method == "POST" and form.is_valid():
        seat = _seat(game, form.cleaned_data["seat"])
        try:
            rec, verdict = intake.action_entry(
                game=game,
                seat=seat,
                item=form.item(),
                forum_at=form.cleaned_data["forum_at"],
                actor=request.user,
                once=Once.from_post(request.POST),
                seen=request.POST.get("seen", ""),
            )
        except verdicts.NotAsSeen as exc:  # out of forum order: other verdicts would change — show them, ask again
            form.add_error(None, str(exc))
            ripple = _ripple(exc, codec.describe_item(form.item()))
        except errors.PlayError as exc:
            form.add_error(None, str(exc))
        else:
            _verdict_message(request, seat.player_name, _sentence(game, rec), verdict)
            return redirect("console_dashboard", game_id=game.pk)
    context = {"game": game, "form": form, "title": "录入特权(表单)", "ripple": ripple}
    return render(request, "console/form.html", context)


def _ripple(exc: verdicts.NotAsSeen, sentence: str) -> dict:
    """What a structured form's entry would do (its own verdict, the other verdicts it changes), to confirm."""
    own = verdicts.verdict_text(exc.outcome.verdicts[0]) if exc.outcome.verdicts else ""
    return {"sentence": sentence, "own": own, "outcome": exc.outcome}


def _sentence(game: Game, rec) -> str:
    return codec.describe(rec.kind, rec.payload, seat_names(game))


def _verdict_message(request, who: str, what: str, verdict) -> None:
    if verdict.accepted:
        messages.success(
            request,
            f"已接受:{who} {what}"
            + (f"(扣 {verdict.cost} 点)" if verdict.cost else "")
            + (f"。{verdict.reason}" if verdict.reason else ""),
        )
    else:
        messages.error(request, f"已拒绝(原始输入已保存):{who} {what}。原因:{verdict.reason}")


@login_required
def vote_intake(request, game_id: int):
    """Vote posts: paste or form; the running weighted tally with modifiers; each voter's weight and verdicts."""
    game = gm_game(request, game_id)
    replay = storage.game_replay(game)
    alive = {s.name for s in replay.state.alive}
    form = forms.VoteForm(game, request.POST or None, alive=alive)
    ripple = None
    if request.method == "POST" and form.is_valid():
        data, vote = form.cleaned_data, form.vote()
        seat = _seat(game, data["seat"])
        target = _seat(game, vote["target"]) if vote["target"] else None  # D3: an edited post, original unknown
        try:
            rec, verdict = intake.vote_entry(
                game=game,
                seat=seat,
                target=target,
                change=vote["change"],
                edited=vote["edited"],
                forum_at=data["forum_at"],
                actor=request.user,
                once=Once.from_post(request.POST),
                seen=request.POST.get("seen", ""),
            )
        except verdicts.NotAsSeen as exc:  # out of forum order: other verdicts would change — show them, ask again
            form.add_error(None, str(exc))
            item = inputs.vote_item(target, change=vote["change"], edited=vote["edited"])
            ripple = _ripple(exc, codec.describe_item(item))
        except errors.PlayError as exc:
            form.add_error(None, str(exc))
        else:
            _verdict_message(request, seat.player_name, _sentence(game, rec), verdict)
            return redirect("console_votes", game_id=game.pk)
    phase = open_phase_of(game)
    result = close_result(replay.state) if phase and phase.kind == "day" else None  # what closing now would give
    ballots = []
    if result is not None:
        tally_event = next(e for e in result.events if e["type"] == "tally")
        voted = replay.state.votes
        for voter, (target, weight) in tally_event["ballots"].items():
            ballots.append({"voter": voter, "target": target, "weight": weight, "default": voter not in voted})
    records = [r for r in _records(phase, game) if r["rec"].kind == "vote"]
    again = revote.revotes(game, phase, replay.state)
    by_name = {r.name: r for r in again}
    for b in ballots:
        b["revote"] = by_name.get(b["voter"]) if b["default"] else None
    return render(
        request,
        "console/votes.html",
        {
            "game": game,
            "form": form,
            "phase": phase,
            "result": result,
            "ballots": ballots,
            "tally": views.sorted_tally(result),
            "records": records,
            "paste": forms.VotePostForm(game),
            "ripple": ripple,
            "revotes": again,
        },
    )


@login_required
@require_POST
def revote_page(request, game_id: int):
    """D3: draft the public request to the players who must vote again."""
    game = gm_game(request, game_id)
    try:
        draft = revote.revote_request(game=game, actor=request.user, once=Once.from_post(request.POST))
        messages.success(request, f"已起草“{draft.title}”,在公告草稿里。")
    except errors.PlayError as exc:
        messages.error(request, str(exc))
    return redirect("console_votes", game_id=game.pk)


@login_required
def void_page(request, game_id: int, pk: int):
    """GET: what the void would change (every other verdict of the phase, and a close now) → POST: confirm."""
    game = gm_game(request, game_id)
    if request.method != "POST":
        try:
            preview = corrections.void_preview(game=game, pk=pk)
        except errors.PlayError as exc:
            messages.error(request, str(exc))
            return redirect("console_dashboard", game_id=game.pk)
        return render(request, "console/void.html", {"game": game, "preview": preview})
    form = forms.ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        corrections.void_confirm(
            game=game,
            pk=pk,
            seen=request.POST.get("seen", ""),
            user=request.user,
            reason=reason,
            once=Once.from_post(request.POST),
        )
        messages.success(request, "已作废,本时段已按剩下的输入重新计算。")
    except errors.PlayError as exc:
        messages.error(request, str(exc))
    return redirect("console_dashboard", game_id=game.pk)


def _by_phase(drafts) -> list[dict]:
    """The drafts grouped by the phase that produced them, the newest phase first."""
    groups: dict[int, dict] = {}
    for a in drafts:
        group = groups.setdefault(a.phase_id, {"phase": a.phase, "drafts": []})
        group["drafts"].append(a)
    return sorted(groups.values(), key=lambda g: (g["phase"].starts_at, g["phase"].pk), reverse=True)


def deal_pms(request, game: Game) -> list[tuple]:
    base = request.build_absolute_uri("/")
    return [(s, setup.deal_pm(s, setup.seat_link(s, base))) for s in game.seats.order_by("number")]


def _review(game: Game) -> dict | None:
    if game.status != Game.Status.FINISHED:
        return None
    bbcode, text = review.post(game)
    return {"title": text.splitlines()[0], "bbcode": bbcode, "text": text}


def _links(request, game: Game) -> dict[str, str]:
    base = request.build_absolute_uri("/")
    return {s.player_name: setup.seat_link(s, base) + "act/" for s in game.seats.all()}


@login_required
def announcements(request, game_id: int):
    game = gm_game(request, game_id)
    links = _links(request, game) if game.self_entry else {}
    rows = game.announcements.select_related("phase").order_by("id")
    drafts = [posts.with_link(a, links.get(a.recipient, "")) for a in rows]
    return render(
        request,
        "console/announcements.html",
        {
            "game": game,
            "groups": _by_phase(drafts),
            "unposted": sum(1 for a in drafts if a.posted_at is None and a.corrected_at is None),
            "deal_pms": deal_pms(request, game),
            "player_list": setup.player_list_post(game),
            "review": _review(game),  # the 复盘 post, once the game is over
            # self-entry: a private draft (an O3 reminder…) points to the recipient's page; its link, to paste with it
            "links": links,
        },
    )


@login_required
@require_POST
def announcement_posted(request, game_id: int, pk: int):
    """The 天神 marks a draft as posted on the forum (only then does the public page show it), or takes it back."""
    game = gm_game(request, game_id)
    posted = request.POST.get("posted") != "0"
    try:
        draft = announce.announcement_post(
            game=game, pk=pk, posted=posted, actor=request.user, once=Once.from_post(request.POST)
        )
        messages.success(request, f"“{draft.title}”" + ("已标记为已发布。" if posted else "已取消发布标记。"))
    except errors.PlayError as exc:
        messages.error(request, str(exc))
    return redirect(f"{reverse('console_announcements', args=[game.pk])}#draft-{pk}")


@login_required
@require_POST
def link_rotate(request, game_id: int, seat_id: int):
    """A new private link for a seat; the old one stops working at once."""
    game = gm_game(request, game_id)
    try:
        seat = setup.seat_link_rotate(game=game, seat_id=seat_id, actor=request.user, once=Once.from_post(request.POST))
        messages.success(request, f"{seat.number} 号座位({seat.player_name})的私人链接已更换,旧链接已失效。")
    except (setup.SetupError, errors.PlayError) as exc:
        messages.error(request, str(exc))
    return redirect("console_dashboard", game_id=game.pk)


@login_required
def audit(request, game_id: int):
    game = gm_game(request, game_id)
    logged = list(game.audit.select_related("actor").order_by("-at", "-id"))
    # T5: an early end logs its own row; the close it triggers is not also "按时结束" by the system.
    early = {(r.detail or {}).get("phase") for r in logged if r.action == AuditLog.Action.PHASE_END_EARLY}
    shown = [
        r for r in logged if not (r.action == AuditLog.Action.PHASE_CLOSE and (r.detail or {}).get("phase") in early)
    ]
    rows = [(row, audit_sentence(row)) for row in shown]
    return render(request, "console/audit.html", {"game": game, "rows": rows})


def _edits_from(request, game: Game) -> list[dict]:
    edits = []
    for key in request.POST.getlist("void"):
        if key.isascii() and key.isdigit():
            edits.append({"op": "void", "id": int(key)})
    add = ActionForm(game, request.POST, prefix="add")
    phase_id = request.POST.get("add-phase")
    if phase_id and phase_id.isascii() and phase_id.isdigit() and add.is_valid():
        edits.append(
            {
                "op": "add",
                "phase_id": int(phase_id),
                "seat_id": add.cleaned_data["seat"],
                "item": add.item(),
                "forum_at": add.cleaned_data["forum_at"],
            }
        )
    return edits


@login_required
def correction(request, game_id: int):
    """After a close: void or add inputs of closed phases, see the difference, confirm."""
    game = gm_game(request, game_id)
    closed = list(closed_phases_of(game))
    diffs, edits, at = None, [], _preview_time(request.POST.get("at", ""))
    if request.method == "POST":
        edits = _edits_from(request, game)
        if not edits:
            messages.error(request, "没有选择任何更正:勾选要作废的输入,或填写要补录的特权。")
        else:
            try:
                if "confirm" in request.POST:
                    done = corrections.correction_apply(
                        game=game,
                        edits=edits,
                        user=request.user,
                        reason=request.POST.get("reason", ""),
                        once=Once.from_post(request.POST),
                        seen=request.POST.get("seen", ""),
                        at=at,
                    )
                    messages.success(
                        request,
                        f"更正已生效,重新结算了 {len(done)} 个时段的结果和公告。"
                        + "".join(f"{what}:{after}。" for what, _, after in done.game),
                    )
                    return redirect("console_dashboard", game_id=game.pk)
                diffs = corrections.correction_preview(game=game, edits=edits, at=at)
            except corrections.CorrectionNotAsSeen as exc:  # show what it would do now, and ask again
                messages.error(request, str(exc))
                at = timezone.now()
                try:
                    diffs = corrections.correction_preview(game=game, edits=edits, at=at)
                except errors.PlayError as again:
                    messages.error(request, f"无法更正:{again}")
            except errors.PlayError as exc:
                messages.error(request, f"无法更正:{exc}")
            except (ObjectDoesNotExist, ValueError, KeyError):  # a message, never a 500 nor Python's words
                messages.error(request, "无法更正:所选的时段、座位或输入不存在(页面可能已过期,请刷新后再选)")
    checked = set(request.POST.getlist("void"))
    phases = []
    holders = seat_holders(game)
    for p in closed:
        records = _records(p, game, holders)
        phases.append({"phase": p, "records": records, "checked": any(r["key"] in checked for r in records)})
    add_phase = request.POST.get("add-phase", "")
    add_form = ActionForm(game, request.POST if add_phase else None, prefix="add")
    context = {
        "game": game,
        "phases": phases,
        "diffs": diffs,
        "add_form": add_form,
        "checked": checked,
        "add_phase": int(add_phase) if add_phase.isascii() and add_phase.isdigit() else None,
        "reason": request.POST.get("reason", ""),
        "at": int(at.timestamp()),
    }
    return render(request, "console/correction.html", context)


def _preview_time(raw: str):
    """The time of the correction's preview, carried by its confirm (a re-opened phase starts then, so its deadline is
    the one the preview showed); a missing, garbled or stale (over an hour, or future) value is now."""
    now = timezone.now()
    if raw.isascii() and raw.isdigit() and len(raw) < 12:
        at = datetime.fromtimestamp(int(raw), tz=UTC)
        if now - timedelta(hours=1) <= at <= now + timedelta(minutes=1):
            return at
    return now


@login_required
def export(request, game_id: int):
    game = gm_game(request, game_id)
    body = json.dumps(transfer.export_game(game), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response


@login_required
def import_page(request):
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = transfer.read_upload(form.cleaned_data["file"])  # size cap, strict JSON
            once = Once.from_post(request.POST)
            game = transfer.import_game(data, gm=request.user, name=form.cleaned_data["name"] or None, once=once)
        except AlreadyMade as exc:
            if exc.game is not None and exc.game.gms.filter(pk=request.user.pk).exists():
                messages.warning(request, str(exc))
                return redirect("console_dashboard", game_id=exc.game.pk)
            form.add_error(None, str(exc))
        except (ValueError, KeyError, TypeError, IndexError, errors.PlayError) as exc:
            form.add_error(None, f"无法导入:{exc}")
        else:
            asked = form.cleaned_data["name"] or data.get("game", {}).get("name", "")
            renamed = f"已有同名游戏“{asked}”,导入的这局命名为“{game.name}”。" if asked and game.name != asked else ""
            paused = (
                "它已暂停(时钟停止),不在首页列出:核对无误后在控制台点“继续”开始计时。"
                if game.status == Game.Status.PAUSED
                else "它不在首页列出。"
            )
            messages.success(request, f"已导入并重放。{renamed}{paused}")
            return redirect("console_dashboard", game_id=game.pk)
    return render(request, "console/form.html", {"game": None, "form": form, "title": "导入游戏", "multipart": True})


@login_required
def start(request, game_id: int):
    """T1: post the player list → night 1 starts. A game already started says so and points to its dashboard."""
    game = gm_game(request, game_id)
    if game.status != Game.Status.SETUP and game.phases.exists():
        first = game.phases.order_by("starts_at", "id").first()
        return render(request, "console/started.html", {"game": game, "first": first})
    form = forms.StartForm(request.POST or None)
    closing: list[str] = []
    if request.method == "POST" and form.is_valid():
        closing = setup.start_closes_at_once(game, form.cleaned_data["at"], timezone.now())
        if closing and not form.cleaned_data["confirm_past"]:
            form.ask_to_confirm(closing)
            return render(
                request,
                "console/form.html",
                {"game": game, "form": form, "title": "发布《游戏者名单》,第1夜开始"},
                status=200,
            )
        try:
            setup.game_start(
                game=game, at=form.cleaned_data["at"], once=Once.from_post(request.POST), actor=request.user
            )
        except (setup.SetupError, errors.PlayError) as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("console_dashboard", game_id=game.pk)
    return render(request, "console/form.html", {"game": game, "form": form, "title": "发布《游戏者名单》,第1夜开始"})


@login_required
def end_confirm(request, game_id: int):
    """T5: before a phase is ended early, say who has not acted yet, the orders O1 would draw (night 1) and the post
    the close would draft, and ask again."""
    game = gm_game(request, game_id)
    shown = end_preview(game)  # the page's one replay and close
    if shown is None:
        messages.error(request, "现在没有进行中的时段。")
        return redirect("console_dashboard", game_id=game.pk)
    context = {
        "game": game,
        "phase": shown["phase"],
        "waiting": shown["waiting"],
        "orders_missing": shown["orders_missing"],
        "drawn": shown["drawn"],
        "dryrun": shown["post"],
    }
    return render(request, "console/end_confirm.html", context)


@login_required
@require_POST
def clock_control(request, game_id: int, action: str):
    """T4 extend, T5 end early (showing who has not acted), pause and resume — each logged by the clock service."""
    game = gm_game(request, game_id)
    once = Once.from_post(request.POST)
    try:
        if action == "end":
            force, seen = bool(request.POST.get("force")), request.POST.get("seen", "")  # no digest: nothing seen
            phase = clock.phase_end_early(game=game, actor=request.user, force=force, once=once, seen=seen)
            messages.success(request, f"{phase.label}已提前结束并结算。")
        elif action == "extend":
            hours = _hours(request.POST.get("hours"))
            phase = clock.phase_extend(
                game=game,
                by=timedelta(hours=hours),
                actor=request.user,
                reason=request.POST.get("reason", ""),
                once=once,
            )
            messages.success(
                request, f"{phase.label}已延长 {hours:g} 小时;给玩家的延长公告(新的截止时间)已写进公告草稿。"
            )
        elif action == "pause":
            clock.game_pause(game=game, actor=request.user, once=once)
            messages.success(request, "游戏已暂停,时钟停止;暂停公告已写进公告草稿。")
        elif action == "resume":
            clock.game_resume(game=game, actor=request.user, once=once)
            messages.success(request, "游戏已继续;继续公告(新的截止时间)已写进公告草稿。")
        else:
            raise Http404
    except errors.PlayError as exc:
        messages.error(request, str(exc))
    return redirect("console_dashboard", game_id=game.pk)


def _hours(raw: str | None) -> float:
    """The hours typed into the extend form: a number of hours up to 30 days, or a sentence saying what to type
    (never Python's "could not convert string to float")."""
    try:
        hours = float(raw or 12)
    except ValueError:
        hours = float("nan")
    if not 0 < hours <= 30 * 24:  # also NaN and infinity, which timedelta cannot hold
        raise errors.PlayError("延长的时间请写小时数,大于零且不超过 30 天(720 小时),如 12 或 1.5")
    return hours


@login_required
@require_POST
def substitute(request, game_id: int):
    """S5, T4: a substitute takes a seat over; the current phase gets its 12-hour 交替期. The first post shows what
    it would change (the new deadline, the drafts: handover PM, notice, vote post); the confirm saves it."""
    game = gm_game(request, game_id)
    seat_id = request.POST.get("seat", "")
    seat = game.seats.filter(pk=int(seat_id)).first() if seat_id.isascii() and seat_id.isdigit() else None
    if seat is None:
        messages.error(request, "请选择要替补的座位")
        return redirect("console_dashboard", game_id=game.pk)
    name, base = request.POST.get("player_name", ""), request.build_absolute_uri("/")
    try:
        if "confirm" not in request.POST:  # first what it would change; nothing is saved yet
            preview = setup.substitute_preview(seat=seat, player_name=name, at=timezone.now(), link_base=base)
            return render(request, "console/substitute.html", {"game": game, "seat": seat, "preview": preview})
        setup.seat_substitute(
            seat=seat,
            player_name=name,
            at=timezone.now(),
            actor=request.user,
            once=Once.from_post(request.POST),
            link_base=base,
        )
        messages.success(
            request,
            f"{seat.number} 号座位由替补接替,本时段延长 12 小时(T4);旧的私人链接已失效。"
            "交接短消息、替补公告已写进公告草稿。",
        )
    except (setup.SetupError, errors.PlayError) as exc:
        messages.error(request, str(exc))
    return redirect("console_dashboard", game_id=game.pk)
