"""The words over the scene come from the state's events: the headline after a completed tower."""

from __future__ import annotations

from viewer.messages import announce


def test_a_passed_chip_paid_with_a_completed_tower_does_not_change_the_headline():
    names = ["Ann", "Ben", "Cid"]
    events = [{"event": "turn", "player": 1},
              {"event": "award", "player": 1, "chips": 1, "reason": "pass"},
              {"event": "award", "player": 1, "chips": 2, "reason": "completion"},
              {"event": "award", "player": 2, "chips": 1, "reason": "completion"},
              {"event": "award", "player": 0, "chips": 1, "reason": "completion"},
              {"event": "round_end", "round": 1, "completed": True, "stacked": 12}]
    message = announce(names, events, None)
    assert message.title == "Tower complete: +2 / +1" and message.big
    assert message.subtitle.startswith("Ben +2 / Cid +1 / Ann +1") and "passed chip to Ben" in message.subtitle


def test_the_passed_chip_alone_is_announced():
    events = [{"event": "turn", "player": 0}, {"event": "award", "player": 0, "chips": 1, "reason": "pass"}]
    assert announce(["Ann", "Ben"], events, None).title == "Ann receives the passed chip"


def test_a_completed_tower_with_an_empty_supply():
    events = [{"event": "round_end", "round": 2, "completed": True, "stacked": 12}]
    assert announce(["Ann", "Ben"], events, None).title == "Tower complete: no chips left"
