"""Accessibility checks for the browser tests: axe-core (vendored, tests/browser/vendor/axe-core) run in the page
Chromium has open, plus what axe's WCAG 2.0/2.1 rules leave to us on a phone — no sideways scrolling and tap
targets a finger can hit.

`check(page, "where")` fails on any critical or serious violation of the WCAG 2.0/2.1 A and AA rules, naming the
rule, the elements (CSS selectors and a bit of their HTML) and the page; at a phone's width (≤ 480 px) it also fails
when the page is wider than the screen or a control is smaller than 24 px."""

from __future__ import annotations

from pathlib import Path

AXE_VERSION = "4.14.1"
AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING = ("critical", "serious")
PHONE_MAX = 480  # narrower than this is a phone: the 390 px checks apply
TAP_MIN = 24  # WCAG 2.2's 2.5.8 minimum target size, in CSS pixels

_source: str | None = None

RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160), summary: n.failureSummary})),
  }));
}"""

# Controls smaller than TAP_MIN on a phone. Links inside running text are exempt (WCAG 2.5.8 "inline"), as are
# controls nobody can see; a checkbox or radio counts together with the label that wraps it.
SMALL = """(min) => {
  const out = [];
  const sel = 'button, select, textarea, summary, input:not([type=hidden]), a.button, [role=button]';
  for (const el of document.querySelectorAll(sel)) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[hidden], [inert]')) continue;
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if ((el.type === 'checkbox' || el.type === 'radio') && el.closest('label')) {
      const label = el.closest('label').getBoundingClientRect();  // the box and its label: one target
      const top = Math.min(box.top, label.top), left = Math.min(box.left, label.left);
      box = {width: Math.max(box.right, label.right) - left, height: Math.max(box.bottom, label.bottom) - top};
    }
    if (box.height < min - 0.5 || box.width < min - 0.5) {
      const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.name ? `[name=${el.name}]` : '');
      out.push(`${name} ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return out;
}"""


# The elements that reach past the right edge of the screen, outside any box that scrolls by itself (a wide table in
# one is fine; an absolutely positioned one may escape it), outermost first: where the page's sideways scroll comes from.
WIDE = """(screen) => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > screen + 1)
  .filter(e => { if (['absolute', 'fixed'].includes(getComputedStyle(e).position)) return true;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(a).overflowX)) return false; } return true; })
  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string'
    ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' ' + Math.round(e.getBoundingClientRect().right) + 'px')
  .slice(0, 8)"""


def _axe_source() -> str:
    global _source
    if _source is None:
        _source = AXE_JS.read_text(encoding="utf-8")
    return _source


def inject(page) -> None:
    """axe into the page (once per document). Through the DevTools protocol, so the site's CSP does not apply."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    version = page.evaluate("window.axe.version")
    assert version == AXE_VERSION, f"axe-core {version} injected, {AXE_VERSION} expected"


def violations(page) -> list[dict]:
    """The critical and serious WCAG 2.0/2.1 A/AA violations axe finds in the page as it is now."""
    inject(page)
    return [v for v in page.evaluate(RUN, TAGS) if v["impact"] in FAILING]


def describe(found: list[dict], where: str) -> str:
    lines = [f"{where}: {len(found)} 条严重的无障碍问题 (axe-core {AXE_VERSION}, WCAG 2.0/2.1 A/AA)"]
    for v in found:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for n in v["nodes"][:8]:
            lines.append(f"    {n['target']}  {n['html']}")
        if len(v["nodes"]) > 8:
            lines.append(f"    …and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def width(page) -> tuple[int, int]:
    """The page's width and the screen's. The screen is the viewport the test asked for, not window.innerWidth: a
    mobile Chromium widens its layout viewport to a page that is too wide (and zooms out), so innerWidth grows too."""
    return page.evaluate("document.documentElement.scrollWidth"), page.viewport_size["width"]


def problems(page, where: str = "") -> list[str]:
    """What `check` would fail on, as readable messages (empty when the page is fine)."""
    where = f"{where} ({page.url}, {page.viewport_size['width']} px)"
    out = []
    found = violations(page)
    if found:
        out.append(describe(found, where))
    if page.viewport_size["width"] <= PHONE_MAX:
        scroll, screen = width(page)
        if scroll > screen:
            wide = "; ".join(page.evaluate(WIDE, screen))
            out.append(f"{where}: 页面比屏幕宽,会左右滚动({scroll} px > {screen} px):{wide}")
        small = page.evaluate(SMALL, TAP_MIN)
        if small:
            out.append(f"{where}: 手机上小于 {TAP_MIN} px 的控件:" + "; ".join(small[:12]))
    return out


def check(page, where: str = "") -> None:
    """Fail on a critical or serious axe violation; at a phone's width also on sideways scrolling or small controls."""
    found = problems(page, where)
    assert not found, "\n".join(found)
