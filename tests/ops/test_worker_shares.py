"""make test's workers each start with an equal share of the collection (pytest-xdist worksteal): the conftest puts
a part of the slowest modules first in each share. Reordering must never lose, repeat or split up a test."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import SLOW_MODULES, _slow_first_in_each_share


@dataclass(frozen=True)
class Item:
    nodeid: str


def collection() -> list[Item]:
    items = [Item(f"tests/a/test_quick_{n}.py::test_{k}") for n in range(40) for k in range(20)]
    for module in SLOW_MODULES:
        items[len(items) // 3 : len(items) // 3] = [Item(f"{module}::test_{k}") for k in range(3)]
    return items


@pytest.mark.parametrize("workers", [2, 3, 4])
def test_every_test_is_kept_once_and_each_share_starts_with_slow_modules(workers):
    items = collection()
    ordered = _slow_first_in_each_share(items, workers)
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in items)
    shares = [ordered[k * len(items) // workers : (k + 1) * len(items) // workers] for k in range(workers)]
    for share in shares:
        assert share[0].nodeid.split("::")[0] in SLOW_MODULES
    for module in SLOW_MODULES:  # a module's tests together and in their order, in one share
        positions = [n for n, i in enumerate(ordered) if i.nodeid.startswith(f"{module}::")]
        assert positions == list(range(positions[0], positions[0] + 3))
        assert [ordered[n].nodeid for n in positions] == [f"{module}::test_{k}" for k in range(3)]
        assert len({k for k, share in enumerate(shares) if any(i.nodeid.startswith(module) for i in share)}) == 1
