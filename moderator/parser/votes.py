"""Vote posts (docs/rules.md D1, D3): {"for": X} for an original vote, {"change": X} for a change post.

The vote is the name right after a vote word (投 / 投给 / 票投 / 改投 / 改票 …); the rest of the post is the reason and
is not read for names. A 他 / 她 there is the one player the post names, written before it (the vote carries
"pronoun" for the preview); with two or more candidates, or none, it is refused naming them, as in a PM. A
conditional vote (如果…就投…, 若…则…, 投A或B) and a post that points at two players are refused: D3 says the GM asks
again. 自投 / 投自己 is a vote for the sender.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from moderator.parser import aliases as al
from moderator.parser.cues import SENTENCE_ENDS
from moderator.parser.lexer import Token
from moderator.parser.names import NameBook, Resolution, similarity
from moderator.parser.text import normalise_word

TARGETS = ("NAME", "SEAT", "SELF", "GAP")
_CHANGE_VOTE = frozenset(normalise_word(w) for w in al.CHANGE_VOTE_WORDS)
_NOT_VOTE = frozenset(normalise_word(w) for w in al.NOT_VOTE_WORDS)
NOT_VOTE = _NOT_VOTE  # 投 that casts no vote: 不投, 没投, 投了, 大家投 …
_DASHES = frozenset("—-~～")
_BRACKETS = frozenset("()[]【】《》<>\"“”'‘’「」『』")
_STRONG_CHANGE = frozenset(
    normalise_word(w)
    for w in (
        *("改票", "改投", "换票", "换投", "更改投票", "修改投票", "票改", "新票", "挪到", "挪给", "转投"),
        *("change vote to", "change my vote to", "change vote", "revote"),
    )
)
# A change word that always takes a player: what follows it is a (maybe misspelt) player, never talk
_TAKES_A_PLAYER = frozenset(normalise_word(w) for w in ("改投", "换投", "转投", "改选", "改投给", "换投给", "新票"))
# "unvote 王五, vote 赵六": the name after unvote is the old vote; unvote makes the post a change
UNVOTE = frozenset({"unvote", "un-vote"})


def is_vote_word(t: Token) -> bool:
    return t.kind in ("VOTE", "SELFVOTE") or (t.kind == "CHANGE" and (t.text in _STRONG_CHANGE or t.text in UNVOTE))


@dataclass
class VoteParse:
    inputs: list[dict]
    # ((start, end) in norm, reason[, candidates[, the vote choosing one of them gives, its player None]])
    refusals: list[tuple[tuple[int, int], str | tuple[str, list[str]] | tuple[str, list[str], dict]]]
    found: bool  # the text casts (or tries to cast) a vote
    spans: list[tuple[int, int]] = field(default_factory=list)  # (start, end) in norm of each input's words
    notes: list[tuple[tuple[int, int], str]] = field(default_factory=list)  # a vote a correction replaced


_NEGATED_VOTE = frozenset(normalise_word(w) for w in ("别投", "不投", "不要投", "没投", "不投票", "没投票"))
_NOT_OWN = frozenset({"OTHER", "REPORT", "OPINION", "NEG", "PASSIVE", "HEDGE", "PAST"})


class _Owners:
    """Whether each vote word of a sentence is the sender's own vote: not "赵六投王五", "楼上说投孙八", "大家投…"
    . One pass over the sentence, so a post of any length is read in linear time."""

    def __init__(self, sentence: list[Token], sender: str):
        n = len(sentence)
        self.report_colon = [False] * (n + 1)  # a REPORT and a ":" somewhere before i
        self.clause_start = [0] * (n + 1)  # where the clause holding i starts (after the last SEP)
        self.not_own = [-1] * (n + 1)  # the last _NOT_OWN token before i
        self.subject = [-1] * (n + 1)  # the last PRON / other player's NAME before i (not after 从)
        report = colon = False
        start, last_not_own, last_subject, prev, prev_index = 0, -1, -1, None, -1
        for i, t in enumerate(sentence):
            self.report_colon[i] = report and colon
            self.clause_start[i], self.not_own[i], self.subject[i] = start, last_not_own, last_subject
            report = report or t.kind == "REPORT"
            colon = colon or t.text == ":"
            if t.kind == "SEP":
                start = i + 1
                prev = None
            if t.kind in _NOT_OWN or t.text in _NEGATED_VOTE:
                last_not_own = i  # (别投票:阿飞 — the negation is lexed with the verb)
            if _someone_else(t, sender) and not _after_from(prev, prev_index, start):
                last_subject = i
            if t.kind != "PUNCT" and t.kind != "SEP":
                prev, prev_index = t, i
        self.sentence = sentence

    def own(self, k: int) -> bool:
        if self.report_colon[k]:
            return False  # 王五说:投孙八
        start = self.clause_start[k]
        if self.not_own[k] >= start:
            return False
        return not (self.sentence[k].kind == "VOTE" and self.subject[k] >= start)


def _someone_else(t: Token, sender: str) -> bool:
    """A pronoun or another player's name: someone who may be the one voting ("赵六投王五")."""
    return t.kind == "PRON" or (t.kind == "NAME" and t.value.name != sender)


def _after_from(prev: Token | None, prev_index: int, start: int) -> bool:
    """Whether the word before, in this clause, is 从 ("从张三改投李四": 张三 is the old vote, not a voter)."""
    return prev is not None and prev.text == "从" and prev_index >= start


def _own_words(sentence: list[Token], words: list[int], sender: str) -> tuple[list[int], list[int]]:
    """The sender's own vote words of a sentence, as (votes, unvotes)."""
    owners = _Owners(sentence, sender)
    own = [k for k in words if owners.own(k)]
    return [k for k in own if sentence[k].text not in UNVOTE], [k for k in own if sentence[k].text in UNVOTE]


def _sentences(tokens: list[Token], fixes: list[tuple[int, int]]) -> list[list[Token]]:
    """The sentences of the post; a correction marker ("投赵六,哦不对,投李四") starts one of its own."""
    out: list[list[Token]] = [[]]
    starts = {a for a, _ in fixes}
    for t in tokens:
        if t.start in starts and out[-1]:
            out.append([])
        if t.kind == "SEP" and t.text in SENTENCE_ENDS:
            if out[-1]:
                out.append([])
        else:
            out[-1].append(t)
    return [s for s in out if s]


_VOTE_KINDS = frozenset({"VOTE", "CHANGE", "SELFVOTE"})
_PASSED_OVER = frozenset(
    {"STOP", "PUNCT", "COND", "VOTE", "CHANGE", "SEP"}
)  # read past between a vote word and its names


def _other_vote_word(sentence: list[Token], j: int, marks: set[int], found: list[Token]) -> bool:
    """ "改票,原来投的李四": a vote word that is not the sender's own."""
    return sentence[j].kind in _VOTE_KINDS and j not in marks


def _reason_or_privilege(sentence: list[Token], j: int, marks: set[int], found: list[Token]) -> bool:
    """A reason word (因为…) or a privilege word."""
    return sentence[j].kind in ("REASON", "USE")


def _next_after_names(sentence: list[Token], j: int, marks: set[int], found: list[Token]) -> bool:
    """A separator or another vote word after the names."""
    return bool(found) and sentence[j].kind in ("SEP", *_VOTE_KINDS)


def _aside_after_names(sentence: list[Token], j: int, marks: set[int], found: list[Token]) -> bool:
    """ "改票:王五(原投李四)", "投王五 —— 赵六昨晚说的理由我信": a bracket, a not-a-vote word or a dash after the
    names opens an aside or a reason."""
    text = sentence[j].text
    return bool(found) and (text in _BRACKETS or text in _NOT_VOTE or text in _DASHES)


def _verb_ending_pronoun(sentence: list[Token], j: int, marks: set[int], found: list[Token]) -> bool:
    """ "票死她", "投出她": a verb's ending and a pronoun, no player's name."""
    t = sentence[j]
    short_gap = t.kind == "GAP" and len(t.text) <= 2
    return short_gap and j + 1 < len(sentence) and sentence[j + 1].kind == "PRON" and sentence[j + 1].start == t.end


# What ends the names after a vote word: the first that holds at a word ends them before it
_NAMES_END: tuple[Callable[[list[Token], int, set[int], list[Token]], bool], ...] = (
    _other_vote_word,
    _reason_or_privilege,
    _next_after_names,
    _aside_after_names,
    _verb_ending_pronoun,
)


def _targets_after(sentence: list[Token], words: list[int]) -> dict[int, list[Token]]:
    """The target tokens right after each vote word (a second one means 'A或B' / 'A和B'). Read from the last vote
    word back: a vote word whose scan reaches the next vote word with nothing found takes that word's answer, so a
    post of a thousand 投 is read in linear time."""
    out: dict[int, list[Token]] = {}
    marks = set(words)
    for k in sorted(words, reverse=True):
        out[k] = _names_after(sentence, k, marks, out)
    return out


def _names_after(sentence: list[Token], k: int, marks: set[int], out: dict[int, list[Token]]) -> list[Token]:
    """The target tokens after the vote word at k, up to the first word that ends them (`_NAMES_END`), or the
    answer of the next vote word reached with none found."""
    found: list[Token] = []
    for j in range(_description_end(sentence, k) + 1, len(sentence)):
        if not found and j in marks and j in out:
            return list(out[j])
        if any(ends(sentence, j, marks, found) for ends in _NAMES_END):
            break
        t = sentence[j]
        if t.kind in TARGETS or (t.kind == "PRON" and not found):  # 投他: a pronoun as the vote's first target
            found.append(t)
        elif found and t.kind not in _PASSED_OVER:
            break
    return found


_DESCRIPTION_OPENS, _MEASURES = frozenset({"那", "这"}), frozenset({"个", "位"})
_DESCRIPTION_WORDS = frozenset({"这位", "那位", "这个", "那个"})  # (这位 and 那位 are pronouns when alone)
_DESCRIPTION_STOPS = frozenset({"SEP", "NAME", "SEAT", "SELF", "PRON", "VOTE", "CHANGE", "SELFVOTE"})


def _description_end(sentence: list[Token], k: int) -> int:
    """ "投那个自称杀手克星的月下美人", "投这位一直划水的Kiki": a description after the vote word (那个/这位 … 的) whose
    head is the player right after its 的, naming no one itself: where it ends (its 的), else k."""
    n = len(sentence)
    two = k + 2 < n and sentence[k + 1].text in _DESCRIPTION_OPENS and sentence[k + 2].text in _MEASURES
    one = k + 1 < n and sentence[k + 1].text in _DESCRIPTION_WORDS
    start = k + 3 if two else k + 2 if one else n
    for j in range(start, n - 1):
        if sentence[j].text == "的" and sentence[j + 1].kind == "NAME":
            return j
        if sentence[j].kind in _DESCRIPTION_STOPS:
            break
    return k


_TAIL_FILL = frozenset({"一", "这", "这一", "的", "我的"})
_TRAILING = " \t,,、;;。.!!~…"


def _tail_end(sentence: list[Token], k: int) -> int:
    """Where the words of a vote for the name at sentence[k] end: after a vote word that follows it ("投王五一票",
    "投给王五这一票", "投王五的票"), else at the name."""
    for t in sentence[k + 1 : k + 4]:
        if t.kind == "VOTE" and t.text.endswith("票"):
            return t.end
        if not ((t.kind == "PUNCT" and t.text.isspace()) or (t.kind in ("GAP", "STOP") and t.text in _TAIL_FILL)):
            break
    return sentence[k].end


def read_vote_post(tokens: list[Token], book: NameBook, display, fixes: Sequence[tuple[int, int]] = ()) -> VoteParse:
    """display(start, end) gives the player's own text of a norm span; `fixes`, the (start, end) of each correction
    marker. Each sentence gives the sender's own present votes (a reported, quoted, tallied or old-of-a-change vote
    is none); the post's vote is decided once, at the end: one clear target, or a refusal naming the candidates. A
    vote written after a correction marker replaces the votes before it ("投赵六,哦不对,投李四")."""
    reader = _Reader(book, display)
    for t in tokens:
        if t.kind == "NAME" and t.value.name != book.sender:
            reader.mentions.setdefault(t.value.name, []).append(t.start)
    for sentence in _sentences(tokens, list(fixes)):
        if not reader.done:
            reader.sentence(sentence)
    if not reader.done:
        reader.corrected(list(fixes))
    return reader.decide(tokens)


Why = str | tuple[str, list[str]]


@dataclass
class _Reader:
    book: NameBook
    display: Callable[[int, int], str]
    result: VoteParse = field(default_factory=lambda: VoteParse([], [], False))
    chosen: list[tuple[str, Token, int]] = field(default_factory=list)  # (name, its token, where its words start)
    tails: dict[int, int] = field(default_factory=dict)  # where a vote's words end ("投王五一票"), by the name's start
    change: bool = False
    conditional: list[tuple[int, int]] = field(default_factory=list)
    unresolved: list[tuple[tuple[int, int], Why]] = field(default_factory=list)
    waiting: tuple[int, int] | None = None  # a vote word whose name is on the next line ("投票:\n张三")
    withdrawn: list[tuple[int, int]] = field(default_factory=list)  # "unvote" with no new vote
    stray: list[tuple[tuple[int, int], Why]] = field(default_factory=list)  # words after a vote word, no name
    mentions: dict[str, list[int]] = field(default_factory=dict)  # where each player is named, the sender aside
    correction: str | None = None  # the words of the votes a correction replaced
    starts: list[int] = field(default_factory=list)  # where each sentence read starts
    done: bool = False

    def why(self, t: Token) -> Why:
        if t.kind == "PRON":
            return _pronoun_why(self.display(t.start, t.end) or t.text, list(self.resolve(t).candidates))
        return _why(t, _resolve(t, self.book), self.book, self.display)

    def resolve(self, t: Token) -> Resolution:
        """Whom a target names; a pronoun, the one player the post names (written before it), like a PM's 他."""
        if t.kind != "PRON":
            return _resolve(t, self.book)
        latest = ((places[bisect.bisect_left(places, t.start) - 1], n) for n, places in self.mentions.items())
        before = [n for p, n in sorted(latest, reverse=True) if p < t.start]  # (each player once, latest first)
        if len(before) == 1 and len(self.mentions) == 1:
            return Resolution(before[0], "pronoun")
        return Resolution(None, "pronoun", tuple(before))

    def sentence(self, sentence: list[Token]) -> None:
        self.starts.append(sentence[0].start)
        words = _vote_words(sentence)
        if not words:
            self.bare_line(sentence)
            return
        sentence, words = _before_later_condition(sentence, words, self.book)
        span = (sentence[0].start, sentence[-1].end)
        if self.talk(sentence, words, span) or self.conditioned(sentence, words, span) or self.asked(sentence, words):
            return
        self.own_words(sentence, words, span)

    def asked(self, sentence: list[Token], words: list[int]) -> bool:
        """要不要投王五?, 投王五吗?: the clause of the vote asks, it casts no vote (said only when the post has no vote
        at all); a question in a clause of its own beside the vote (投王五,大家觉得呢?) leaves it."""
        a = max((i for i in range(words[0]) if sentence[i].kind == "SEP"), default=-1) + 1
        b = next((i for i in range(words[-1], len(sentence)) if sentence[i].kind == "SEP"), len(sentence))
        ends = b == len(sentence) and self.display(sentence[-1].end, sentence[-1].end + 1) in ("?", "？")
        if not ends and not any(t.kind == "QUESTION" for t in sentence[a:b]):
            return False
        said = self.display(sentence[a].start, sentence[b - 1].end)
        self.result.found = True
        self.stray.append(
            ((sentence[a].start, sentence[b - 1].end), f"“{said}”是个问句,没有当作投票;要投票请直接写“投 某某”")
        )
        return True

    def own_words(self, sentence: list[Token], words: list[int], span: tuple[int, int]) -> None:
        """The sender's own vote words of a sentence: an unvote makes the post a change (and alone withdraws the
        vote); the others are read for their names."""
        words, unvote = _own_words(sentence, words, self.book.sender)
        self.change = self.change or bool(unvote)
        if unvote or words:
            self.result.found = True
        if unvote and not words:
            self.withdrawn.append(span)
        if words:
            self.own_votes(sentence, words, span)
        self.waiting = span if words and not self.chosen and not self.unresolved else None

    def talk(self, sentence: list[Token], words: list[int], span: tuple[int, int]) -> bool:
        """如果王五下一楼还不解释我就改票, 下一轮还有改票机会: vote words followed by no player are talk about a later
        post, no vote (said only when the post has no vote at all)."""
        if _names_a_player(sentence, words, self.book) or any(sentence[k].text in UNVOTE for k in words):
            return False
        scanned = _targets_after(sentence, words)
        self.stray += [(span, self.why(a)) for k in words for a in scanned[k][:1]]
        return True

    def conditioned(self, sentence: list[Token], words: list[int], span: tuple[int, int]) -> bool:
        """如果…就投赵六, 投A或B: a conditional vote, refused (D3)."""
        if any(t.kind == "COND" for t in sentence) or any(t.kind == "ALT" for t in sentence[words[0] :]):
            self.result.found = True
            self.conditional.append(span)
            return True
        return False

    def bare_line(self, sentence: list[Token]) -> None:
        """A line after "投票:" that is only a name is the vote's name."""
        bare = [t for t in sentence if t.kind not in ("STOP", "PUNCT", "SEP")]
        if self.waiting and bare and bare[0].kind in TARGETS:
            r = _resolve(bare[0], self.book)
            if r.name:
                self.chosen.append((r.name, bare[0], self.waiting[0]))
            else:
                self.unresolved.append((self.waiting, self.why(bare[0])))
        self.waiting = None

    def own_votes(self, sentence: list[Token], words: list[int], span: tuple[int, int]) -> None:
        targets_after = _targets_after(sentence, words)
        changes = [k for k in words if sentence[k].kind == "CHANGE" and self.takes(sentence[k], targets_after[k])]
        self.change = self.change or bool(changes)
        last_change = changes[-1] if changes else None
        starts = [t.start for t in sentence]
        for k in words:
            t = sentence[k]
            if t.kind == "SELFVOTE":
                self.chosen.append((self.book.sender, t, t.start))
            elif last_change is None or k >= last_change:  # 从张三改投李四: the name before the change is the old vote
                self.vote_word(sentence, starts, t, targets_after[k], span)
            if self.done:
                return

    def takes(self, word: Token, after: list[Token]) -> bool:
        """A change word followed by what is, or may be, a player."""
        return bool(after) and (
            word.text in _TAKES_A_PLAYER or any(_name_like(a, _resolve(a, self.book), self.book) for a in after)
        )

    def vote_word(
        self, sentence: list[Token], starts: list[int], t: Token, after: list[Token], span: tuple[int, int]
    ) -> None:
        names: list[tuple[str, Token]] = []  # (the canonical name, its token)
        for a in after:
            r = self.resolve(a)
            if r.name:
                names.append((r.name, a))
            elif a.kind != "GAP" or not names:
                player = t.text in _TAKES_A_PLAYER or _name_like(a, r, self.book)
                (self.unresolved if player else self.stray).append((span, self.why(a)))  # 投笔从戎: no veto
        if len({n for n, _ in names}) > 1:
            said = "、".join(dict.fromkeys(n for n, _ in names))
            self.result.refusals.append((span, f"投票只能明确投一个人,这里写了{said}(D3)"))
            self.done = True
        elif names:
            self.chosen.append((names[0][0], names[0][1], t.start))
            self.tails[names[0][1].start] = _tail_end(sentence, bisect.bisect_left(starts, names[0][1].start))

    def corrected(self, fixes: list[tuple[int, int]]) -> None:
        """The votes written before the last correction marker that has a vote of the sender's after it are
        replaced by it: not counted, one note (the preview says which words the correction replaced)."""
        at = self.last_fix(fixes)
        words = [] if at is None else self.words_before(at)
        if at is None or not words:
            return
        start = min(a for a, _ in words)
        start = max((a for a in self.starts if a <= start), default=start)  # 这票投赵六: from its sentence's start
        end = min(max(b for _, b in words), at)
        self.correction = self.display(start, end).rstrip(_TRAILING)
        self.result.notes.append(((start, end), f"“{self.correction}”被后面的更正取代,没有录入"))
        self.chosen = [c for c in self.chosen if c[2] >= at]
        self.unresolved = [u for u in self.unresolved if u[0][0] >= at]
        self.stray = [u for u in self.stray if u[0][0] >= at]

    def last_fix(self, fixes: list[tuple[int, int]]) -> int | None:
        """Where the last correction marker with a vote of the sender's after it starts."""
        last = max((c[2] for c in self.chosen), default=-1)
        return max((a for a, b in fixes if b <= last), default=None)

    def words_before(self, at: int) -> list[tuple[int, int]]:
        """The words of each vote (or vote word's unread name) written before `at`."""
        old = [(c[2], self.tails.get(c[1].start, c[1].end)) for c in self.chosen if c[2] < at]
        return old + [u[0] for u in (*self.unresolved, *self.stray) if u[0][0] < at]

    def decide(self, tokens: list[Token]) -> VoteParse:
        result = self.result
        if self.done:
            return result
        if self.conditional:
            for span in self.conditional:
                result.refusals.append((span, "投票不能附条件(D3):天神会要求重新投票;请只写一个投票对象,如“投 某某”"))
            return result
        targets = list(dict.fromkeys(name for name, _, _ in self.chosen))
        if not targets and not self.unresolved and self.stray:
            self.unresolved += self.stray  # with no vote read, say what the vote word was followed by
            result.found = True
        if targets and (self.unresolved or len(targets) > 1):
            self.refuse_many(targets)
        elif targets:
            self.accept(targets[0])
        else:
            self.refuse_unclear(tokens)
        return result

    def accept(self, target: str) -> None:
        """The post's one vote (or change of vote), spanning the words of every mention of its player."""
        vote = {"change": target} if self.change else {"for": target}
        pronoun = next((c[1] for c in self.chosen if c[1].kind == "PRON"), None)
        if pronoun is not None:  # 赵六太可疑了,投他: the preview says whom the pronoun was read as
            vote["pronoun"] = self.display(pronoun.start, pronoun.end) or pronoun.text
        if self.correction:  # 投赵六,哦不对,投李四: the preview says which words the correction replaced
            vote["correction"] = self.correction
        self.result.inputs.append(vote)
        ends = (self.tails.get(c[1].start, c[1].end) for c in self.chosen)
        self.result.spans.append((min(c[2] for c in self.chosen), max(ends)))

    def refuse_many(self, targets: list[str]) -> None:
        first, last = self.chosen[0][1], self.chosen[-1][1]
        if not self.unresolved:
            why = f"这条投票指向了好几个人:{'、'.join(targets)};投票只能明确投一个人(D3)"
            self.result.refusals.append(((first.start, last.end), why))
            return
        (u_start, u_end), said = self.unresolved[0]  # 投王五。改投大白兔: never read as a change to 王五
        reason = said[0] if isinstance(said, tuple) else said
        self.result.refusals.append(
            (
                (min(first.start, u_start), max(last.end, u_end)),
                f"这条投票写了{'、'.join(targets)},又写了另一个对象:{reason}。投票只能明确投一个人(D3)",
            )
        )

    def refuse_unclear(self, tokens: list[Token]) -> None:
        result = self.result
        if self.unresolved:
            span, why = self.unresolved[0]
            if isinstance(why, tuple):  # 投大白兔: the 天神's one-click choice of 小白兔 gives this vote
                reason, candidates = why
                result.refusals.append((span, (reason, candidates, {"change": None} if self.change else {"for": None})))
            else:
                result.refusals.append((span, why))
        elif self.withdrawn:
            why = "“unvote”(撤票)不是投票:票只能改投给另一个人(D3);请写“改投 某某”(change vote to …)"
            result.refusals.append((self.withdrawn[0], why))
        elif result.found:
            span = (min(t.start for t in tokens), max(t.end for t in tokens))
            result.refusals.append((span, "没看出投给谁;请写“投 某某”(改票写“改投 某某”)"))


def _vote_words(sentence: list[Token]) -> list[int]:
    """The vote words of a sentence, and its change words when it has a vote word that is no 自投."""
    words = [i for i, t in enumerate(sentence) if is_vote_word(t)]
    if words and any(sentence[i].kind != "SELFVOTE" for i in words):
        words = sorted({*words, *(i for i, t in enumerate(sentence) if t.kind == "CHANGE")})
    return words


def _before_later_condition(sentence: list[Token], words: list[int], book: NameBook) -> tuple[list[Token], list[int]]:
    """ "投王五,如果下一楼孙八还不解释我就改票": a condition written after the post's own vote, in a clause of its own,
    is about a later post (D3: a change is a new post): the vote stands, the clause is talk. A condition before the
    vote ("如果…就投赵六") is left in place: that vote is conditional."""
    cond = next((i for i, t in enumerate(sentence) if t.kind == "COND"), None)
    if cond is None or not words or words[0] > cond:
        return sentence, words
    cut = max((i for i in range(words[0], cond) if sentence[i].kind == "SEP"), default=None)
    if cut is None:
        return sentence, words
    if not _names_a_player_exactly(sentence[words[0] : cut], book):
        return sentence, words
    return sentence[:cut], [k for k in words if k < cut]


def _names_a_player_exactly(tokens: list[Token], book: NameBook) -> bool:
    """Whether the tokens hold a player's name, seat or the sender (not a gap that may be one)."""
    return any(t.kind in ("NAME", "SEAT", "SELF") and _resolve(t, book).name is not None for t in tokens)


def _names_a_player(sentence: list[Token], words: list[int], book: NameBook) -> bool:
    """Whether the sentence's vote words are followed by anything that is, or may be, a player: after 改投 (a verb
    that always takes a player) any word is one."""
    after = _targets_after(sentence, words)
    return any(
        sentence[k].kind == "SELFVOTE"
        or (sentence[k].text in _TAKES_A_PLAYER and after[k])
        or any(_name_like(t, _resolve(t, book), book) for t in after[k])
        for k in words
    )


def _name_like(t: Token, r: Resolution, book: NameBook) -> bool:
    """A target that is a player, or that may be a misspelt one (投大白兔 for 小白兔), not chatter (投笔从戎)."""
    if r.name or t.kind != "GAP" or r.candidates:
        return True
    frag = normalise_word(t.text)
    return any(similarity(frag, key) >= 0.34 for key in book.norm)


def _resolve(t: Token, book: NameBook) -> Resolution:
    if t.kind == "NAME":
        return t.value
    if t.kind == "SEAT":
        return book.seat(t.value)
    if t.kind == "SELF":
        return Resolution(book.sender, "self")
    return book.resolve(t.text)


def _pronoun_why(said: str, who: list[str]) -> Why:
    """A pronoun after a vote word that does not name one player: the players named before it, latest first."""
    if not who:
        return f"“{said}”指的是谁?请写名字(如“投 某某”)"
    return f"“{said}”指的是谁?前面提到的是:{'、'.join(who)};请写名字(如“投 {who[0]}”),或由天神确认", who


def _why(t: Token, r: Resolution, book: NameBook, display) -> str | tuple[str, list[str]]:
    """Why a name after a vote word is no player, with the players it may mean (the same rules and candidates as
    the PM reader: 投大白兔 is no vote for 小白兔)."""
    if t.kind == "SEAT":
        return f"没有{t.value}号玩家;座位是1到{len(book.players)}号"
    why = book.refusal(display(t.start, t.end) or t.text, r)
    return (why, list(r.candidates)) if r.candidates else why
