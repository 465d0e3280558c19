"""The cues of cues.yaml applied to what a message was read as: an act in a counterfactual's scope is not an input,
and an act a retraction withdraws is not one either (docs/parser.md, rulings on cancels and counterfactuals). Each
removal leaves a note (or, where it is unclear which act is withdrawn, a refusal naming them), never a silent drop.
"""

from __future__ import annotations

from typing import Protocol

from . import cues

FORWARD = frozenset({"counterfactual"})
BACKWARD = frozenset({"retraction"})


class Reading(Protocol):
    inputs: list[tuple[int, dict]]
    notes: list[tuple[int, int, str]]

    def refuse(self, start: int, end: int, reason: str | tuple) -> None: ...

    @property
    def text(self): ...


def _acts(m: Reading) -> list[tuple[int, dict]]:
    """The inputs that are acts a cue can reach: privileges and votes, not a discard order or a stance."""
    return [(p, d) for p, d in m.inputs if d.get("_span") and ("use" in d or "for" in d or "change" in d)]


def _said(m: Reading, d: dict) -> str:
    return m.text.fragment(*d["_span"])


def apply_cues(m: Reading) -> None:
    norm = m.text.norm
    gone = [d for _, d in _acts(m)]
    for hit in cues.find_cues(norm, FORWARD):
        end = cues.forward_end(norm, hit)
        for p, d in _acts(m):
            if hit.start <= d["_span"][0] < end:
                m.inputs.remove((p, d))
                m.notes.append((hit.start, max(end, d["_span"][1]), f"“{_said(m, d)}”是假设或事后的话,没有当作指令"))
    for hit in cues.find_cues(norm, frozenset({"tally"})):
        _tally(m, hit)
    for hit in cues.find_cues(norm, BACKWARD):
        _retract(m, hit)
    kept = [d for _, d in _acts(m)]
    _fold_changes(m, [d for d in gone if not any(d is k for k in kept)])


def _same_act(a: dict, b: dict) -> bool:
    return a.get("use") == b.get("use") and a.get("card") == b.get("card")


def _fold_changes(m: Reading, withdrawn: list[dict]) -> None:
    """A change of target whose act is written earlier in the same message (治疗A 等下 改成B, 束魂A。算了,A改给B) is
    that act corrected: the new target is the input, with no change of an earlier message's action (T3)."""
    for _, d in _acts(m):
        if not d.get("change") or "use" not in d:
            continue
        before = [(q, e) for q, e in _acts(m) if e is not d and _corrected_by(e, d)]
        earlier = [e for e in withdrawn if _corrected_by(e, d)]
        if len(before) == 1 or (not before and earlier):
            _fold(m, d, before, earlier)


def _corrected_by(e: dict, d: dict) -> bool:
    """Whether e is the same act as the change d, written before it."""
    return e["_span"][1] <= d["_span"][0] and _same_act(e, d)


def _fold(m: Reading, d: dict, before: list[tuple[int, dict]], earlier: list[dict]) -> None:
    """The change d takes the place of the one act written before it (which leaves a note); it stays a change of
    an earlier message's act only when that act was itself one (刚才的A改给B。不对,改给C)."""
    still = any(e.get("change") for e in [*(e for _, e in before), *earlier])
    if before:
        (q, e) = before[0]
        m.inputs.remove((q, e))
        m.notes.append((*e["_span"], f"“{_said(m, e)}”被后面改的目标取代,没有录入"))
    if not still:
        del d["change"]


def _tally(m: Reading, hit: cues.Hit) -> None:
    """阿飞、王五各一票: others' votes counted, not a vote, and the names in it are no privilege's targets."""
    norm = m.text.norm
    clause, b = cues.clause_start(norm, hit.start), cues.forward_end(norm, hit)
    for p, d in _acts(m):
        s, e = d["_span"]
        if ("use" not in d and clause <= s < b) or ("use" in d and s < clause < e):
            m.inputs.remove((p, d))
            m.notes.append((clause, b, cues.TALLY_NOTE.format(m.text.fragment(clause, b))))


def _retract(m: Reading, hit: cues.Hit) -> None:
    norm = m.text.norm
    start = cues.backward_start(norm, hit)
    said = norm[hit.start : hit.end]
    window = [(p, d) for p, d in _acts(m) if start <= d["_span"][0] and d["_span"][1] <= hit.start]
    named = [(p, d) for p, d in window if d.get("use") and d["use"] in said]  # 不束魂了: the 束魂
    window = named or window
    if not window:
        return
    if len(window) == 1:
        (p, d) = window[0]
        m.inputs.remove((p, d))
        m.notes.append((d["_span"][0], hit.end, f"“{_said(m, d)}”被后面的“{said}”取消了,没有录入"))
        return
    for item in window:
        m.inputs.remove(item)
    both = "、".join(f"“{_said(m, d)}”" for _, d in window)
    m.refuse(
        window[0][1]["_span"][0],
        hit.end,
        f"“{said}”取消的是{both}中的哪一个不清楚;都没有录入,请问清楚后选定或用表单录入",
    )
