"""Player-name resolution: exact, then a unique prefix or part (2+ characters), then fuzzy.

Both the text and the players' forum IDs are normalised the same way (简体 via OpenCC, NFKC, casefold), so a 繁體
name written in 简体 (or the other way round) and a full-width name still match exactly. A fuzzy match needs a
similarity of at least `FUZZY_THRESHOLD` (1 − edit distance / length) and a clear lead over the next name; below
that the parser refuses and lists the closest names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .text import normalise_word

FUZZY_THRESHOLD = 0.7  # 月下独酒 → 月下独酌 (0.75); 大白兔 is not 小白兔 (0.67): refused with candidates
FUZZY_MARGIN = 0.2


def _is_word_char(c: str) -> bool:
    return c.isascii() and c.isalnum()


def edit_distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance (a swap of two neighbours costs 1)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def similarity(a: str, b: str) -> float:
    if not a or not b:
        return 0.0
    return 1.0 - edit_distance(a, b) / max(len(a), len(b))


@dataclass(frozen=True)
class Resolution:
    name: str | None  # the canonical name, or None
    how: str  # exact | prefix | part | fuzzy | seat | self | none | ambiguous
    candidates: tuple[str, ...] = ()


class NameBook:
    """The players of a game, as the parser looks them up."""

    def __init__(self, players: Sequence[str], sender: str):
        seen: dict[str, None] = {}
        for p in players:
            if isinstance(p, str) and p.strip():
                seen.setdefault(p.strip(), None)
        self.players: tuple[str, ...] = tuple(seen)
        self.norm: dict[str, tuple[str, ...]] = {}
        for p in self.players:
            key = normalise_word(p)
            if key:
                self.norm[key] = (*self.norm.get(key, ()), p)
        self.by_first: dict[str, list[str]] = {}
        for key in sorted(self.norm, key=len, reverse=True):
            self.by_first.setdefault(key[0], []).append(key)
        self._resolved: dict[str, Resolution] = {}
        sender_hits = self.norm.get(normalise_word(sender or ""), ())
        self.sender = sender_hits[0] if len(sender_hits) == 1 else (sender or "").strip()

    # ------------------------------------------------------------------ exact mentions inside a text
    def match_at(self, norm: str, i: int) -> tuple[int, str] | None:
        """The longest player name written at norm[i:], as (length, normalised key)."""
        for key in self.by_first.get(norm[i], ()):
            if norm.startswith(key, i):
                end = i + len(key)
                if _is_word_char(key[0]) and i > 0 and _is_word_char(norm[i - 1]):
                    continue
                if _is_word_char(key[-1]) and end < len(norm) and _is_word_char(norm[end]):
                    continue
                return len(key), key
        return None

    def canonical(self, key: str) -> Resolution:
        names = self.norm.get(key, ())
        if len(names) == 1:
            return Resolution(names[0], "exact")
        return Resolution(None, "ambiguous", names)

    def seat(self, n: int) -> Resolution:
        if 1 <= n <= len(self.players):
            return Resolution(self.players[n - 1], "seat")
        return Resolution(None, "none", ())

    # ------------------------------------------------------------------ a fragment that should be one name
    def resolve(self, fragment: str) -> Resolution:
        """Which player a fragment names; each fragment is looked up once (a post may repeat it thousands of
        times)."""
        found = self._resolved.get(fragment)
        if found is None:
            found = self._resolved[fragment] = self._resolve(fragment)
        return found

    def _resolve(self, fragment: str) -> Resolution:
        """Which player a fragment names: exactly, as written without its spaces, by a unique prefix or part, or
        fuzzily; else none, with the closest names."""
        frag = normalise_word(fragment)
        if not frag:
            return Resolution(None, "none")
        for look_up in (self._exact, self._unspaced, self._prefix_or_part):
            found = look_up(frag)
            if found is not None:
                return found
        return self._nearest(frag)

    def _exact(self, frag: str) -> Resolution | None:
        return self.canonical(frag) if frag in self.norm else None

    def _unspaced(self, frag: str) -> Resolution | None:
        """The name the fragment is once spaces are left out of both ("阿 飞" for 阿飞)."""
        squeezed = {k.replace(" ", ""): k for k in self.norm}
        key = squeezed.get(frag.replace(" ", ""))
        return self.canonical(key) if key is not None else None

    def _prefix_or_part(self, frag: str) -> Resolution | None:
        """The one player whose name starts with the fragment (several: ambiguous), else the one whose name holds
        it; one character is too little to pick a player by."""
        if len(frag) < 2:
            return None
        prefixed = [k for k in self.norm if k.startswith(frag)]
        if len(prefixed) == 1:
            return self._prefix(frag, prefixed[0])
        if len(prefixed) > 1:
            return Resolution(None, "ambiguous", tuple(n for k in prefixed for n in self.norm[k]))
        parts = [k for k in self.norm if frag in k]
        if len(parts) == 1:
            return Resolution(self.canonical(parts[0]).name, "part", tuple(self.norm[parts[0]]))
        return None

    def _nearest(self, frag: str) -> Resolution:
        """A fuzzy match of one player with a clear lead (`FUZZY_THRESHOLD`, `FUZZY_MARGIN`), else none, with the
        three closest names."""
        scored = sorted(((similarity(frag, k), k) for k in self.norm), key=lambda sk: (-sk[0], sk[1]))
        if scored:
            best, key = scored[0]
            second = scored[1][0] if len(scored) > 1 else 0.0
            if best >= FUZZY_THRESHOLD and best - second >= FUZZY_MARGIN and len(self.norm[key]) == 1:
                return Resolution(self.norm[key][0], "fuzzy", (self.norm[key][0],))
        close = [self.norm[k][0] for s, k in scored if s > 0][:3]
        return Resolution(None, "none", tuple(close))

    def _prefix(self, frag: str, key: str) -> Resolution:
        """A prefix of one player, unless another player's whole name is as near (one character off 阿强 as 阿飞 is
        from 阿飞龙): then it is refused naming both (docs/parser.md, near names)."""
        one_short = len(key) - len(frag) == 1
        rivals = [
            k for k in self.norm if one_short and k != key and abs(len(k) - len(frag)) <= 1 and edits(frag, k) == 1
        ]
        if rivals:
            return Resolution(None, "ambiguous", tuple(n for k in (key, *rivals) for n in self.norm[k]))
        return Resolution(self.canonical(key).name, "prefix", tuple(self.norm[key]))

    def refusal(self, fragment: str, res: Resolution) -> str:
        """Why a fragment is not a player, as the parser's refusals say it (docs/parser.md)."""
        shown = fragment.strip()
        if res.how == "ambiguous" and res.candidates:
            return f"“{shown}”可能是好几个玩家:{'、'.join(res.candidates)};请写得更完整,或由天神确认"
        if not self.players:
            return f"没有叫“{shown}”的玩家;这局的玩家名单是空的"
        if res.candidates:
            return f"没有叫“{shown}”的玩家;最接近的是:{'、'.join(res.candidates)}"
        return f"没有叫“{shown}”的玩家;玩家有:{'、'.join(self.players)}"


def edits(a: str, b: str) -> int:
    """The Levenshtein distance of two short names."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
