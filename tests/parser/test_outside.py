"""Messages written by people outside the parser's authors (outside/set1.yaml, outside/set2.yaml: the contract's
corpus, docs/parser.md), each run through `manage.py parse_pm --players … --hand …` exactly as the corpus's own
runner does, and compared with the inputs the contract gives them: as a multiset, without the 杀人宣言's exact span
or the pronoun note; an explicit pass is dropped on both sides; `refused: true` wants a refusal; `or_refused_naming`
also accepts no input and a refusal naming that one candidate."""

from __future__ import annotations

import json
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command

HERE = Path(__file__).parent / "outside"
IGNORED = {"manifesto", "pronoun"}


def _load() -> list[tuple[str, dict, dict]]:
    out = []
    for name in ("set1.yaml", "set2.yaml"):
        spec = yaml.safe_load((HERE / name).read_text(encoding="utf-8"))
        for i, case in enumerate(spec["cases"], 1):
            out.append((f"{name[:-5]}-{i:03d}", spec, case))
    return out


CASES = _load()


def _key(d: dict) -> str:
    return json.dumps({k: v for k, v in sorted(d.items()) if k not in IGNORED}, ensure_ascii=False, sort_keys=True)


def _acts(inputs: list[dict]) -> list[dict]:
    return [x for x in inputs if x != {"pass": True}]


def parse_pm_command(spec: dict, case: dict) -> dict:
    out = StringIO()
    call_command(
        "parse_pm",
        case["text"],
        players=",".join(spec["players"]),
        sender=case["sender"],
        hand=",".join(spec["hands"][case["hand"]]),
        phase=case.get("phase", "night"),
        stdout=out,
    )
    return json.loads(out.getvalue())


def test_the_copy_holds_all_137_outside_messages():
    assert len(CASES) == 137


@pytest.mark.parametrize("spec,case", [(s, c) for _, s, c in CASES], ids=[i for i, _, _ in CASES])
def test_an_outside_message_gives_the_contracts_inputs(spec, case):
    got_json = parse_pm_command(spec, case)
    got = Counter(_key(x) for x in _acts(got_json["inputs"]))
    want = Counter(_key(x) for x in _acts(case["inputs"]))
    alt = case.get("or_refused_naming")
    if alt and not got and any(alt in r["reason"] for r in got_json["refusals"]):
        got = want
    assert got == want, (case["text"], got_json)
    if case.get("refused"):
        assert got_json["refusals"], (case["text"], got_json)
