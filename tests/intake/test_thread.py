"""Splitting a pasted thread into posts (moderator.parser.thread, pure) — the corpus of real-looking pastes."""

from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.parser import parse_vote
from moderator.parser.thread import split_posts
from tests.intake.conftest import AUTHORS, CORPUS


def read(name):
    return (CORPUS / name).read_text(encoding="utf-8")


def test_it_reads_a_discuz_thread_page_into_authors_times_and_bodies():
    posts = split_posts(read("discuz_day1.txt"), authors=AUTHORS)
    assert [p.author for p in posts] == ["天神", "李元芳", "曾泰", "狄如燕", "张环", "虎敬晖", "李元芳"]
    assert posts[1].at == datetime(2024, 3, 5, 9, 30) and posts[1].body == "投 曾泰"
    assert all("回复 举报" not in p.body and "只看该作者" not in p.body for p in posts)


def test_it_keeps_a_quoted_vote_inside_quote_tags_so_only_the_posters_own_vote_counts():
    zeng = split_posts(read("discuz_day1.txt"), authors=AUTHORS)[2]
    assert zeng.body.startswith("[quote]李元芳 发表于 2024-3-5 09:30\n投 曾泰[/quote]")
    (vote,) = parse_vote(zeng.body, sender="曾泰", players=AUTHORS).to_json()["inputs"]
    assert vote["for"] == "李元芳" and "change" not in vote


def test_it_marks_a_post_the_forum_shows_as_edited_D3():
    posts = split_posts(read("discuz_day1.txt"), authors=AUTHORS)
    assert [p.author for p in posts if p.edited] == ["张环"]


def test_it_reads_a_phpwind_page_past_the_profile_furniture():
    posts = split_posts(read("phpwind_day1.txt"), authors=["阿飞", "小明", "老王"])
    assert [(p.author, p.at.strftime("%H:%M")) for p in posts] == [
        ("阿飞", "09:05"),
        ("小明", "09:22"),
        ("老王", "10:03"),
        ("路人甲", "10:30"),
    ]
    assert posts[1].body == "投 老王"
    assert "[quote]引用" in posts[2].body and posts[2].body.endswith("我投小明")


def test_it_reads_the_plain_format_with_one_header_line_per_message():
    posts = split_posts(read("plain_night1.txt"))
    assert [(p.author, p.body) for p in posts] == [
        ("李元芳", "今晚用束魂保护狄仁杰。"),
        ("曾泰", "巫医 治疗 狄如燕"),
        ("张环", "今晚空过"),
        ("外人", "我也想玩"),
    ]


def test_it_reads_a_saved_pm_inbox_page():
    posts = split_posts(read("inbox.html"), authors=AUTHORS)
    assert [(p.author, p.at) for p in posts] == [
        ("李元芳", datetime(2024, 3, 4, 21, 5)),
        ("曾泰", datetime(2024, 3, 4, 22, 40)),
        ("张环", datetime(2024, 3, 5, 1, 13)),
    ]
    assert posts[1].body == "巫医 治疗 狄如燕\n\n谢谢天神"
    assert posts[2].body == "[quote]天神:今晚要行动吗?[/quote]\n\n今晚空过"


def test_it_reads_the_thirty_post_thread_with_the_repeated_page_break_post():
    posts = split_posts(read("discuz_day1_30.txt"), authors=AUTHORS)
    assert len(posts) == 31  # 30 floors, and floor 13 copied again at the top of page 2
    assert posts[12] == posts[13].__class__(posts[13].author, posts[13].at, posts[13].body, False, posts[12].line)
    assert posts[12].body == "改投 李朗"


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("发表于 2024-3-5 09:12|只看该作者\n回复引用=阿飞<div>[quote]")), max_size=300)
)
def test_it_never_raises_on_any_paste(text):
    for post in split_posts(text, authors=["阿飞"]):
        assert isinstance(post.body, str)


def test_it_reads_the_seed_forums_phpwind_page_with_the_time_under_each_post():
    """PHPWind as the seed forum shows it — the profile block above each post, "Posted: … | N 楼" under
    it. Every author is the poster (never "Posted"), every time is the post's own, the quote is kept in [quote], the
    "[ 此贴被X在…重新编辑 ]" line marks the post edited (D3)."""
    posts = split_posts(read("phpwind_posted_day1.txt"), authors=AUTHORS)
    assert [(p.author, p.at.strftime("%H:%M")) for p in posts] == [
        ("天神", "09:05"),
        ("李元芳", "09:30"),
        ("曾泰", "09:41"),
        ("狄如燕", "10:02"),
        ("张环", "10:15"),
        ("虎敬晖", "11:00"),
        ("李朗", "11:30"),
        ("狄仁杰", "12:00"),
        ("李元芳", "12:30"),
    ]
    assert posts[1].body == "投 曾泰" and posts[8].body == "改投 李朗"
    assert posts[2].body.startswith("[quote]引用第1楼李元芳") and posts[2].body.endswith("我投李元芳")
    assert [p.author for p in posts if p.edited] == ["张环"] and posts[4].body == "投票:李朗"
    assert "级别" not in posts[0].body and "管理提醒" not in posts[0].body and "Posted" not in posts[0].body
    assert [p.author for p in split_posts(read("phpwind_posted_day1.txt"))] == [p.author for p in posts]


def test_it_reads_the_seed_rule_thread_itself():
    """The seed forum's own page (tests/intake/corpus/phpwind_seed_004.txt, copied from the rules' original forum thread): two posts, their authors and times."""
    posts = split_posts(read("phpwind_seed_004.txt"))
    assert [(p.author, p.at.strftime("%Y-%m-%d %H:%M"), p.edited) for p in posts] == [
        ("实习警花", "2014-05-21 09:36", True),
        ("神的使者", "2014-05-27 13:53", False),
    ]
