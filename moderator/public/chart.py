"""The card-count chart of the public page: plain geometry for an inline SVG (no JS library, nothing fetched).

Card counts are public (every loss is announced by type, A1; a vote's weight is the cards held, D2), so the chart may
show every seat at every close.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 34, 12, 12, 46
PALETTE = ("#b0302c", "#2c6fb0", "#2f8f3a", "#c07a12", "#7a3fb0", "#128f8f", "#8f6b12", "#b02c7a", "#555", "#6b8f12")


@dataclass(frozen=True)
class Line:
    name: str
    color: str
    points: str  # "x,y x,y …" for <polyline points>
    last: tuple[float, float]  # where the end dot goes
    count: int  # the last count drawn


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    ticks_x: tuple[tuple[float, str], ...]  # (x, label)
    ticks_y: tuple[tuple[float, int], ...]  # (y, count)
    plot: tuple[float, float, float, float]  # x0, y0, x1, y1 of the plotting area
    label_x: float  # where the count labels end, left of the plot


def color(index: int) -> str:
    if index < len(PALETTE):
        return PALETTE[index]
    return f"hsl({index * 47 % 360} 55% 40%)"


def card_chart(labels: list[str], series: list[tuple[str, list[int | None]]]) -> Chart:
    """`labels`: one per column (the deal, then each close); `series`: (player, count per column, None once dead
    and already drawn at 0)."""
    top = max([c for _, counts in series for c in counts if c is not None] + [1])
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    step = (x1 - x0) / max(len(labels) - 1, 1)

    def x(i: int) -> float:
        return round(x0 + i * step, 1)

    def y(c: int) -> float:
        return round(y1 - (y1 - y0) * c / top, 1)

    lines = []
    for i, (name, counts) in enumerate(series):
        pts = [(x(j), y(c)) for j, c in enumerate(counts) if c is not None]
        if not pts:
            continue
        drawn = [c for c in counts if c is not None]
        lines.append(Line(name, color(i), " ".join(f"{a},{b}" for a, b in pts), pts[-1], drawn[-1]))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        lines=tuple(lines),
        ticks_x=tuple((x(i), label) for i, label in enumerate(labels)),
        ticks_y=tuple((y(c), c) for c in range(top + 1)),
        plot=(x0, y0, x1, y1),
        label_x=x0 - 6,
    )
