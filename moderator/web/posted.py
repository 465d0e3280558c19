"""What a PM's preview form carries back to its confirm: the 天神's (or the player's) choices among a refusal's
candidates and the edited 杀人宣言. Read from the POST defensively: only ever what the preview put there."""

from __future__ import annotations

from moderator.services import verdicts


def manifesto_edits(post, text: str | None = None) -> dict[int, str]:
    """The 杀人宣言 as edited in the preview ("manifesto-<where the attack was written>"). Only the boxes the preview
    showed, and only for the text it showed (`text`: the pasted text now; a new paste drops them); the service refuses
    one that is no longer an attack of the message."""
    if text is not None and post.get("manifesto_text") != verdicts.text_key(text):
        return {}
    edits: dict[int, str] = {}
    for name in post:
        k = name.removeprefix("manifesto-")
        if name.startswith("manifesto-") and k.isascii() and k.isdigit() and len(k) < 7:
            edits[int(k)] = post.get(name, "")
    return edits


def refusal_choices(post) -> dict[int, str]:
    """The choices among refusals' candidates the form carries ("k:name" for refusal k), with the candidate just
    clicked (pick) or the choice just withdrawn (unpick). Only ever what a click put there."""
    chosen: dict[int, str] = {}
    for raw in [*post.getlist("chosen"), *post.getlist("pick")]:
        k, sep, name = raw.partition(":")
        if sep and k.isascii() and k.isdigit() and len(k) < 6 and name.strip():
            chosen[int(k)] = name.strip()[:100]
    unpick = post.get("unpick", "")
    if unpick.isascii() and unpick.isdigit() and len(unpick) < 6:
        chosen.pop(int(unpick), None)
    return chosen
