"""Barrel orders: letters, enumeration counts (34,650 and 1,680), samples and order files."""

from __future__ import annotations

import pytest

from kipp.analysis.orders import (
    OrderError,
    all_orders,
    mean_position,
    order_index,
    order_text,
    parse_order,
    read_orders_file,
    resolve_orders,
    sample_orders,
)


def test_enumeration_counts_are_the_multinomial_coefficients():
    # 12! / (4! 4! 4!) = 34,650 and 9! / (3! 3! 3!) = 1,680
    assert len(all_orders(12)) == 34650 and len(set(all_orders(12))) == 34650
    assert len(all_orders(9)) == 1680 and len(set(all_orders(9))) == 1680


def test_index_and_text_round_trip():
    for index in (0, 1, 17, 34649):
        order = all_orders(12)[index]
        assert order_index(parse_order(order_text(order))) == index
    assert order_text(all_orders(9)[0]) == "LLLMMMSSS"


@pytest.mark.parametrize("text, problem", [
    ("LLMSMSLMSLMX", "bad letter 'X'"),
    ("LLMSMSLMSLM", "11 letters, expected 12"),
    ("LLLLLMMMSSSS", "5 L, 3 M, 4 S; expected 4 of each"),
    ("", "0 letters, expected 12"),
])
def test_bad_orders_say_what_is_wrong(text, problem):
    with pytest.raises(OrderError, match=problem):
        parse_order(text, 12)


def test_orders_file_skips_comments_and_names_the_bad_line(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("# hard ones\nLLMSMSLMSLMS\n\n  mmmmllllssss  # lower case is fine\n")
    assert [order_text(o) for o in read_orders_file(good, 12)] == ["LLMSMSLMSLMS", "MMMMLLLLSSSS"]
    bad = tmp_path / "bad.txt"
    bad.write_text("LLMSMSLMSLMS\n# ok\nLLMSMSLMSLM\n")
    with pytest.raises(OrderError, match=r"bad.txt line 3: 'LLMSMSLMSLM': 11 letters, expected 12"):
        read_orders_file(bad, 12)
    bad.write_text("LLLMMMSSS\nLLLMMMSSS\n")
    with pytest.raises(OrderError, match="line 2: 'LLLMMMSSS' repeats line 1"):
        read_orders_file(bad, 9)
    bad.write_text("# nothing\n")
    with pytest.raises(OrderError, match="no orders"):
        read_orders_file(bad, 12)


def test_sample_is_seeded_distinct_and_sorted():
    first = sample_orders(50, 12, seed=3)
    assert first == sample_orders(50, 12, seed=3) != sample_orders(50, 12, seed=4)
    indices = [order_index(o) for o in first]
    assert indices == sorted(set(indices))
    assert resolve_orders("sample:50", 12, 3) == first
    assert len(resolve_orders("all", 9, 0)) == 1680
    for spec in ("sample:0", "sample:x", "sample:1681"):
        with pytest.raises(OrderError):
            resolve_orders(spec, 9, 0)


def test_mean_position_of_the_large_barrels():
    assert mean_position(parse_order("LLLLMMMMSSSS")) == 2.5
    assert mean_position(parse_order("SSSSMMMMLLLL")) == 10.5
