"""sim.toml_schema: one reader and one set of checks for every TOML file of the project."""

import pytest

from calibration.measurements import MeasurementError, load_measurements
from sim.params import ParamsError, load_params
from sim.toml_schema import Number, TomlError, dump_toml, loads_toml, raising, read_toml


def test_both_file_kinds_raise_the_one_error_type():
    assert issubclass(ParamsError, TomlError) and issubclass(MeasurementError, TomlError)
    assert issubclass(TomlError, ValueError)


@pytest.mark.parametrize("load, error", [(load_params, ParamsError), (load_measurements, MeasurementError)])
@pytest.mark.parametrize("content, message", [
    (b"\xff", "not UTF-8 text (byte 0xff at offset 0)"),
    (b"[a\n", "not valid TOML"),
])
def test_unreadable_files_read_the_same_in_both_formats(tmp_path, load, error, content, message):
    path = tmp_path / "f.toml"
    path.write_bytes(content)
    with pytest.raises(error) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)


def test_a_folder_and_a_missing_file_name_the_file(tmp_path):
    with pytest.raises(TomlError, match="is a folder, not a parameter file"):
        read_toml(tmp_path, "parameter file")
    with pytest.raises(TomlError, match="cannot read measurement file"):
        read_toml(tmp_path / "nope.toml", "measurement file")


def test_number_checks_sign_first_then_the_plausible_range():
    spec = Number("positive", 0.01, 2.0, why="wood")
    assert spec.check("mu", 1) == 1.0
    for value, message in ((-1, "mu: must be > 0, got -1.0"), (5, "mu: must be between 0.01 and 2, got 5.0 (wood)"),
                           (float("nan"), "must be a finite number"), ("x", "expected a number"),
                           (True, "expected a number")):
        with pytest.raises(TomlError, match=message.replace("(", r"\(").replace(")", r"\)")):
            spec.check("mu", value)
    with pytest.raises(TomlError, match="expected an integer"):
        Number(integer=True).check("n", 2.5)


def test_raising_names_the_file_once():
    with pytest.raises(ParamsError) as caught, raising(ParamsError, "a.toml"):
        raise TomlError("x.y: bad")
    assert str(caught.value) == "a.toml: x.y: bad"
    with pytest.raises(ParamsError) as caught, raising(ParamsError, "a.toml"):
        raise TomlError("bad", "b.toml")
    assert str(caught.value) == "b.toml: bad"


def test_dump_round_trips_values_exactly():
    tables = {"top": 1, "a": {"x": 0.1 + 0.2, "s": 'quote " and \\ back', "b": {"flag": True}},
              "odd key": {"n": -3, "tiny": 1e-17}}
    assert loads_toml(dump_toml(tables)) == tables
    assert dump_toml({"a": {"x": 1.23456789}}, {"a.x": "note"}, float_digits=3) == "[a]\nx = 1.235  # note\n"
