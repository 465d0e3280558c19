"""The 天神's intake: a pasted PM or vote post → the parser's reading → the engine's verdict (on the current state,
nothing stored) → on confirmation the raw message and its inputs are stored and replayed; the console's action and
vote forms, and voiding an input of the open phase. Each verb writes its audit row in its own transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.db import transaction

from moderator import rules
from moderator.game.validate import ATTACKS, MANIFESTO_CHARS, manifesto_length
from moderator.models import AuditLog, Game, Input, InputVoid, Message, Phase, Seat
from moderator.parser import Part, account, parse_pm, parse_vote, sender_words
from moderator.rules import codec
from moderator.services import audit, base, closing, errors, inputs, storage, verdicts
from moderator.services.once import Once, spend
from moderator.services.preview import rolled_back


@dataclass
class Item:
    """One input the parser read, and what the rules say of it now."""

    data: dict
    accepted: bool
    reason: str = ""
    cost: int = 0
    sender_words: tuple[str, ...] = ()  # words of the 杀人宣言 to publish that name the sender (the preview warns)

    @property
    def kind(self) -> str:
        return codec.kind_of(self.data)

    @property
    def sentence(self) -> str:
        """The input as the 天神 reads it (`束魂 → 阿飞`; `束魂 → 阿飞(由天神选定)` when the 天神 chose the player among
        the candidates, `(由玩家选定)` when the player did, on his own page)."""
        text = input_sentence(self.data)
        if self.sender_words:
            said = "、".join(f"“{w}”" for w in self.sender_words)
            text += f"。注意:要公布的杀人宣言里有发送者自己的名字{said},公布后大家会知道是谁攻击的;确认前请修改宣言"
        return text

    @property
    def key(self) -> int | None:
        """Where the input was written (its span's start): the key of its manifesto's edit, stable across choices."""
        span = self.data.get("span")
        return span[0] if span else None

    @property
    def attack(self) -> bool:
        return self.data.get("use") in ATTACKS

    @property
    def manifesto_chars(self) -> int:
        """N-kill: the characters that will be published, not counting whitespace."""
        return manifesto_length(self.data.get("manifesto"))

    @property
    def manifesto_note(self) -> str:
        """The count of what will be published, as the 天神 reads it (N-kill), flagged when one attack's 100 is not
        reached (the verdict says whether the message's other manifestos cover it)."""
        n = self.manifesto_chars
        text = f"将公布 {n} 字(不计空白)"
        if self.data.get("manifesto_edited"):
            text += ",已按修改后的文字计算(原文不变)"
        if n < MANIFESTO_CHARS:
            text += f";不到一次攻击需要的 {MANIFESTO_CHARS} 字(N-kill):同一条消息里别的宣言补不足时,这次攻击会被拒绝"
        return text


def edited_inputs(inputs: list[dict]) -> list[dict]:
    """D3: a vote post the forum shows as edited. Its text is the edited one, so the original target cannot be known
    from it: an original vote becomes "edited, original unknown" (it counts for the editor unless an earlier entry
    of the original stands); a change post stays a change, marked edited (refused: D3)."""
    return [{"edited": True} if "for" in i else {**i, "edited": True} for i in inputs]


def input_sentence(item: dict) -> str:
    """An item as a sentence, marked when the 天神 chose its player among a refusal's candidates."""
    text = codec.describe_item(item)
    if item.get("pronoun") and (meant := _player_of(item)):  # a privilege's target or a vote's player
        text += f"(“{item['pronoun']}”按上文读作{meant},请核对)"
    if item.get("inferred_use") and item.get("use"):
        # 刚才的王五改给赵六 with no privilege written: the hand's only privilege that names a player
        text += f"(没写是哪个特权:手里能指定目标的只有{item['use']},按{item['use']}读,请核对)"
    if item.get("correction"):  # 治疗张三,哦不对,治疗李四: the words the correction replaced
        text += f"(更正:前面写的“{item['correction']}”不算,按更正后的读,请核对)"
    return f"{text}(由{item.get('chosen_by') or '天神'}选定)" if item.get("chosen") and _player_of(item) else text


def _player_of(item: dict) -> str | None:
    """The player an input names: a privilege's target, or a vote's (投 / 改投)."""
    if "use" in item:
        return item.get("target")
    player = item.get("change") or item.get("for")
    return player if isinstance(player, str) else None


@dataclass
class MessagePreview:
    """What a pasted message would store: the parser's reading, each input's verdict, the refusals, and what it
    changes of the inputs already entered."""

    seat: Seat
    phase: Phase
    forum_at: datetime
    text: str
    items: list[Item] = field(default_factory=list)
    refusals: list[dict] = field(default_factory=list)
    later: int = 0  # inputs of the phase already entered with a later forum time (judged in forum order, T3)
    changes: list[verdicts.VerdictChange] = field(default_factory=list)  # other inputs whose verdict would change
    digest: str = ""  # verdicts.EntryOutcome.digest: the confirm stores only what this preview showed
    notes: list[dict] = field(default_factory=list)  # the parser's notes: each other part of the text, with its reason

    @property
    def account(self) -> list[Part]:
        """Every part of the message in the order written, each character in one (docs/parser.md, "every word
        accounted for"): an input (its part carries the Item: sentence, cost, verdict), its 杀人宣言, a refusal or
        a note, each with its reason."""
        return account(
            self.text, inputs=[i.data for i in self.items], refusals=self.refusals, notes=self.notes, items=self.items
        )

    @property
    def cost(self) -> int:
        return sum(i.cost for i in self.items if i.accepted)

    @property
    def text_key(self) -> str:
        return verdicts.text_key(self.text)

    @property
    def choices(self) -> list[str]:
        """The 天神's choices, as the form carries them ("refusal index:name")."""
        return [f"{k}:{r['choice']}" for k, r in enumerate(self.refusals) if r.get("choice")]

    @property
    def evidence(self) -> list[tuple[str, str]]:
        """The pasted text in pieces, each marked with what the parser read there: "input" (the words an input was
        read from), "refusal" (words it could not accept) or "" — so the 天神 sees the evidence of every input."""
        n = len(self.text)
        published = [s for i in self.items for s in i.data.get("manifesto_spans", ())]
        for i in self.items:  # an edited 宣言: its words where they still stand together in the original
            edited = i.data.get("manifesto") if i.data.get("manifesto_edited") else None
            start = self.text.find(edited) if edited else -1
            if edited and start >= 0:
                published.append([start, start + len(edited)])
        # Each character takes the strongest kind of the spans over it, counted in one sweep: linear in the text
        # whatever the number of spans (a PM box holds 20,000 characters).
        opened = [[0] * (n + 1) for _ in range(4)]
        for kind, spans in (
            (3, [i.data.get("span") for i in self.items]),
            (2, published),  # the words that will be published as a 杀人宣言
            (1, [r.get("span") for r in self.refusals]),
        ):
            for span in spans:
                if span and 0 <= span[0] < span[1] <= n:
                    opened[kind][span[0]] += 1
                    opened[kind][span[1]] -= 1
        labels = ("", "refusal", "manifesto", "input")
        live = [0] * 4
        pieces: list[tuple[str, str]] = []
        run_start, run_label = 0, None
        for k in range(n):
            for kind in (1, 2, 3):
                live[kind] += opened[kind][k]
            label = labels[3 if live[3] else 2 if live[2] else 1 if live[1] else 0]
            if label != run_label:
                if run_label is not None:
                    pieces.append((self.text[run_start:k], run_label))
                run_start, run_label = k, label
        if run_label is not None:
            pieces.append((self.text[run_start:n], run_label))
        return pieces


UNPLACED = 10**9  # an input without a span (none today) keeps its place at the end


def choices_apply(
    inputs: list[dict], refusals: list[dict], choices: dict[int, str], chooser: str = "天神"
) -> tuple[list[dict], list[dict]]:
    """The 天神's one-click choices: refusal k → candidate name. Each turns that refusal into the input the
    parser says it would give with that player, marked `chosen`, in the message's order; the refusal stays in the
    record with its `choice`. The raw text is never rewritten. A choice that cannot be applied is refused, naming
    why: never a silent guess. `chooser`: who clicked — "玩家" on his own page is recorded (`chosen_by`) and shown
    as 玩家选定; the 天神's are shown as 天神选定."""
    inputs, refusals = list(inputs), [dict(r) for r in refusals]
    for k, name in sorted(choices.items()):
        if not 0 <= k < len(refusals):
            raise errors.PlayError("要选定的那处拒绝已经不存在了(原文改过?):请重新预览。")
        refusal = refusals[k]
        if name not in refusal.get("candidates", []):
            said = "、".join(refusal.get("candidates", [])) or "没有候选"
            raise errors.PlayError(f"“{name}”不是“{refusal['text']}”的候选({said}):没有选定,请重新预览。")
        if not refusal.get("input"):
            raise errors.PlayError(
                f"“{refusal['text']}”不能直接选定{name}:它不是只缺一个对象的特权(或还缺别的,如瞄准的位置),"
                "请用表单录入,或请玩家说明。"
            )
        partial = refusal["input"]
        # a privilege's target, or the vote's player (投大白兔 → 投小白兔)
        key = "target" if "use" in partial else ("change" if "change" in partial else "for")
        item = {**partial, key: name, "chosen": True}
        if chooser != "天神":
            item["chosen_by"] = refusal["chosen_by"] = chooser
        if refusal.get("span"):
            item["span"] = refusal["span"]
        inputs.append(item)
        refusal["choice"] = name
    inputs.sort(key=lambda item: (item.get("span") or [UNPLACED])[0])  # the order they were written in
    return inputs, refusals


MANIFESTO_MAX = 20_000  # characters of an edited 杀人宣言 (the transfer format's bound)


def manifesto_clean(text: str) -> str:
    """An edited 杀人宣言 as it will be published: the browser's CRLF line ends as LF, outer blank space trimmed."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def manifestos_apply(inputs: list[dict], edits: dict[int, str] | None) -> list[dict]:
    """The 天神's (or the player's) edits of the 杀人宣言 the parser took: attack at `span[0]` → the text to
    publish. The raw message is never rewritten: the item carries the edited text, marked `manifesto_edited`, with
    what the parser had taken (`manifesto_parsed`) kept beside it in the message's record. An edit equal to what the
    parser took changes nothing; an edit of something that is not an attack of this message is refused."""
    if not edits:
        return inputs
    out = [dict(i) for i in inputs]
    at = {(i.get("span") or [None])[0]: i for i in out if i.get("use") in ATTACKS}
    for key, raw in sorted(edits.items()):
        item = at.get(key)
        if item is None:
            raise errors.PlayError("要修改的杀人宣言已经不在这条消息里了(原文改过?):请重新预览。")
        if len(raw) > MANIFESTO_MAX:
            raise errors.PlayError(f"杀人宣言太长了:最多 {MANIFESTO_MAX} 字。")
        text, parsed = manifesto_clean(raw), item.get("manifesto") or ""
        if text == manifesto_clean(parsed):
            continue
        item.update(manifesto=text or None, manifesto_edited=True, manifesto_parsed=parsed)
        item.pop("manifesto_spans", None)
    return out


def manifesto_edit_records(inputs: list[dict]) -> list[dict]:
    """The edits of this message's 杀人宣言, for its record and the audit: what the parser took, what is published."""
    return [
        {"input": input_sentence(i), "parsed": i.get("manifesto_parsed", ""), "published": i.get("manifesto") or ""}
        for i in inputs
        if i.get("manifesto_edited")
    ]


def pm_context(seat: Seat, forum_at: datetime, text: str, refusals: list[dict], inputs: list[dict]) -> list[str]:
    """verdicts.message_context, and every 杀人宣言 that will be published: a confirm whose manifesto was edited after
    the preview is not what the preview showed."""
    context = verdicts.message_context(seat.player_name, forum_at, text, refusals)
    return context + [f"宣言:{' '.join((i.get('manifesto') or '').split())}" for i in inputs if i.get("use") in ATTACKS]


@dataclass(frozen=True)
class Pasted:
    """One message as pasted: who sent it, its words and forum time, how to read it (a vote post; edited on the
    forum, D3) and what was chosen in its preview — a player among a refusal's candidates (`choices`, refusal index →
    name), an edited 杀人宣言 (`manifestos`, the attack's position → the text to publish) — and who chose ("天神", or
    "玩家" on his own page)."""

    seat: Seat
    text: str
    forum_at: datetime
    vote_post: bool = False
    edited: bool = False
    choices: dict[int, str] = field(default_factory=dict)
    manifestos: dict[int, str] = field(default_factory=dict)
    chooser: str = "天神"


class Confirmed(NamedTuple):
    """What a confirm stored: the raw message, its inputs (with their verdicts) and the parser's refusals."""

    message: Message
    items: list[Item]
    refusals: list[dict]


def parse_message(
    game: Game, pasted: Pasted, *, state: rules.GameState | None = None, replay: storage.Replay | None = None
) -> tuple[list[dict], list[dict], Phase, rules.GameState, list[dict]]:
    """What the parser reads in the message, against the sender's hand now (`state`, or a replay), with the
    choices made in its preview (choices_apply, manifestos_apply), and the parser's notes (each other part of the
    text, with its reason). A caller that has replayed the game passes its `replay` (its state, open phase and
    names: no query here)."""
    if replay is not None:
        phase = next((p for p in reversed(replay.phases) if p.status == Phase.Status.OPEN), None)
        if phase is None:
            raise errors.PlayError("这局游戏现在没有进行中的时段")
        state, names = replay.state, [replay.names[n] for n in sorted(replay.names)]
    else:
        phase = storage.require_open_phase(game)
        state = state if state is not None else storage.game_replay(game).state
        names = list(game.seats.order_by("number").values_list("player_name", flat=True))
    sender = pasted.seat.player_name
    if pasted.vote_post:
        result = parse_vote(pasted.text, sender=sender, players=names)
    else:
        hand = list(state.seat(sender).names)
        result = parse_pm(pasted.text, sender=sender, players=names, hand=hand, phase=phase.kind)
    data = result.to_json()
    items = data["inputs"]
    if pasted.vote_post and pasted.edited:  # D3: the forum shows the vote post as edited ("本帖最后由 … 编辑")
        items = edited_inputs(items)
    refusals = data["refusals"]
    if pasted.choices:
        items, refusals = choices_apply(items, refusals, pasted.choices, pasted.chooser)
    if not pasted.vote_post:
        items = manifestos_apply(items, pasted.manifestos)
    return items, refusals, phase, state, data["notes"]


def pm_preview(game: Game, pasted: Pasted, *, replay: storage.Replay | None = None) -> MessagePreview:
    """What the parser understood and what each input would cost or why it would be refused — stores nothing.

    A message sent after every input already entered is judged on the state now (the engine alone). One sent earlier
    than some of them (entered out of forum order) is judged as the confirm will judge it: the confirm's write, rolled
    back — its own verdicts, and every other input whose verdict it would change (T3 target changes, AP4 shortfalls,
    N-kill counts). `replay`: the game as the caller just replayed it under its lock (read only here; the
    out-of-order preview replays for itself)."""
    seat, text, forum_at = pasted.seat, pasted.text, pasted.forum_at
    replay = replay or storage.game_replay(game)
    items, refusals, phase, state, notes = parse_message(game, pasted, state=replay.state)
    closing.check_forum_time(phase, forum_at)
    preview = MessagePreview(seat, phase, forum_at, text, refusals=refusals, notes=notes)
    if verdicts.later_inputs(replay, phase, forum_at):
        outcome = rolled_back(lambda: _message_store(base.game_lock(game), pasted).outcome)
    else:
        at = closing.minutes_into(phase, forum_at)
        engine_inputs = [codec.item_to_engine(item, by=seat.player_name, at=at) for item in items]
        judged = rules.submit_message(state, engine_inputs)[1]  # N-kill: the message is judged as one
        context = pm_context(seat, forum_at, text, refusals, items)
        outcome = verdicts.EntryOutcome(judged, what=verdicts.sentences(items, replay.names), context=context)
    preview.items = [Item(i, v.accepted, v.reason, v.cost) for i, v in zip(items, outcome.verdicts, strict=True)]
    preview.later, preview.changes, preview.digest = outcome.later, outcome.changes, outcome.digest
    mark_sender_words(preview.items, game, seat)
    return preview


def mark_sender_words(items: list[Item], game: Game, seat: Seat) -> None:
    """A 杀人宣言 is published word for word: each attack whose 宣言 names the sender (their name, or a part of it
    the name book resolves to them) carries those words, and its sentence warns before confirm (docs/parser.md)."""
    attacks = [item for item in items if item.attack and item.data.get("manifesto")]
    if not attacks:  # most messages carry no 宣言: no query for the name book
        return
    players = list(game.seats.values_list("player_name", flat=True))
    for item in attacks:
        words = sender_words(item.data["manifesto"], sender=seat.player_name, players=players)
        item.sender_words = tuple(words)


@dataclass(frozen=True)
class StoredMessage:
    """A message stored with its inputs: the raw message, each input's verdict, the refusals, and the write's
    outcome (what the 天神 confirmed, and its digest)."""

    message: Message
    items: list[Item]
    refusals: list[dict]
    outcome: verdicts.EntryOutcome


def _message_store(
    game: Game, pasted: Pasted, *, user=None, seen: str | None = None, replay: storage.Replay | None = None
) -> StoredMessage:
    """The raw message and its inputs, stored under the caller's game lock (pm_confirm, and its preview)."""
    replay = replay or storage.game_replay(game)  # the one replay of a confirm: the parser's hand, then the verdicts
    items, refusals, _, _, _ = parse_message(game, pasted, replay=replay)
    parsed = {"inputs": items, "refusals": refusals}
    if manifesto_edit_records(items):  # the raw text stays as it was; the record says the 宣言 published was edited
        parsed["manifesto_edits"] = manifesto_edit_records(items)
    seat, forum_at = pasted.seat, pasted.forum_at
    message = Message.objects.create(
        game=game,
        seat=seat,
        sender_name=seat.player_name,
        text=pasted.text,
        parsed=parsed,
        forum_at=forum_at,
        entered_by=user,
    )
    context = pm_context(seat, forum_at, pasted.text, refusals, items)
    entry = inputs.Entry(seat, items, forum_at, message=message, entered_by=user, context=context)
    written = inputs.write_locked(game, entry, seen=seen, replay=replay)  # the caller's lock and transaction
    judged = [Item(item, v.accepted, v.reason, v.cost) for item, v in zip(items, written.verdicts, strict=True)]
    return StoredMessage(message, judged, refusals, written.outcome)


@transaction.atomic
def pm_confirm(
    game: Game,
    pasted: Pasted,
    *,
    user=None,
    once: Once | None = None,
    seen: str | None = None,
    replay: storage.Replay | None = None,
    audit_detail: dict | None = None,
) -> Confirmed:
    """Store the raw message forever, then every input it produced, each linked to it (refusals included). A
    repeated or stale confirm (`once`) stores nothing; nor does one whose outcome differs from the preview the
    天神 saw (`seen`, the preview's digest: verdicts.NotAsSeen). `pasted.choices`: the choices among refusals'
    candidates, exactly as the preview applied them (choices_apply); kept in the message's record and the audit.
    `pasted.manifestos`: the 杀人宣言 as edited in the preview (manifestos_apply): published as edited, the raw text
    kept, the edit in the message's record and the audit; part of the digest, so an edit after the preview stores
    nothing. `replay`: the game replayed by the caller under this same lock, with nothing written since (else one is
    made); `audit_detail`: more for the log row (a player's own page: how it came)."""
    game = base.game_lock(game)
    spend(game, once, "录入消息")
    seat = pasted.seat
    stored = _message_store(game, pasted, user=user, seen=seen, replay=replay)
    message, refusals = stored.message, stored.refusals
    edits = message.parsed.get("manifesto_edits", [])
    detail = {
        "message": message.pk,
        "sender": seat.player_name,
        "inputs": message.parsed["inputs"],
        "refusals": refusals,
        "chosen": [
            {"text": r["text"], "choice": r["choice"], **({"by": r["chosen_by"]} if r.get("chosen_by") else {})}
            for r in refusals
            if r.get("choice")
        ],
        **({"manifesto_edits": edits} if edits else {}),
        **(audit_detail or {}),
    }
    audit.record(game, user, AuditLog.Action.MESSAGE_ENTER, detail)
    return Confirmed(message, stored.items, refusals)


@transaction.atomic
def action_entry(*, game: Game, seat: Seat, item: dict, forum_at: datetime, actor=None, once=None, seen=None):
    """The console's action form: one input in the scenario vocabulary (`seen`: see inputs.write), entered by
    `actor` and written to the audit log (the detail is the item: the audit page shows it as a sentence)."""
    entry = inputs.Entry(seat, [item], forum_at, entered_by=actor)
    rec, verdict = inputs.write(game, entry, once=once, seen=seen).first
    audit.record(game, actor, AuditLog.Action.ACTION_ENTER, {"seat": seat.player_name, **item})
    return rec, verdict


@transaction.atomic
def vote_entry(
    *,
    game: Game,
    seat: Seat,
    target: Seat | None,
    change: bool,
    edited: bool,
    forum_at: datetime,
    actor=None,
    once=None,
    seen=None,
):
    """The console's vote form: one vote post (D1–D3, inputs.vote_item), entered by `actor` and written to the audit
    log with the kind of post (original, change, edited)."""
    entry = inputs.Entry(seat, [inputs.vote_item(target, change=change, edited=edited)], forum_at, entered_by=actor)
    rec, verdict = inputs.write(game, entry, once=once, seen=seen).first
    post = "change" if change else "edited" if edited else "original"
    detail = {"seat": seat.player_name, "target": target.player_name if target else "", "post": post}
    audit.record(game, actor, AuditLog.Action.VOTE_ENTER, detail)
    return rec, verdict


def open_input(game: Game, pk: int) -> Input:
    """An input of the open phase that can still be voided; else a refusal saying why."""
    rec = Input.objects.filter(pk=pk, game=game).select_related("phase", "seat").first()
    if rec is None:
        raise errors.PlayError("没有这条输入")
    if rec.phase.status != Phase.Status.OPEN:
        raise errors.PlayError("这条输入属于已经结束的时段:请用更正功能")
    if hasattr(rec, "void"):
        raise errors.PlayError("这条输入已经作废过了")
    return rec


@transaction.atomic
def input_void(*, game: Game, pk: int, user=None, reason: str = "", once: Once | None = None) -> None:
    """Void an input of the open phase (logged, append-only: a void row); the open phase is replayed without it."""
    game = base.game_lock(game)
    spend(game, once, "作废输入")
    rec = open_input(game, pk)
    InputVoid.objects.create(input=rec, by=user, reason=reason)
    storage.replay_save(storage.game_replay(game))
    audit.record(game, user, AuditLog.Action.INPUT_VOID, {"id": pk, "reason": reason})
