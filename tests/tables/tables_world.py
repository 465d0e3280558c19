"""The players of the table-tracker tests: one list per game, as many as each test of it needs (a test wanting fewer
takes the first few)."""

from __future__ import annotations

TABLE_PLAYERS = {
    "noir": ["福尔摩斯", "莫里亚蒂"],
    "sanguosha": ["刘备", "关羽", "张飞", "曹操", "孙权"],
    "anhuoxian": ["阿甲", "阿乙", "阿丙", "阿丁"],
    "direnjie_cards": ["狄仁杰", "李元芳", "曾泰", "如燕", "元芳", "武则天"],
}
