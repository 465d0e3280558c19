"""Splitting a pasted forum thread or PM batch into posts. Pure Python, no Django.

    split_posts(text, *, authors=()) -> list[Post]

Three shapes are read:

- the plain format, one `=== 作者 YYYY-MM-DD HH:MM` line before each message;
- the text a browser copies from a PHPWind or Discuz! thread page: an author line, a `发表于 YYYY-MM-DD HH:MM` line
  (floor words such as 沙发 / 5# / 只看该作者 around it), the body, and the page's furniture (回复, 引用, 举报 …);
- PHPWind's own page as the seed forum shows it: the author's profile block (name, medals, 级别, 精华 …) above the
  body and a "Posted: YYYY-MM-DD HH:MM | N 楼" line under it ("[ 此贴被X在…重新编辑 ]" marks an edit, D3);
- an exported PM inbox page saved as HTML (its text is read as above; an "作者 YYYY-MM-DD HH:MM" line also heads a
  message there).

A quote inside a post (Discuz!'s "阿飞 发表于 2024-3-5 21:00" block, PHPWind's "引用第3楼阿飞于…发表的", "原帖由 …
发表") is kept in the body inside [quote]…[/quote], the forum's own markup, so that the vote reader skips it (the
quoted vote is somebody else's). "本帖最后由 X 于 … 编辑" marks the post as edited (D3).

`authors`, the table's forum IDs, helps find the author line among a profile's furniture (级别, 积分, 帖子 …); a
post whose author is not one of them is still returned, with the name as written, for the caller to show and skip.
Times are naive (the forum's clock, Beijing time), read to the minute (D3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from html.parser import HTMLParser

__all__ = ["Post", "html_to_text", "split_posts"]

DATE = r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s+(\d{1,2})\s*[:：]\s*(\d{2})(?:\s*[:：]\s*\d{2})?"
# Possessive (*+) where giving characters back can never help the rest match, so that a line of 100,000 spaces or
# = is refused in one pass, not in N² or N³ steps: a header's author never starts with "=", the floor
# words never end before 发/时.
PLAIN_HEADER = re.compile(rf"^\s*={{3,}}+\s*(?P<author>.+?)\s+{DATE}\s*=*\s*$")
FLOOR = r"(?:楼主|沙发|板凳|地板|地下室|藤椅|\d+\s*(?:#|楼|F)|#\d+|只看该作者|倒序浏览|电梯直达|\||\s)*+"
POSTED = re.compile(rf"^\s*+{FLOOR}(?:发表于|发表时间|发表日期|发送于|发送时间|时间)\s*[:：]?\s*{DATE}(?P<rest>.*)$")
INLINE = re.compile(rf"^\s*(?P<author>\S[^\n]*?)\s+(?:发表于|于|发送于)?\s*[:：]?\s*{DATE}\s*(?P<rest>.*)$")
BARE_DATE = re.compile(rf"^\s*{DATE}\s*$")
QUOTE_START = re.compile(r"^\s*(?:引用|原帖由|回复\s*\d+\s*#|\S.*?\s发表于\s*\d{4})")
EDITED = re.compile(r"本帖最后由\s*\S+\s*于\s*\d{4}.*?编辑")
HEADER_TAIL = re.compile(r"只看该作者|电梯直达|倒序浏览|显示全部楼层|\|")
FURNITURE = re.compile(
    r"^\s*(?:(?>回复|引用|举报|评分|支持|反对|分享|收藏|使用道具|TOP|top|顶端|返回列表|上一页|下一页|上一主题|下一主题|只看该作者|楼主|沙发|板凳|地板|"
    r"藤椅|地下室|\d+\s*(?:#|楼|F)|#\d+|发消息|加好友|在线|离线|\d+|"
    r"(?:级别|等级|性别|来自|Rank)\s*[:：]?\s*\S{0,12}|"
    r"(?:UID|积分|帖子|主题|精华|威望|金钱|贡献|注册时间|最后登录|发帖|在线时间|阅读权限)\s*[:：]?\s*[\d.\-: /]*)\s*)+$"
)
SIGNATURE = re.compile(r"^\s*(?:-{2,}|—{2,}|_{3,})\s*$")
# PHPWind (the seed forum's own copy): the profile block above each post, "Posted: 2014-05-27 13:53 | 1 楼" under it.
FOOTER = re.compile(rf"^\s*Posted\s*[:：]\s*{DATE}\s*\|\s*(?:\[?\s*楼\s*主\s*\]?|\d+\s*楼|\d+\s*#)\s*$", re.I)
PROFILE = re.compile(
    r"^\s*(?:级别|等级|头衔|精华|发帖|帖子|威望|金钱|支持度|在线时间|注册时间|最后登录|积分|UID|性别|来自|贡献|好评度|门派)\s*[:：]"
)
PW_EDITED = re.compile(r"^\s*+\[?\s*此贴被\s*\S+?\s*在\s*\d{4}.*?重新编辑\s*\]?\s*$")
PW_NOTICE = re.compile(r"^\s*(?:管理提醒\s*[:：]?|本帖被\s*\S+\s*执行.*操作.*)\s*$")


@dataclass(frozen=True)
class Post:
    author: str
    at: datetime | None  # None when the post shows no time the reader understood
    body: str
    edited: bool = False
    line: int = 0  # where it began in the pasted text (1-based), for the 天神 to find it


def _at(m: re.Match, first: int) -> datetime | None:
    y, mo, d, h, mi = (int(g) for g in m.groups()[first : first + 5])
    try:
        return datetime(y, mo, d, h, mi)
    except ValueError:
        return None


class _Text(HTMLParser):
    BLOCKS = frozenset(
        "p div br tr li dl dt dd h1 h2 h3 h4 h5 h6 table blockquote section article header footer".split()
    )

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "head", "title"):
            self.skip += 1
        if tag == "blockquote":
            self.out.append("\n[quote]")
        elif tag in self.BLOCKS:
            self.out.append("\n")
        elif tag in ("td", "th", "span", "em", "a"):
            self.out.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "head", "title"):
            self.skip = max(0, self.skip - 1)
        if tag == "blockquote":
            self.out.append("[/quote]\n\n")
        elif tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data.replace("\xa0", " "))


def html_to_text(html: str) -> str:
    """A saved HTML page as the lines a browser would show (blocks → lines, blockquotes → [quote]…[/quote])."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in "".join(parser.out).split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _looks_like_html(text: str) -> bool:
    head = text.lstrip()[:2000].lower()
    return head.startswith(("<!doctype", "<html")) or len(re.findall(r"<(?:div|td|p|br|span|a)\b", head)) >= 3


def split_posts(text: str, *, authors: tuple[str, ...] | list[str] = ()) -> list[Post]:
    """The posts of a pasted thread, PM batch or saved inbox page, in the order pasted. Never raises."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    html = _looks_like_html(text)
    if html:
        text = html_to_text(text)
    lines = text.split("\n")
    if any(PLAIN_HEADER.match(line) for line in lines):
        return _plain(lines)
    if any(FOOTER.match(line) for line in lines):
        return _phpwind(lines, set(authors))
    return _forum(lines, set(authors), html)


def _phpwind(lines: list[str], authors: set[str]) -> list[Post]:
    """PHPWind's own page (the seed forum): each post is its author's profile block (name, medals, 级别 …), the body,
    then "Posted: time | N 楼". A post ends at its footer, so the time below a body is that body's."""
    posts: list[Post] = []
    lo = 0
    for i, line in enumerate(lines):
        m = FOOTER.match(line)
        at = _at(m, 0) if m else None
        if m is None or at is None:
            continue
        posts.append(_pw_post(lines[lo:i], lo, at, authors, first=not posts))
        lo = i + 1
    return posts


def _pw_post(block: list[str], lo: int, at: datetime, authors: set[str], *, first: bool) -> Post:
    """The post of the lines above a PHPWind footer (from line `lo`): its author, its body without the profile,
    notices and edit marks, and whether it was edited."""
    profile = [k for k, text in enumerate(block[:40]) if PROFILE.match(text)]
    author_at = _pw_author(block, profile[0] if profile else len(block), authors, first=first)
    start = profile[-1] + 1 if profile else (author_at + 1 if author_at is not None else 0)
    body = [text for text in block[start:] if not PW_NOTICE.match(text)]
    edited = any(PW_EDITED.match(text) for text in body)
    raw = "\n".join(_trim([text for text in body if not PW_EDITED.match(text)]))
    author = _strip(block[author_at]) if author_at is not None else ""
    return Post(author, at, _quotes(raw).strip(), edited, lo + (author_at or 0) + 1)


def _pw_author(block: list[str], level: int, authors: set[str], *, first: bool) -> int | None:
    """The author's line of a PHPWind post: a known forum ID above the profile, else the block's first line (the
    line after the previous post's footer), else — for the page's first post, under the page's title bar — the
    nearest line above the profile that is not a row of medals."""
    above = [k for k in range(level) if block[k].strip()]
    for k in above:
        if _strip(block[k]) in authors:
            return k
    if not above:
        return None
    if not first:
        return above[0]
    return next((k for k in reversed(above) if "勋章" not in block[k]), above[0])


def _plain(lines: list[str]) -> list[Post]:
    posts: list[Post] = []
    current: tuple[str, datetime, int] | None = None
    body: list[str] = []
    for i, line in enumerate(lines):
        m = PLAIN_HEADER.match(line)
        at = _at(m, 1) if m else None
        if m and at:
            _flush(posts, current, body)
            current, body = (m["author"].strip(), at, i + 1), []
        else:
            body.append(line)
    _flush(posts, current, body)
    return posts


def _flush(posts: list[Post], current, body: list[str]) -> None:
    if current is None:
        return
    raw = "\n".join(body).strip("\n")
    posts.append(Post(current[0], current[1], _quotes(raw).strip(), bool(EDITED.search(raw)), current[2]))


def _header(lines: list[str], i: int, authors: set[str], html: bool) -> tuple[str | None, datetime] | None:
    """(author on this line, or None when it is on a line above; time) if line i heads a post."""
    line = lines[i]
    m = POSTED.match(line)
    if m and (at := _at(m, 0)):
        return None, at
    m = INLINE.match(line)
    if m and (at := _at(m, 1)):
        author, rest = m["author"].strip(" :："), m["rest"]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        header_like = bool(HEADER_TAIL.search(rest) or HEADER_TAIL.search(nxt))
        if "发表于" in line and not header_like:
            return None  # Discuz!'s quote head: "阿飞 发表于 2024-3-5 21:00"
        if _names_author(author, line, header_like, authors, html):
            return author, at
    m = BARE_DATE.match(line)
    if m and (at := _at(m, 0)):
        return None, at
    return None


def _names_author(author: str, line: str, header_like: bool, authors: set[str], html: bool) -> bool:
    """Whether the words before an inline header's time are its author: a known forum ID, a line with the page's
    header furniture (只看该作者, |), or, in a saved HTML page, a short name on a line that is no quote's head."""
    return author in authors or header_like or (html and "发表于" not in line and len(author) <= 30)


def _forum(lines: list[str], authors: set[str], html: bool) -> list[Post]:
    heads = [(i, h) for i in range(len(lines)) if (h := _header(lines, i, authors, html))]
    posts: list[Post] = []
    prev_end = 0
    bounds: list[tuple[int, int, str, datetime]] = []  # (author line, header line, author, time)
    for i, (author, at) in heads:
        if author is None:
            j = _author_line(lines, prev_end, i, authors)
            author = _strip(lines[j]) if j is not None else ""
            start = j if j is not None else i
        else:
            start = i
        bounds.append((start, i, author, at))
        prev_end = i + 1
    for k, (start, i, author, at) in enumerate(bounds):
        end = bounds[k + 1][0] if k + 1 < len(bounds) else len(lines)
        body_lines = _trim([line for line in lines[i + 1 : end]])
        raw = "\n".join(body_lines)
        posts.append(Post(author, at, _quotes(raw).strip(), bool(EDITED.search(raw)), start + 1))
    return posts


def _strip(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip(" :：")


def _author_line(lines: list[str], lo: int, hi: int, authors: set[str]) -> int | None:
    """The author's line above a `发表于` line: a known forum ID if one stands alone there, else the nearest line that
    is not page furniture."""
    for j in range(hi - 1, lo - 1, -1):
        if _strip(lines[j]) in authors:
            return j
    for j in range(hi - 1, max(lo, hi - 12) - 1, -1):
        if lines[j].strip() and not FURNITURE.match(lines[j]) and not EDITED.search(lines[j]):
            return j
    return None


def _trim(lines: list[str]) -> list[str]:
    """Drop the page's furniture around a body (回复 / 引用 / 举报 lines, floor numbers, the signature)."""
    out = list(lines)
    for k, line in enumerate(out):
        if SIGNATURE.match(line):
            out = out[:k]
            break
    while out and (not out[-1].strip() or FURNITURE.match(out[-1])):
        out.pop()
    first = 0
    while first < len(out) and (not out[first].strip() or FURNITURE.match(out[first])):
        first += 1
    return out[first:]


def _quotes(raw: str) -> str:
    """Wrap each quote block (its head line and the lines up to the next blank line) in [quote]…[/quote]."""
    if "[quote]" in raw.lower():
        return raw
    out: list[str] = []
    inside = False
    for line in raw.split("\n"):
        if not inside and QUOTE_START.match(line) and not EDITED.search(line):
            out.append("[quote]" + line)
            inside = True
        elif inside and not line.strip():
            out[-1] += "[/quote]"
            out.append(line)
            inside = False
        else:
            out.append(line)
    if inside:
        out[-1] += "[/quote]"
    return "\n".join(out)
