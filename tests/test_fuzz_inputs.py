"""Property-based fuzzing of every file a user hands in and of the commands' options: whatever the input,
the command exits 0 or 2 (one ``Error:`` line), never with a traceback, and leaves nothing half-written.

The formats: parameter files (TOML), measurement files (TOML), recordings (JSON lines), a results file's
stored options (SQLite), the remembered start-screen choices (JSON); each is a real file of its kind with
parts replaced by hostile values (a 5,000-digit number, nesting thousands deep, a lone surrogate, NaN,
text where a number goes, random JSON). The commands run in process (click's CliRunner) on the fast
referee, with few examples and a derandomized profile, so the whole file stays within a few seconds of
CI's budget.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kipp.cli import main

FUZZ = settings(max_examples=12, derandomize=True, deadline=None, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

HOSTILE = ["1" * 5000, "-" + "9" * 400, "[" * 3000 + "]" * 3000, "{" * 50, "nan", "inf", "-0", "1e999",
           '"\\ud800"', '"A\\u0000B"', '"\u0007"', "true", "[]", "{}", '""', "null", "9.0", "0", "-1",
           "12", '"x" * 3', "\x00", "\ufeff", "=", "[[", "0x10", "1_000", "2024-01-01"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8)


@contextlib.contextmanager
def _folder():
    with tempfile.TemporaryDirectory(prefix="kipp-fuzz-") as name:
        here = os.getcwd()
        os.chdir(name)
        try:
            yield Path(name)
        finally:
            os.chdir(here)


def _assert_clean(result, before: set[str] | None = None, folder: Path | None = None) -> None:
    """Exit 0, or exit 2 with one ``Error:`` line; no traceback; with ``before``, no file left half-written."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback: {result.exception!r}\n{result.output}") from result.exception
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
        if before is not None:
            for name in {p.name for p in folder.iterdir()} - before:
                _assert_consistent(folder / name)


def _assert_consistent(path: Path) -> None:
    """A file a refused run left behind must be a whole results file (it kept finished work)."""
    assert path.suffix == ".sqlite", f"a refused run left {path.name} behind"
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM results").fetchone()[0] > 0


def _mutated_toml(text: str, data) -> str:
    """``text`` with a few values replaced by hostile ones."""
    lines = text.splitlines()
    values = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        i = data.draw(st.sampled_from(values), label="line")
        value = data.draw(st.sampled_from(HOSTILE), label="value")
        lines[i] = f"{lines[i].partition('=')[0]}= {value}"
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def recording() -> str:
    result = CliRunner().invoke(main, ["game", "--json", "--seed", "5", "--referee", "fast", "--players", "2"])
    assert result.exit_code == 0
    return result.output


@settings(FUZZ, max_examples=25)
@given(data=st.data())
def test_parameter_files(data):
    from sim.params import default_params_text

    with _folder() as folder:
        (folder / "p.toml").write_text(_mutated_toml(default_params_text(), data), encoding="utf-8", errors="replace")
        _assert_clean(CliRunner().invoke(main, ["params", "--params", "p.toml"]))


@settings(FUZZ, max_examples=25)
@given(data=st.data())
def test_measurement_files(data):
    from calibration import MeasurementError, load_measurements

    source = Path(__file__).resolve().parents[1] / "calibration" / "data" / "synthetic_measurements.toml"
    with _folder() as folder:
        path = folder / "m.toml"
        path.write_text(_mutated_toml(source.read_text(encoding="utf-8"), data), encoding="utf-8", errors="replace")
        with contextlib.suppress(MeasurementError):  # `kipp calibrate` prints it as its one line
            load_measurements(path)


@FUZZ
@given(data=st.data())
def test_recordings(recording, data):
    lines = recording.splitlines()
    for _ in range(data.draw(st.integers(1, 2), label="changes")):
        i = data.draw(st.integers(0, len(lines) - 1), label="line")
        how = data.draw(st.sampled_from(["json", "hostile", "field"]), label="how")
        if how == "json":
            lines[i] = json.dumps(data.draw(json_values, label="event"))
        elif how == "hostile":
            lines[i] = data.draw(st.sampled_from(HOSTILE), label="line text")
        else:
            lines[i] = lines[i].replace(":", ": " + data.draw(st.sampled_from(HOSTILE), label="value") + ",", 1)
    with _folder() as folder:
        (folder / "g.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8", errors="replace")
        _assert_clean(CliRunner().invoke(main, ["replay", "g.jsonl", "--check"]))


TUNE = ["tune", "--orders", "sample:3", "--rounds", "2", "--referee", "fast", "--workers", "1", "--no-progress"]


@pytest.fixture(scope="module")
def results_file(tmp_path_factory) -> bytes:
    folder = tmp_path_factory.mktemp("results")
    with contextlib.chdir(folder):
        assert CliRunner().invoke(main, [*TUNE, "--out", "r.sqlite"]).exit_code == 0
    return (folder / "r.sqlite").read_bytes()


@settings(FUZZ, max_examples=6)
@given(options=st.sampled_from(HOSTILE) | st.text(max_size=20) | json_values.map(json.dumps))
def test_stored_options_of_a_results_file(results_file, options):
    with _folder() as folder:
        path = folder / "r.sqlite"
        path.write_bytes(results_file)
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE meta SET value = ? WHERE key = 'options'", (options,))
        before = path.read_bytes()
        result = CliRunner().invoke(main, [*TUNE, "--out", "r.sqlite"])
        _assert_clean(result)
        assert result.exit_code == 2 and path.read_bytes() == before  # other options: refused, untouched


@FUZZ
@given(data=st.data())
def test_remembered_start_screen_choices(data, monkeypatch):
    from viewer.setup import GameSetup, load_setup, setup_path

    good = GameSetup().to_json()
    how = data.draw(st.sampled_from(["hostile", "json", "barrels", "name"]), label="how")
    if how == "hostile":
        text = data.draw(st.sampled_from(HOSTILE), label="file")
    elif how == "json":
        text = json.dumps(data.draw(json_values, label="file"))
    else:
        value = data.draw(st.sampled_from(HOSTILE) | st.text(max_size=8).map(json.dumps), label="value")
        text = good.replace("12", value, 1) if how == "barrels" else good.replace('"You"', value, 1)
    with _folder() as folder:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
        path = setup_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="replace")
        setup = load_setup()
        setup.config()  # what starting the game does with it
        assert type(setup.barrels) is int and all(seat.name.isprintable() for seat in setup.seats)
        assert not path.exists() or setup == GameSetup.from_json(text)  # a file not used whole is set aside


OPTION_VALUES = {
    "game": {"--players": ["abc", "0", "5", "Ann,Ben", ",", "nan", "\x00", "a" * 300, "1", "3", "1" * 5000],
             "--seed": ["-1", "x", "1" * 50, "7"], "--barrels": ["9", "12", "10", "9.0", "", "1" * 5000],
             "--params": ["good.toml", "pipe", "/dev/zero", "missing.toml", "."], "--bots": ["skilled", "robot", ""],
             "--referee": ["fast", "nope", ""], "--json": None, "--half-turn": None, "--sea-dogs": None},
    "tune": {"--orders": ["sample:2", "sample:0", "sample:x", "pipe", "missing.txt", "/dev/zero", "", "LMS",
                        "sample:" + "1" * 5000],
             "--rounds": ["1", "3", "0", "-2", "x", "1" * 40, "٣"],
             "--find": ["hardest:1", "hardest:0", "x:1", "", "easiest:" + "1" * 5000],
             "--out": ["r.sqlite", "", ".", "/dev/null", "missing/x.sqlite", "pipe"], "--barrels": ["9", "7"],
             "--sigma-mm": ["0", "21", "nan", "x"], "--wild": ["random", "joint", "x"], "--top": ["0", "2", "x"],
             "--params": ["good.toml", "pipe", "/dev/zero"], "--scheduler": ["nonsense"],
             "--workers": ["0", "1", "x", "999"], "--player": ["expert", "nobody"],
             "--half-widths": ["0.1,0.1", "x", "0,2"], "--confirm": ["1", "0"], "--csv": ["t.csv", "t/", ""]},
    "compare": {"--games": ["1", "0", "x", "1" * 30], "--players": ["1", "2", "5", "x"],
                "--out": ["c.sqlite", "", "pipe", "/dev/null"], "--params": ["good.toml", "pipe"],
                "--referee": ["fast", "nope"], "--plot": ["x.txt", "missing/p.png"]},
    "params": {"--params": ["good.toml", "pipe", "/dev/zero", "missing.toml", "."]},
}
BASES = {
    "game": ["game", "--referee", "fast"],
    "tune": TUNE,
    "compare": ["compare", "--games", "1", "--referee", "fast", "--workers", "1", "--no-progress"],
    "params": ["params"],
}


@settings(FUZZ, max_examples=16)
@given(data=st.data())
def test_command_options(data):
    from sim.params import default_params_text

    command = data.draw(st.sampled_from(sorted(OPTION_VALUES)), label="command")
    choices = OPTION_VALUES[command]
    args = list(BASES[command])
    for option in data.draw(st.lists(st.sampled_from(sorted(choices)), min_size=1, max_size=3, unique=True),
                            label="options"):
        values = choices[option]
        args += [option] if values is None else [option, data.draw(st.sampled_from(values), label=option)]
    with _folder() as folder:
        (folder / "good.toml").write_text(default_params_text(), encoding="utf-8")
        os.mkfifo(folder / "pipe")
        before = {p.name for p in folder.iterdir()}
        _assert_clean(CliRunner().invoke(main, args), before, folder)
