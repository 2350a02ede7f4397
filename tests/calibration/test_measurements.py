"""The measurement format: the template and the synthetic set parse; mistakes name their key."""

import tomllib

import pytest

from calibration import SYNTHETIC_PATH, TEMPLATE_PATH, MeasurementError, load_measurements, parse_measurements


def test_template_parses_and_is_not_synthetic():
    m = load_measurements(TEMPLATE_PATH)
    assert not m.synthetic
    assert m.screw_rise and m.screws and m.barrels and m.slides and m.topples and m.rounds


def test_synthetic_set_is_labelled_synthetic():
    text = SYNTHETIC_PATH.read_text()
    assert text.startswith("# SYNTHETIC")
    m = load_measurements(SYNTHETIC_PATH)
    assert m.synthetic and "SYNTHETIC" in m.description


def test_round_rules_first_turn_places_and_blue_does_not():
    raw = tomllib.loads(TEMPLATE_PATH.read_text())
    m = parse_measurements(raw)
    assert m.rounds[0].turns() == [("red", True), ("yellow", True), ("blue", True), ("blue", False), ("red", True)]


BASE = {"order": ["large", "small"], "rolls": ["blue", "red"], "crashed": False}


@pytest.mark.parametrize("raw, key", [
    ({"bogus": {}}, "bogus: unknown section"),
    ({"meta": {"synthetic": "yes"}}, "meta.synthetic"),
    ({"screw_rise": [{"sailor": "green", "turns": 1, "rise_mm": 4}]}, "screw_rise[0].sailor: unknown sailor"),
    ({"screw_rise": [{"sailor": "red", "turns": 0, "rise_mm": 4}]}, "screw_rise[0].turns"),
    ({"screws": {"red": {"x_mm": [70], "y_mm": [0]}}}, "screws: measure all three"),
    ({"barrels": {"huge": {"mass_g": [5]}}}, "barrels.huge: unknown barrel size"),
    ({"barrels": {"small": {"mass_g": [5, -1]}}}, "barrels.small.mass_g[1]: must be > 0"),
    ({"barrels": {"small": {"weight": [5]}}}, "barrels.small.weight: unknown key"),
    ({"slide": [{"pair": "barrel-deck"}]}, "slide[0]: give exactly one of tilt_deg or turns"),
    ({"slide": [{"pair": "deck-deck", "tilt_deg": 20}]}, "slide[0].pair"),
    ({"topple": [{"order": ["large"], "turns": ["red"], "fell_after_turn": 3}]}, "topple[0].fell_after_turn"),
    ({"topple": [{"order": ["large"], "turns": ["red"]}]}, "topple[0]: give exactly one of"),
    ({"round": [{**BASE, "rolls": ["wild", "red"]}]}, "round[0].rolls[0]: a wild roll must name"),
    ({"round": [{**BASE, "rolls": ["red", "red", "red"]}]}, "round[0].rolls[2]: the round was over"),
    ({"round": [{**BASE, "rolls": ["red"]}]}, "round[0]: not crashed, but only 1 of 2"),
])
def test_malformed_measurements_name_the_key(raw, key):
    with pytest.raises(MeasurementError, match=key.replace("[", r"\[").replace("]", r"\]")):
        parse_measurements(raw)


def test_bad_toml_names_the_file_and_line(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text("[meta]\ndescription = \n")
    with pytest.raises(MeasurementError, match=r"m.toml: not valid TOML .*line 2"):
        load_measurements(path)
