"""The tables and reports the commands print, and their progress bars, in German (``--language de``);
in English as they were.

Each command runs a small seeded sweep twice, in English and in German. The English report must be
the one the commands printed before their reports were translated (``golden_reports/``, printed by
the same command lines at ``LANG=C``). The German report must have the English's lines, each of them
translated: once the words that are the same in every language are taken out (barrel orders, numbers,
option names, referee and player-model names), no word of an English line may be left in its German
line (a header or a label left unmarked fails).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kipp.analysis.parameters.uncertain import UNCERTAIN
from kipp.cli import main

GOLDEN = Path(__file__).with_name("golden_reports")
C_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C"}
QUIET = ["--referee", "fast", "--workers", "1", "--no-progress"]

RUNS = {
    "compare": ["compare", "--games", "4", *QUIET],
    "tune": ["tune", "--orders", "sample:6", "--rounds", "4", "--top", "2", *QUIET],
    "race": ["tune", "--find", "hardest:1,easiest:1", "--orders", "sample:4", "--rounds", "8", *QUIET],
    "sensitivity": ["sensitivity", "--games", "4", "--only", "friction,turn rate", *QUIET],
    "design": ["design", "--games", "8", "--target", "0.1", *QUIET],
    "quality": ["tune", "--orders", "sample:8", "--rounds", "4", "--physics-rounds", "2", "--anchors", "4",
                "--top", "2", "--workers", "1", "--no-progress"],
    "calibrate": ["calibrate", "m.toml", "--out", "out.toml", "--draws", "60", "--no-check"],
}
"""Name (of the golden file) -> a command line printing a report; a few rounds of the fast referee (and of
physics, for the physics-quality estimate), in a folder holding the synthetic measurements as ``m.toml``."""

CPU_TIMES = r"(?<=Physics share of the CPU time: )\d+% \([\d,]+ CPU s, [\d,]+ s wall\)"
"""What the same command line measures differently each time: the physics-quality estimate's CPU and wall
times."""

SAME_IN_EVERY_LANGUAGE = (
    r"\b[LMS]{4,}\b",  # barrel orders
    r"--[\w-]+",  # option names
    r"\b(?:physics|fast|hybrid|loop|novice|casual|skilled|expert|learned|captain|centre|balance|leveler|random|"
    r"joint|mm|ms|p90|p99|Wilson|Student|t|x|exp)\b|P\(complete\)",  # referees, player models, statistics' names
    r"\b[a-z]+\.[a-z_.]+\b|\b\w+_\w+\b",  # parameter keys (ship.thread_pitch_mm, sigma_game_mm), file names
    r"\bbarrel-\w+",  # the measurement file's names of slide pairs
    r"[-+]?\d[\d.,]*",  # numbers
    "|".join(u.name for u in UNCERTAIN),  # the parameters, as --only names them
)
"""What a translated line keeps as the English has it."""

WORDS_OF_BOTH = {"in", "mu", "tan", "CPU", "minus", "deg", "chi", "Hosmer", "Lemeshow", "ok"}
"""Words English and German share."""


@pytest.fixture(autouse=True)
def measurements(tmp_path, monkeypatch):
    """A working folder with the synthetic measurements as ``m.toml`` (what ``kipp calibrate`` reads)."""
    from calibration import SYNTHETIC_PATH

    (tmp_path / "m.toml").write_bytes(SYNTHETIC_PATH.read_bytes())
    monkeypatch.chdir(tmp_path)


def invoke(args: list[str], language: str):
    result = CliRunner().invoke(main, ["--language", language, *args], env=C_LOCALE)
    assert result.exit_code == 0, result.output
    return result


def words_of(line: str) -> str:
    """``line`` without what every language writes alike, and without its spacing and punctuation."""
    for pattern in SAME_IN_EVERY_LANGUAGE:
        line = re.sub(pattern, " ", line)
    return " ".join(re.findall(r"[^\W\d_]{2,}", line))


@pytest.mark.parametrize("name", RUNS)
def test_the_english_report_is_as_it_was(name):
    english, golden = invoke(RUNS[name], "en").output, (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert re.sub(CPU_TIMES, "", english) == re.sub(CPU_TIMES, "", golden)


def left_english(english: str, german: str) -> list[str]:
    """The lines of ``german`` that keep a word of their English line (the lines paired in order)."""
    english_lines, german_lines = english.splitlines(), german.splitlines()
    assert len(german_lines) == len(english_lines), german
    return [f"{sorted(kept)}: {de}" for en, de in zip(english_lines, german_lines)
            if (kept := set(words_of(en).split()) & set(words_of(de).split()) - WORDS_OF_BOTH)]


@pytest.mark.parametrize("name", RUNS)
def test_every_line_of_the_german_report_is_german(name):
    left = left_english(invoke(RUNS[name], "en").output, invoke(RUNS[name], "de").output)
    assert not left, "\n".join(left)


BENCH_FIGURES = {
    "physics_plain_turn_ms_median": 41.25, "physics_loop_turn_ms_median": 12.5, "physics_turn_ms_median": 3.75,
    "physics_turn_ms_p90": 9.05, "fast_decisions_per_s": 123456.7, "fast_batch_decisions_per_s": 2345678.9,
    "speedup_2_workers": 1.87, "machine_speedup_2_processes": 1.95,
    "rounds_per_s_per_core": {"physics": 2.25, "fast": 1234.5, "hybrid": 45.75},
    "benchmark_situations": 240, "agreement": {"fast": 0.9625, "hybrid": 0.995},
    "hybrid_physics_share": 0.125, "hybrid_physics_share_games": 0.0875,
    "model_rounds_per_s": {"casual": 1500.0, "expert": 150.5},
    "model_round_cost": {"casual": 1.0, "expert": 9.97}, "model_barrel_cost": {"casual": 1.0, "expert": 8.5},
    "viewer": {"tower12": {"median_ms": 4.25, "p99_ms": 11.5}, "all": None},
}
"""Figures of the shape :func:`lab.bench.measure` returns (``kipp bench``'s table of them is measured, so
never twice the same)."""


def test_the_bench_table_is_german_with_german_numbers_and_english_as_it_was():
    from kipp.language import SEPARATORS, Language
    from lab.bench import table

    english, german = table(BENCH_FIGURES), table(BENCH_FIGURES, Language("de").gettext, SEPARATORS["de"])
    assert english + "\n" == (GOLDEN / "bench.txt").read_text(encoding="utf-8")
    left = left_english(english, german)
    assert not left, "\n".join(left)
    assert "2.345.679 /s" in german and "96,2%" in german


def column_spans(line: str) -> list[tuple[int, int]]:
    """Where each column of a table line starts and ends (columns are apart by two spaces or more)."""
    return [m.span() for m in re.finditer(r"\S+(?: \S+)*", line)]


@pytest.mark.parametrize("name, header", [("compare", ("arm", "Variante")), ("tune", ("rank", "Platz")),
                                          ("sensitivity", ("parameter", "Parameter")),
                                          ("calibrate", ("parameter", "Parameter"))])
def test_the_german_table_keeps_the_english_layout(name, header):
    """Under every header the cells sit as they do in English, measured from the header: a left-aligned
    column's cells start where they do, a right-aligned one's end where they do, so the columns widen
    with a longer German header instead of running into the next."""
    layouts = []
    for language, first in zip(("en", "de"), header):
        lines = invoke(RUNS[name], language).output.splitlines()
        at = next(i for i, line in enumerate(lines) if line.lstrip().startswith(first))
        heads, cells = column_spans(lines[at]), column_spans(lines[at + 1])
        assert len(heads) == len(cells), (lines[at], lines[at + 1])
        layouts.append([(cell[0] - head[0], cell[1] - head[1]) for head, cell in zip(heads, cells)])
    english, german = layouts
    for column, ((start, end), (de_start, de_end)) in enumerate(zip(english, german)):
        assert start == de_start or end == de_end, f"column {column}: {english} in English, {german} in German"


def test_the_progress_bar_speaks_the_command_s_language():
    args = [a for a in RUNS["compare"] if a != "--no-progress"]
    assert "Spiele x Varianten" in invoke(args, "de").stderr
    assert "games x arms" in invoke(args, "en").stderr
