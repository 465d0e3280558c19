"""Determinism: the same game gives the same snapshots and results, byte for byte, whatever Python's string hashing
(PYTHONHASHSEED changes a set's order from one process to the next). A snapshot stored by one worker and compared
or replayed by another must not differ by the order of a dict built from a set (the day's tally was: D1, D4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import hashlib, json
from bench.simulate import play_game, replay
from moderator.rules import codec
digest = hashlib.sha256()
for seed in range(4):
    game = play_game(seed)
    played = replay(game.specs, game.logs)
    for state, result in zip(played.closed, played.results, strict=True):
        digest.update(codec.state_dump(state).encode())
        digest.update(codec.state_dump(result).encode())
print(digest.hexdigest())
"""


def _digest(hashseed: str) -> str:
    env = {"PYTHONHASHSEED": hashseed, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_four_games_give_the_same_snapshots_and_tallies_under_two_hash_seeds_d1():
    digests = {_digest(seed) for seed in ("1", "4242")}
    assert len(digests) == 1
