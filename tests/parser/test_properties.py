"""Properties of the PM parser over messages composed from mentions and cue words (tests/parser/compose.py): what
must hold whatever the words around an act are. Each cites the ruling of the parser contract (PARSER.md, "Rulings
on shapes players write") it follows. Hypothesis draws the parts; `derandomize=True` makes every run draw the same
examples, so CI is deterministic, and the bounds keep the file to seconds."""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.parser import compose
from tests.parser.compose import FORMS, Context, Message, Piece

# PARSER_PROPERTY_EXAMPLES=2000 for a deeper search by hand; CI draws the same 120 examples every run.
BOUNDED = settings(
    max_examples=int(os.environ.get("PARSER_PROPERTY_EXAMPLES", "120")),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# The cue words each property draws from (every form of tests/parser/compose.py unless said here).
LOCALITY_FORMS: dict[str, tuple[str, ...]] = dict(FORMS)
CLAUSE_FORMS: dict[str, tuple[str, ...]] = dict(FORMS)
REPAIR_FORMS: dict[str, tuple[str, ...]] = dict(FORMS)
# The kinds of mention as near to two players as to one (the margin property).
NEAR = ("one character off both", "a prefix of one, one character off the other")


def _without(forms: dict[str, tuple[str, ...]], family: str, *left_out: str) -> None:
    """Leave forms out of a family (of one phase only: "tally@day")."""
    drawn = forms.get(family, forms[family.split("@")[0]])
    assert set(left_out) <= set(drawn), left_out
    forms[family] = tuple(f for f in drawn if f not in left_out)


# A form the parser does not read yet is left out of the draws here (`_without(CLAUSE_FORMS, "tally", …)`, with the
# ruling it breaks), so that each property guards what it does read.


def inputs(got: dict) -> Counter:
    return Counter(compose.key(i) for i in got["inputs"])


@st.composite
def contexts(draw, forms: dict[str, tuple[str, ...]]) -> Context:
    ctx = compose.draw_context(draw(st.randoms(use_true_random=False)))
    ctx.forms = forms
    return ctx


def _pieces(draw, ctx: Context, families: list[str], k: tuple[int, int]) -> list[Piece]:
    names = draw(st.lists(st.sampled_from(families), min_size=k[0], max_size=k[1]))
    return [p for p in (compose.piece(ctx, name) for name in names) if p is not None]


@st.composite
def acts_then_talk(draw):
    """Present acts of the sender's (plain, with a reason, a change frame), then one sentence with no act of the
    sender's in the present: a condition, a past account, reported speech, a quote, a question, words to the 天神, a
    tally, chatter."""
    ctx = draw(contexts(LOCALITY_FORMS))
    base = _pieces(draw, ctx, ["act", "reason", "change"], (1, 2))
    talk = compose.piece(ctx, draw(st.sampled_from(list(compose.NO_ACT))))
    if not base or talk is None:
        base = [compose.address(ctx)] if not base else base
    joints = tuple(compose.joint_after(ctx.rnd, p) for p in base[:-1])
    message = Message(tuple(base), joints, ctx.hand, ctx.phase)
    ending = "\n" if talk is not None and talk.text.startswith("\n") else draw(st.sampled_from(["。", "\n"]))
    return message, ending, talk


@given(acts_then_talk())
@BOUNDED
def test_it_never_removes_or_changes_an_input_when_a_sentence_with_no_act_of_the_senders_follows(drawn):
    """Locality: "one stray word never decides a whole post" — a reason, a quote, a condition about a later post, a
    tally, reported or hypothetical speech leaves the post's own act as it is (it may add a note or a refusal of its
    own part); "a tally or report of other players' votes is not the sender's vote"."""
    message, ending, talk = drawn
    if talk is None:
        return
    before = compose.parse(message)
    text = message.text + ending + talk.text.strip("\n")
    after = compose.parse(text, hand=message.hand, phase=message.phase)
    assert inputs(after) == inputs(before), (message.text, talk.family, text, before["inputs"], after["inputs"])


@st.composite
def independent_clauses(draw):
    """Two to four pieces (acts, a repair first, talk), joined where a clause is closed."""
    ctx = draw(contexts(CLAUSE_FORMS))
    pieces: list[Piece] = []
    if draw(st.booleans()):
        pieces += _pieces(draw, ctx, sorted(compose.REPAIRS), (1, 1))
    pieces += _pieces(draw, ctx, ["act", "reason", "change", "address", "tally", "chatter"], (2 - len(pieces), 3))
    return ctx, pieces


@given(independent_clauses())
@BOUNDED
def test_it_reads_the_same_inputs_whether_independent_clauses_are_joined_by_a_comma_or_a_full_stop(drawn):
    """Punctuation: a clause is read by its words, not by the mark after it — "a clause that carries an action word
    … is never silently dropped or absorbed" whichever mark joins it, and an act after a comma is not part of the
    clause before it."""
    ctx, pieces = drawn
    if len(pieces) < 2:
        return
    comma = Message(tuple(pieces), tuple("。" if p.open_end else "," for p in pieces[:-1]), ctx.hand, ctx.phase)
    stop = Message(tuple(pieces), ("。",) * (len(pieces) - 1), ctx.hand, ctx.phase)
    with_comma, with_stop = compose.parse(comma), compose.parse(stop)
    assert inputs(with_comma) == inputs(with_stop), (comma.text, stop.text, with_comma["inputs"], with_stop["inputs"])
    assert bool(with_comma["refusals"]) == bool(with_stop["refusals"]), (comma.text, stop.text)


@st.composite
def repaired(draw, families: tuple[str, ...] = ("negation", "cancel", "cancel-replace", "retraction",
                                                "correction", "counterfactual")):  # fmt: skip
    """A repair of an act (a negation, a cancel, a retraction, a counterfactual, a correction), alone or followed
    by other acts and talk."""
    ctx = draw(contexts(REPAIR_FORMS))
    first = compose.piece(ctx, draw(st.sampled_from(families)))
    rest = _pieces(draw, ctx, ["act", "address", "chatter"], (0, 2))
    pieces = [first, *rest] if first is not None else rest
    if not pieces:
        pieces = [compose.address(ctx)]
    joints = tuple(compose.joint_after(ctx.rnd, p) for p in pieces[:-1])
    return Message(tuple(pieces), joints, ctx.hand, ctx.phase)


@given(repaired())
@BOUNDED
def test_it_never_gives_a_cancelled_retracted_counterfactual_or_corrected_act_silently(message):
    """Repair safety: "a cancel or retraction inside one message: the cancelled act is not an input; what replaces
    it is"; "counterfactuals and regrets are not inputs, like any hypothetical"; "self-correction: the corrected
    reading counts and the first is dropped … where it is not clear which is corrected, refuse". So the original
    act is an input only beside a refusal the 天神 sees."""
    got = compose.parse(message)
    read = inputs(got)
    want = Counter(compose.key(i) for i in message.inputs)
    for piece in message.pieces:
        for item in piece.repaired:
            k = compose.key(item)
            if read[k] > want[k]:
                assert got["refusals"], (message.text, piece.family, got["inputs"])


# ------------------------------------------------------------------------------------------------ margin
FIRST = "阿小大老"
SECOND = "飞强龙虎明红丽华军"


@st.composite
def near_two(draw):
    """Two players and a mention as near to each as to the other: one character off both (阿龙 between 阿飞 and
    阿强), or a prefix of one that is one character off the other (阿飞 between 阿飞龙 and 阿强)."""
    head = draw(st.sampled_from(FIRST))
    a, b, c = draw(st.permutations(SECOND))[:3]
    kind = draw(st.sampled_from(NEAR))
    if kind == NEAR[0]:
        pair, written = (head + a, head + b), head + c
    else:
        pair, written = (head + a + c, head + b), head + a
    phase = draw(st.sampled_from(compose.PHASES))
    if phase != "night":
        text = draw(st.sampled_from(["投{m}", "我投{m}", "票给{m}", "改投{m}"]))
        hand: tuple[str, ...] = ("庶民",) * 5
    else:
        text = draw(st.sampled_from(["束魂{m}", "今晚束魂{m}", "用束魂牌束魂{m}", "治疗{m}"]))
        hand = ("束魂", "巫医", "庶民", "庶民", "庶民")
    players = (*compose.MIXED_NAMES[:5], *pair)
    return text.replace("{m}", written), pair, players, hand, phase


@given(near_two())
@BOUNDED
def test_it_refuses_a_mention_as_close_to_two_players_as_to_one_naming_both(drawn):
    """Margin: "a name as close to two players as to one (one character off each) is refused naming both; a prefix
    match never wins over an equally near whole name"."""
    text, pair, players, hand, phase = drawn
    got = compose.parse(text, hand=hand, phase=phase, players=players)
    chosen = [i for i in got["inputs"] if {i.get("target"), i.get("for"), i.get("change")} & set(pair)]
    assert not chosen, (text, players, got["inputs"])
    named = [r for r in got["refusals"] if all(p in r["reason"] or p in r.get("candidates", ()) for p in pair)]
    assert named, (text, players, got["refusals"])


def test_it_composes_the_same_messages_from_the_same_seed_with_every_cue_family():
    """The composed messages are reproducible from their seed (bench.parser --generated N --seed S prints it), and
    over a few hundred of them every family of parts appears."""
    first = [compose.compose(random.Random(7)).text for _ in range(3)]
    assert first == [compose.compose(random.Random(7)).text for _ in range(3)]
    rnd = random.Random(36)
    seen = {f for _ in range(600) for f in compose.compose(rnd).families}
    assert seen >= set(compose.FAMILIES), set(compose.FAMILIES) - seen
