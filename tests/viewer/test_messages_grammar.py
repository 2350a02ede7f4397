"""Messages agree with "You" (the default name of the person at a one-seat table): "You start"."""

from __future__ import annotations

from viewer.messages import acts, announce


def test_you_start_and_ann_starts():
    names = ("You", "Ann")
    start = announce(names, [{"event": "round_start", "round": 1, "order": [], "starter": 0}], None)
    assert start.subtitle == "You start"
    crash = announce(names, [{"event": "crash", "player": 0, "chips_returned": 1, "phase": "turn"}], None)
    assert crash.subtitle == "You return 1 chip"
    assert announce(names, [{"event": "pass", "player": 1}], None).title == "Ann passes"
    assert acts("You", "passes") == "You pass" and acts("You", "is") == "You are" and acts("Bo", "is") == "Bo is"


def test_on_a_wild_roll_the_tip_points_at_the_hints_sailor_when_hints_are_on():
    from viewer.tips import first_game_tip

    plain = first_game_tip("sailor", None)[1]
    hinted = first_game_tip("sailor", None, hints=True)[1]
    assert "less often" in plain
    assert "purple ring" in hinted and "less often" not in hinted, "no advice against the hint's"
