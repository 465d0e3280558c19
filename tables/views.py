"""Pages: the list and create form, the public table page and each player's private page (by secret token)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from tables import services
from tables.forms import CreateTableForm
from tables.models import Table
from tables.rules import RuleError
from tables.rules.base import action_from_form

PHASES = {
    "over": "已结束",
    "play": "出牌阶段",
    "respond": "响应[杀]",
    "dying": "濒死求救",
    "discard": "弃牌阶段",
    "killer_first": "杀手第一回合",
    "inspector_first": "警探选择身份",
    "main": "进行中",
    "exonerate_choose": "无罪宣告:选择证据卡",
    "bonus": "步骤1:检查线索或线索功能",
    "give_back": "步骤1:还牌",
    "request": "步骤2:索取手牌",
    "give": "步骤2:其他玩家给牌",
    "consolation": "步骤2:没有索取到牌",
    "submit": "步骤3:提交线索",
    "refill": "步骤4:补手牌",
    "answer": "游戏结束:写下解答",
}


@require_http_methods(["GET", "POST"])
def table_list(request: HttpRequest) -> HttpResponse:
    status = 200
    if request.method == "POST":
        form = CreateTableForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table = services.create_table(
                    data["kind"], data["players"], data["seed"], form.game_options(), data["name"] or ""
                )
            except RuleError as error:
                form.add_error(None, str(error))
            else:
                links = [
                    (p["name"], request.build_absolute_uri(reverse("tables:private", args=[table.pk, p["token"]])))
                    for p in table.players
                ]
                public = request.build_absolute_uri(reverse("tables:public", args=[table.pk]))
                return render(request, "tables/created.html", {"table": table, "links": links, "public": public})
        status = 400
    else:
        form = CreateTableForm()
    tables = Table.objects.all()[:100]
    return render(request, "tables/list.html", {"form": form, "tables": tables}, status=status)


@require_GET
def table_public(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    return _page(request, table, None)


@require_http_methods(["GET", "POST"])
def table_private(request: HttpRequest, table_id: int, token: str) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seat_for_token(token)
    if seat is None:
        raise Http404("没有这个玩家链接。")
    if request.method == "GET":
        return _page(request, table, seat)
    error = _post_action(request, table, seat)
    if error is None:
        return redirect("tables:private", table_id=table.pk, token=token)
    table.refresh_from_db()
    return _page(request, table, seat, error=error, status=400)


def _post_action(request: HttpRequest, table: Table, seat: int) -> str | None:
    kind, label = request.POST.get("type", ""), request.POST.get("label", "")
    specs = table.rules.forms(table.load(), seat)
    spec = next((f for f in specs if f["type"] == kind and f["label"] == label), None)
    if spec is None:
        if not specs:
            return "现在不是你行动的时候(或游戏已经结束)。"
        return "这个行动现在不可用(局面可能已经变化),请从下面现在可以做的行动中选择。"
    values = {p["name"]: request.POST.getlist(p["name"]) for p in spec["params"]}
    try:
        services.act(table.pk, seat, action_from_form(spec, values))
    except RuleError as rule_error:
        return str(rule_error)
    return None


def _page(
    request: HttpRequest, table: Table, seat: int | None, error: str | None = None, status: int = 200
) -> HttpResponse:
    rules = table.rules
    state = table.load()
    view = rules.view(state, seat)
    names = table.player_names
    to_act = view.get("to_act")
    to_act = [] if to_act is None else [to_act] if isinstance(to_act, int) else list(to_act)
    scores, winners = rules.score(state), rules.winner(state) or []
    results = None
    if scores is not None:
        results = [{"name": n, "score": scores[p], "won": p in winners} for p, n in enumerate(names)]
    context: dict[str, Any] = {
        "table": table,
        "v": view,
        "seat": seat,
        "me_name": names[seat] if seat is not None else None,
        "forms": rules.forms(state, seat) if seat is not None else [],
        "error": error,
        "phase": PHASES.get(view.get("phase", ""), view.get("phase", "")),
        "to_act": [names[p] for p in to_act],
        "results": results,
        "log": list(reversed(view["log"][-80:])),
        "game_template": f"tables/games/{table.kind}.html",
        "public_url": reverse("tables:public", args=[table.pk]),
    }
    return render(request, "tables/table.html", context, status=status)
