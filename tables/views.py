"""Pages: the list and create form, the public table page, each player's private page and the host's page.

Private and host pages carry their secret in the URL: they are never cached, never sent as a Referer and never
indexed.  ``Referrer-Policy: no-referrer`` makes browsers send ``Origin: null`` with the page's own form posts, which
Django's CSRF check refuses; those views are CSRF-exempt because the secret token in their URL already does what a
CSRF token does (a forged cross-site post would have to know it).  Every POST carries a one-time token the server
signed for that form, table and link (``once_checked``, tables/once.py).  Every page polls ``table_version`` and swaps in the new state by itself (see templates/tables/base.html).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_ratelimit.core import get_usage

from tables import services
from tables.forms import CreateTableForm
from tables.http import secret_link_headers
from tables.models import Table
from tables.once import once_checked
from tables.rules import RuleError
from tables.rules import direnjie_cards_sheet as sheet
from tables.rules.base import action_from_form
from tables.rules.tracker import HOST

PHASE_LABELS = {
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
    "mission": "翻开秘密任务",
    "lord_general": "主公选择武将",
    "generals": "其他玩家选择武将",
}
CREATE_LIMIT = 20  # tables created per client address per hour


def _created_so_far(request: HttpRequest, count: bool = False) -> dict:
    """This client's tables created in the current hour (django-ratelimit; the client's address is the proxy-aware
    one sign-in uses, settings.RATELIMIT_IP_META_KEY): `count` adds the one just made. Only tables actually created
    are counted, never a refused form."""
    rate = f"{CREATE_LIMIT}/h"
    try:
        usage = get_usage(request, group="tables:create", key="ip", rate=rate, increment=count)
    except (ValueError, ImproperlyConfigured):  # no address (a Unix socket without a proxy): all such share one count
        usage = get_usage(request, group="tables:create", key=lambda *_: "-", rate=rate, increment=count)
    return usage or {"count": 0, "time_left": 0}


def _too_many_tables(request: HttpRequest) -> int | None:
    """Seconds until this client may create a table again, or None when it may now."""
    usage = _created_so_far(request)
    return max(1, int(usage["time_left"])) if usage["count"] >= CREATE_LIMIT else None


def _version(request: HttpRequest) -> int | None:
    """The table version the posted form was made on (``<input name=version>``), or None when missing or garbled."""
    raw = request.POST.get("version", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


NO_VERSION = "这个表单缺少局面版本:请从牌桌页面上提交(页面刷新后再试)。"


def _already_created(token: str) -> Table | None:
    return Table.objects.filter(create_token=token).first() if token else None


@require_http_methods(["GET", "POST"])
@once_checked
def table_list(request: HttpRequest) -> HttpResponse:
    status, wait = 200, None
    form = CreateTableForm(request.POST or None)
    once = request.POST.get("once", "") if request.method == "POST" else ""  # the signed token's nonce
    if request.method == "POST" and (existing := _already_created(once)) is not None:
        # The same create form sent again (double click, resend): the table it made, once; its links again.
        context = {**_links(request, existing), "private": True, "repeated": True}
        return secret_link_headers(render(request, "tables/created.html", context))
    if request.method == "POST":
        status = 400
        if (wait := _too_many_tables(request)) is not None:
            minutes = max(1, -(-wait // 60))
            form.add_error(None, f"开桌太频繁了:每个地址每小时最多开 {CREATE_LIMIT} 桌,请在 {minutes} 分钟后再试。")
            status = 429
        elif form.is_valid():
            data = form.cleaned_data
            try:
                table = services.create_table(
                    data["kind"],
                    data["players"],
                    None,
                    form.game_options(),
                    data["name"] or "",
                    data["mode"] or "digital",
                    create_token=once or None,
                )
            except IntegrityError:  # the same form, sent concurrently: the other request made the table
                existing = _already_created(once)
                if existing is None:
                    raise
                context = {**_links(request, existing), "private": True, "repeated": True}
                return secret_link_headers(render(request, "tables/created.html", context))
            except RuleError as error:
                form.add_error(None, str(error))
            else:
                _created_so_far(request, count=True)
                context = {**_links(request, table), "private": True}
                return secret_link_headers(render(request, "tables/created.html", context))
    tables = Table.objects.all()[:100]
    context = {"form": form, "tables": tables}
    response = render(request, "tables/list.html", context, status=status)
    if wait is not None:
        response["Retry-After"] = str(wait)
    return response


def _links(request: HttpRequest, table: Table) -> dict[str, Any]:
    def url(name: str, *args: Any) -> str:
        return request.build_absolute_uri(reverse(name, args=[table.pk, *args]))

    return {
        "table": table,
        "links": [(seat, p["name"], url("tables:private", p["token"])) for seat, p in enumerate(table.players)],
        "public": url("tables:public"),
        "host": url("tables:host", table.host_token) if table.host_token else None,
    }


@require_GET
def table_public(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    return _page(request, table, None)


@require_GET
def table_version(request: HttpRequest, table_id: int) -> JsonResponse:
    version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
    if version is None:
        raise Http404("没有这张牌桌。")
    return JsonResponse({"version": version}, headers={"Cache-Control": "no-store"})


@csrf_exempt  # the URL's secret token is the CSRF token (see the module docstring)
@require_http_methods(["GET", "POST"])
@once_checked
def table_private(request: HttpRequest, table_id: int, token: str) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seat_for_token(token)
    if seat is None:
        raise Http404("没有这个玩家链接。")
    if request.method == "GET":
        return secret_link_headers(_page(request, table, seat))
    error = _post_action(request, table, seat)
    if error is None:
        return redirect("tables:private", table_id=table.pk, token=token)
    table.refresh_from_db()
    return secret_link_headers(_page(request, table, seat, error=error, status=400))


@csrf_exempt
@require_POST
@once_checked
def table_sheet(request: HttpRequest, table_id: int, token: str) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seat_for_token(token)
    if seat is None or table.kind != "direnjie_cards":
        raise Http404("没有这个玩家链接。")
    try:
        cell = sheet.check_cell(request.POST.get("cell", ""), len(table.players))
    except RuleError as error:
        return secret_link_headers(_page(request, table, seat, error=str(error), status=400))
    shown = request.POST.get("was")
    try:
        services.sheet_mark(
            table.pk, seat, cell, shown if shown is None or len(shown) <= 2 else "", request.POST.get("once")
        )
    except RuleError as error:
        return secret_link_headers(_page(request, table, seat, error=str(error), status=400))
    return secret_link_headers(redirect(reverse("tables:private", args=[table.pk, token]) + "#sheet"))


@csrf_exempt
@require_http_methods(["GET", "POST"])
@once_checked
def table_host(request: HttpRequest, table_id: int, token: str) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if not table.is_host(token):
        raise Http404("没有这个主持人链接。")
    if request.method == "GET":
        return secret_link_headers(_page(request, table, None, host=True))
    error = _host_post(request, table)
    if error is None:
        return redirect("tables:host", table_id=table.pk, token=token)
    table.refresh_from_db()
    return secret_link_headers(_page(request, table, None, host=True, error=error, status=400))


def _host_post(request: HttpRequest, table: Table) -> str | None:
    op = request.POST.get("op", "")
    version = _version(request)
    if version is None:
        return NO_VERSION
    once = request.POST.get("once")
    try:
        if op == "undo":
            if services.undo_last(table.pk, request.POST.get("reason", ""), version, once) is None:
                return "这一局还没有可以撤销的记录。"
        elif op == "next":
            if request.POST.get("confirm") != "1":
                return "开始下一局前请勾选确认:本局结果将记入总分,开始后不能撤销。"
            services.next_game(table.pk, version, once)
        elif op == "reset":
            seat = request.POST.get("seat", "")
            if not seat.isascii() or not seat.isdigit() or int(seat) >= len(table.players):
                return "请选择要重新生成链接的玩家。"
            services.reset_link(table.pk, int(seat), version, once)
        else:
            return _post_action(request, table, None)
    except RuleError as error:
        return str(error)
    return None


def _post_action(request: HttpRequest, table: Table, seat: int | None) -> str | None:
    version = _version(request)
    if version is None:
        return NO_VERSION
    once = request.POST.get("once")
    if services.spent(once):
        return services.ALREADY  # the same form again: said before the version, which it also no longer matches
    if version != table.version:
        return services.STALE
    kind, label = request.POST.get("type", ""), request.POST.get("label", "")
    specs = _forms(table, table.load(), seat)
    spec = next((f for f in specs if f["type"] == kind and f["label"] == label), None)
    if spec is None:
        if not specs:
            return "现在不是你行动的时候(或游戏已经结束)。"
        return "这个行动现在不可用(局面可能已经变化),请从下面现在可以做的行动中选择。"
    values = {p["name"]: request.POST.getlist(p["name"]) for p in spec["params"]}
    try:
        services.act(table.pk, seat, action_from_form(spec, values), version, once)
    except RuleError as rule_error:
        return str(rule_error)
    return None


def _forms(table: Table, state: Any, seat: int | None) -> list[dict[str, Any]]:
    if seat is not None:
        return table.rules.forms(state, seat)
    if table.mode == "physical" and table.kind != "noir":
        return table.rules.forms(state, HOST)
    return []


def _seats_to_act(view: dict[str, Any]) -> list[int]:
    to_act = view.get("to_act")
    return [] if to_act is None else [to_act] if isinstance(to_act, int) else list(to_act)


def _page(
    request: HttpRequest,
    table: Table,
    seat: int | None,
    error: str | None = None,
    status: int = 200,
    host: bool = False,
) -> HttpResponse:
    rules = table.rules
    state = table.load()
    view = rules.view(state, seat)
    names = table.player_names
    to_act = _seats_to_act(view)
    scores, winners = rules.score(state), rules.winner(state) or []
    results = None
    if scores is not None:
        results = [{"name": n, "score": scores[p], "won": p in winners} for p, n in enumerate(names)]
    series = table.rounds or table.options.get("target") or table.series_length
    totals = services.totals(table) if series else None
    context: dict[str, Any] = {
        "table": table,
        "v": view,
        "seat": seat,
        "host": host,
        "private": seat is not None or host,
        "me_name": names[seat] if seat is not None else None,
        "forms": _forms(table, state, None if host else seat) if (host or seat is not None) else [],
        "error": error,
        "phase": "进行中"
        if view.get("mode") == "physical" and view["phase"] == "play"
        else PHASE_LABELS.get(view["phase"], "进行中"),
        "to_act": [names[p] for p in to_act],
        "your_turn": seat is not None and seat in to_act,
        "results": results,
        "round_seed": table.round_seed() if scores is not None else None,
        "totals": [(names[p], t) for p, t in totals.items()] if totals else None,
        "target": table.options.get("target") or 0,
        "series_over": services.series_over(table) if scores is not None else False,
        "undone": table.actions.filter(round=table.round, undone=True).order_by("seq"),
        "log": list(reversed(view["log"])),
        "game_template": f"tables/games/{table.kind}{'_physical' if _physical_page(table) else ''}.html",
        "public_url": reverse("tables:public", args=[table.pk]),
        "version_url": reverse("tables:version", args=[table.pk]),
        "form_kind": "tables:host" if host else "tables:private",
    }
    if seat is not None and table.kind == "direnjie_cards":
        context["sheet"] = sheet.grid(names, table.players[seat].get("sheet") or {})
        context["sheet_columns"] = sheet.columns(names)
    if host:
        context.update(_links(request, table))
        context["undo_note"] = services.undo_note_of(table, services.last_undoable(table))
    return render(request, "tables/table.html", context, status=status)


def _physical_page(table: Table) -> bool:
    return table.mode == "physical" and table.kind != "noir"
