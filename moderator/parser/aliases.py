"""How players write privileges, cards and the other words the parser knows (docs/parser.md, the vocabulary of
docs/scenarios.md).

Every table is keyed by the *normalised* spelling (简体, NFKC, casefold — see `text.normalise_word`), so 繁體 and
full-width input meet the same entries. Canonical values are the names of `cards.catalogue`.
"""

from __future__ import annotations

from cards import catalogue as cat

from .text import normalise_word

# ---------------------------------------------------------------- privileges (use) --------------------------------
# use -> spellings. The first group are "weak" verbs: generic words that a more specific word nearby refines
# ("用一击必杀杀张三", "束魂救张三").
WEAK_ATTACK = ("攻击", "杀", "刀", "砍", "袭击", "击杀", "刺杀", "暗杀", "杀掉", "干掉", "咬", "杀死", "打")
WEAK_SAVE = ("救", "救人")

USE_SPELLINGS: dict[str, tuple[str, ...]] = {
    "普通攻击": ("普通攻击", "普攻", "普通杀", "普杀", *WEAK_ATTACK),
    "一击必杀": ("一击必杀", "必杀", "一击", "秒杀"),
    "普通狙击": ("普通狙击", "普狙", "狙击", "狙", "狙杀", "狙掉", "普通狙", "阻击"),
    "瞄准狙击": (
        *("瞄准狙击", "瞄准", "定点狙击", "瞄狙", "精准狙击", "精确狙击", "定点", "瞄准狙", "指定狙击"),
        *("描准", "描准狙击", "苗准", "苗准狙击", "瞄准阻击"),
    ),
    "束魂": ("束魂", "束", "束婚", "束昏", "术魂", "竖魂"),
    "治疗": ("治疗", "巫医", "医治", "救治", "治", "医", *WEAK_SAVE),
    "防弹衣": ("防弹衣", "穿防弹衣", "防弹", "穿衣", "防弹背心"),
    "狼毒": ("狼毒", "用狼毒", "喝狼毒"),
    "禁锢": ("禁锢", "囚禁", "监禁", "关押", "关", "禁", "锢", "关禁闭", "禁固", "禁箍", "禁故"),
    "反狙击": ("反狙击", "反狙击手", "反狙", "防狙", "防狙击"),
    "绝杀": ("绝杀",),
    "特赦": ("特赦", "赦免", "赦", "大赦", "特设", "特舍"),
    "诅咒": ("诅咒", "普通诅咒", "咒", "普咒", "祖咒", "咀咒", "阻咒"),
    "恶毒诅咒": ("恶毒诅咒", "恶毒", "恶咒", "毒咒", "恶毒的诅咒", "恶毒祖咒", "恶毒咀咒"),
    "庇佑": ("庇佑", "普通庇佑", "保佑", "祝福", "庇护", "佑", "庇祐", "比佑", "必佑", "庇右"),
    "虔诚庇佑": ("虔诚庇佑", "虔诚", "虔佑", "虔诚祝福", "虔诚保佑", "虔诚的庇佑", "虔诚庇祐"),
    "圣人": ("圣人", "当圣人", "做圣人"),
    "纵火": ("纵火", "放火", "烧", "火烧", "点火", "纵火犯"),
    "变形": ("变形", "变身", "变成", "变为", "变形成", "变形为", "变", "变化", "变化成"),
}
WEAK_SPELLINGS = frozenset(normalise_word(w) for w in (*WEAK_ATTACK, *WEAK_SAVE))
# The family a weak verb may be refined into, and what it means alone.
ATTACK_USES = frozenset(p.use for p in cat.PRIVILEGES if p.attack)
SAVE_USES = frozenset({"治疗", "束魂", "特赦"})
# "咬" is how a werewolf writes an attack.
SPELLING_CARD_HINT = {normalise_word("咬"): cat.WEREWOLF, normalise_word("巫医"): cat.HEALER}

# use -> the card types that grant it (普通攻击 / 一击必杀: 杀手 and 狼人).
CARDS_OF_USE: dict[str, tuple[str, ...]] = {}
for _p in cat.PRIVILEGES:
    CARDS_OF_USE.setdefault(_p.use, ())
    CARDS_OF_USE[_p.use] += (_p.card,)
TARGETED_USES = frozenset(p.use for p in cat.PRIVILEGES if p.target)
SELF_USES = frozenset(p.use for p in cat.PRIVILEGES if not p.target and p.use != "变形")

# ---------------------------------------------------------------- cards ------------------------------------------
# Card spellings for discard orders, card hints ("用杀手牌…") and 阿米巴 forms. Each half of a two-privilege card
# names the card (防弹衣 or 狼毒 alone = 防弹衣/狼毒).
CARD_SPELLINGS: dict[str, tuple[str, ...]] = {
    cat.KILLER: ("杀手",),
    cat.WEREWOLF: ("狼人",),
    cat.SNIPER: ("狙击手", "狙击", "狙", "普通狙击", "瞄准狙击"),
    cat.BINDER: ("束魂",),
    cat.HEALER: ("巫医", "治疗", "医生"),
    cat.VEST_VENOM: ("防弹衣", "狼毒", "防弹"),
    cat.PRISON: ("禁锢", "反狙击", "反狙击手"),
    cat.DOOM_PARDON: ("绝杀", "特赦"),
    cat.CURSE: ("诅咒", "庇佑", "恶毒诅咒", "虔诚庇佑"),
    cat.ARSON_SAINT: ("纵火", "圣人", "纵火犯"),
    cat.BODYGUARD: ("保镖", "保镳", "保安"),
    cat.AMOEBA: ("阿米巴", "变形", "阿米巴变形", "变形虫", "阿米巴变形虫"),
    cat.COMMONER: ("庶民", "平民", "民"),
}


def _card_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for card, spellings in CARD_SPELLINGS.items():
        names = [card, *spellings]
        if "/" in card:
            a, b = card.split("/")
            bs = [b, *(["反狙击手"] if b == "反狙击" else []), *(["纵火犯"] if a == "纵火" else [])]
            names += [f"{a}{sep}{x}" for x in bs for sep in ("/", "", "-", "·", "|", "\\")]
            names += [f"{x}{sep}{a}" for x in bs for sep in ("/", "")]
        for name in names:
            for suffix in ("", "牌", "卡"):
                table[normalise_word(name + suffix)] = card
        table[normalise_word(card + "牌")] = card
    table[normalise_word("阿米巴变形牌")] = cat.AMOEBA
    return table


def _hint_cards() -> dict[str, str]:
    hints = {k: v for k, v in CARD_TABLE.items() if ("/" in k or k.endswith(("牌", "卡"))) and not k.startswith("变形")}
    hints.pop(normalise_word("阿米巴变形"), None)
    for name in ("杀手", "狼人", "狙击手", "阿米巴", "保镖", "庶民", "平民", "变形虫", "变形牌", "变形卡"):
        hints[normalise_word(name)] = CARD_TABLE[normalise_word(name)]
    return hints


CARD_TABLE: dict[str, str] = _card_table()

# Spellings that are cards (not privileges) in running text: a hint of which card an action uses ("用杀手牌攻击").
HINT_CARDS: dict[str, str] = _hint_cards()

# A card alone (no privilege word) means its only targeted privilege: "杀手 张三" = 普通攻击.
DEFAULT_USE = {
    cat.KILLER: "普通攻击",
    cat.WEREWOLF: "普通攻击",
    cat.SNIPER: "普通狙击",
    cat.BINDER: "束魂",
    cat.HEALER: "治疗",
    cat.AMOEBA: "变形",
}

# ---------------------------------------------------------------- S4 stance -------------------------------------
MODE_SPELLINGS = {
    "共赢": ("共赢", "双赢", "合作", "共同胜利", "一起赢", "联手", "同赢", "共存"),
    "独赢": ("独赢", "一山不容二虎", "一山难容二虎", "单赢", "独自胜利", "独活", "不共赢", "单干", "独占", "独吞"),
}
STANCE_WORDS = ("立场", "阵营", "站队", "选择", "选", "站", "加入", "投靠", "跟随", "归属", "自选")
SIDE_WORDS = {"杀手方": cat.KILLER, "狼人方": cat.WEREWOLF, "杀手阵营": cat.KILLER, "狼人阵营": cat.WEREWOLF}

# ---------------------------------------------------------------- votes (D1, D3) --------------------------------
VOTE_WORDS = (
    *("投票", "投给", "投", "票投", "票给", "投票给", "我的票", "我的一票", "这一票", "一票给", "票"),
    *("vote", "vote for", "votes for", "i vote", "i vote for", "my vote", "my vote is", "my vote goes to"),
)
CHANGE_VOTE_WORDS = (
    *"挪到 挪给 转投 新票 改票 改投 更改投票 修改投票 改为 改成 换票 换投 改选 变更投票 票改 改票为 换成 更改为".split(),
    *("unvote", "un-vote", "change vote to", "change my vote to", "change vote", "revote"),
)
SELF_VOTE_WORDS = ("自投", "投自己", "投我自己", "自票")
# 投 that does not cast a vote: past votes, other people's votes, negations.
NOT_VOTE_WORDS = tuple(
    """
    投了 投过 投的 没投 不投 别投 不要投 谁投 投降 投毒 原投 原来投 之前投 本来投 原票 票数 得票
    投票帖 投票贴 投票结果 他投 她投 大家投 要投谁 投谁 没投票 不投票 投票了 投了票
    """.split()
)
CONDITIONAL_WORDS = tuple(
    """
    如果 假如 假设 若 要是 倘若 万一 除非 否则 不然 的话 或 或者 看情况 视情况 取决于 则 再说
    """.split()
)
REASON_WORDS = ("理由", "因为", "原因", "由于")

# ---------------------------------------------------------------- changes of target (T3) ------------------------
TARGET_CHANGE_WORDS = (
    "改为",
    "改成",
    "改",
    "换成",
    "换为",
    "换",
    "更改",
    "更换",
    "改目标",
    "目标改为",
    "转为",
    "转移到",
    "变更为",
    "变更成",
    "挪到",
    "挪给",
    "改给",
    "换给",
    "转给",
    "改到",
    "换到",
)
CANCEL_WORDS = ("取消", "撤销", "撤回")

# ---------------------------------------------------------------- what makes a clause not an order -----
# A privilege or vote word is an input only when the sender orders it: not negated, not someone else's act, not a
# report, a guess or a past event. These words mark the clause they stand in.
NEGATION_WORDS = tuple(
    """
    不 没 没有 别 不要 不用 不会 不想 不打算 没打算 不准备 不再 不必 勿 莫 未 甭 不能 不可以 不该 不应该 不去 不给
    """.split()
)
AFTER_NEGATION_WORDS = ("算了", "就算了", "不必了", "不用了", "不了", "不做了", "不要了", "作罢", "免了", "拉倒")
NOT_NEGATION_WORDS = tuple("不错 不过 不少 不好意思 不然 不管 不知道 不太 不是 不对 不信 不同意 不行 不敢".split())
# Words with 说 that report no one's words: the sender's own asides ("说实话,投李四", "反正说什么你们都不信 这票投给自己")
NOT_REPORT_WORDS = tuple("说什么 说实话 说真的 说白了 说实在的 老实说 话说 说起来 怎么说 不管怎么说 总的来说".split())
PRONOUNS = tuple("他 她 它 此人 这人 这个人 那人 那个人 那个谁 这家伙 那家伙 这位 那位 此君 他丫 这货 那货".split())
OTHER_PEOPLE = tuple("大家 有人 别人 好多人 很多人 他们 她们 楼上 楼下 某人 各位 谁 人家 别的人 其他人".split())
REPORT_WORDS = tuple(
    """
    说 说过 讲 讲过 表示 声称 称 提到 建议 让我 要我 叫我 求我 跟我说 告诉我 私信我 说要 说他 说她 喊 号召 提议
    说的 说得
    """.split()
)
OPINION_WORDS = tuple(
    """
    怀疑 觉得 认为 感觉 猜 估计 好像 似乎 看了 听说 据说 担心 怕 是不是 会不会 难道 八成 多半 看来 貌似 说不定
    """.split()
)
# The sender is not sure yet: refused, so that the GM asks ("今晚可能诅咒王五").
HEDGE_WORDS = tuple("可能 也许 大概 应该 或许 考虑 再看看".split())
PAST_WORDS = tuple("昨晚 昨天 昨夜 前天 前晚 上次 之前 刚才 以前 上一夜 上一晚 上一轮 那晚 那天 过去".split())
PASSIVE_WORDS = ("被", "遭", "挨")
QUESTION_WORDS = ("吗", "么", "要不要", "好不好", "行不行", "咋样", "如何")
ALTERNATIVE_WORDS = ("还是",)
# The sender passes this phase (the console shows it as "空过").
PASS_WORDS = tuple(
    """
    空过 不行动 不动 跳过 pass 今晚休息 什么都不做 啥也不做 什么也不做 什么都不用 不使用特权 不用特权 本轮不行动
    这轮不动 按兵不动 观望
    """.split()
)
# Before a name, these make it the target, not the subject: "给他来个恶毒诅咒", "对张三使用一击必杀".
TARGET_MARKERS = frozenset("对 给 把 替 帮 为 向 朝".split())

# ---------------------------------------------------------------- 杀人宣言 (N-kill) -----------------------------
MANIFESTO_MARKERS = ("杀人宣言", "杀手宣言", "狼人宣言", "狙击宣言", "宣言")

# ---------------------------------------------------------------- discard orders (O1, O2) ----------------------
ORDER_WORDS = ("丢牌顺序", "丢牌次序", "弃牌顺序", "出牌顺序", "顺序", "次序", "先后", "先丢", "排序", "丢牌", "弃牌")
BOTTOM_WORDS = ("底牌", "垫底", "做底", "当底")
FILL_WORDS = ("其余", "其他", "其它", "剩下", "剩余", "别的")

# ---------------------------------------------------------------- the sender -----------------------------------
SELF_WORDS = ("自己", "我自己", "本人", "在下", "我本人")

# Function words and politeness, ignored around names and privileges.
STOP_WORDS = tuple(
    """
    我 我要 我想 要 想 想要 今晚 今夜 本夜 今天 这夜 晚上 白天 夜里 用 使用 发动 行使 进行 执行
    动用 启用 对 给 把 将 替 帮 帮我 为 请 天神 神的使者 使者 麻烦 一下 的 了 吧 啊 呀 呢 哦
    嗯 哈 哈哈 特权 特权牌 牌 卡 玩家 去 来 再 还 也 就 先 继续 决定 打算 准备 和 跟 与
    及 以及 还有 然后 另外 并且 并 同时 接着 之后 再次 他的 她的 是 一张 目标 对象 技能 行动 谢谢
    多谢 辛苦 辛苦了 晚安 你好 您好 好 结束 关于 关系 有关 无关 关键 或许 也许 在 上 到 他的 她的
    更正 纠正 订正 修正 说错了 打错了 写错了 搞错了
    那张 这张 个 位 号位 身上 人 一个 即可 由 原票 谢 顺便 顺手 如果可以的话 如果可以 可以的话 如果方便的话 如果方便 的话麻烦 今晚上 今天晚上 这轮 本轮 这一轮 今日 就是 也就是 即
    """.split()
)
# The function words that may join a clause of names to the privilege before it ("束魂自己,也就是钱七").
JOIN_WORDS = frozenset(normalise_word(w) for w in "和 与 及 以及 还有 跟 也 就 是 即 也就是 就是 的".split())
