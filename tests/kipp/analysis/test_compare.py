"""``kipp compare``: arms share seeds (common random numbers), results do not depend on the
executor, the results file resumes and refuses other options, and the table, plot and
errors of the CLI. The threshold referee stands in for physics."""

from __future__ import annotations

import json
import sqlite3

import matplotlib
import pytest
from click.testing import CliRunner

import kipp.analysis.compare
import kipp.cli.game
from kipp.analysis.compare import (
    ARMS,
    METRICS,
    compare_chunk,
    compare_panel,
    game_seed,
    play_arm_events,
    play_arm_game,
    run_compare,
)
from kipp.analysis.difficulty.sweeps import summarise_row
from kipp.analysis.plots import difficulty_histogram, difficulty_vs_feature
from kipp.analysis.results_store import ResultsFileError
from kipp.cli import main
from sim.params import load_params
from sim.referees import registered_referee
from tests.kipp.kipp_referees import ThresholdReferee, standing_in

PARAMS = load_params()


def threshold(params):
    return ThresholdReferee(seed=2, crash_rate=0.03, tilt_budget_deg=60.0, ship=params.ship)


@pytest.fixture(autouse=True)
def _threshold_registered():
    """The comparisons of these tests name their referee ``threshold``."""
    with registered_referee("threshold", threshold):
        yield


def test_game_g_of_an_arm_is_kipp_game_with_its_seed():
    record = play_arm_game("Old Sea Dogs", 3, threshold(PARAMS), PARAMS, 7, 4)
    result = CliRunner().invoke(main, ["game", "--json", "--players", "3", "--sea-dogs", "--referee", "threshold",
                                       "--seed", str(game_seed(7, 4))])
    events = [json.loads(line) for line in result.output.splitlines()]
    ends = [e for e in events if e["event"] == "round_end"]
    assert record.completed == tuple(e["completed"] for e in ends)
    assert record.stacked == tuple(e["stacked"] for e in ends)
    assert record.winner_chips == max(events[-1]["chips"])
    assert record.crashes == sum(e["event"] == "crash" for e in events)


def test_arms_share_the_die_rolls_of_game_g():
    """Game g of every arm starts from one seed: the same die rolls and placement errors.

    The first rolls of game 1 of "standard" and "half turns" are equal, and so are the first
    two placements (aimed at the tower spot and at the first barrel, which the recess
    centres, so they differ only by the placement errors; later aims follow towers that the
    arms tilt differently); game 2 is another game."""

    def opening(arm, g, n=5):
        events = play_arm_events(arm, 2, threshold(PARAMS), PARAMS, 3, g)
        faces = [e["face"] for e in events if e["event"] == "roll"][:n]
        offsets = [e["offset_mm"] for e in events if e["event"] == "place"][:2]
        assert len(faces) == n and len(offsets) == 2
        return faces, offsets

    assert opening("standard", 1) == opening("half turns", 1)
    assert opening("standard", 1) != opening("standard", 2)
    records = compare_chunk(tuple(ARMS), 2, "threshold", PARAMS, 3, "casual", [1])
    assert [r.arm for r in records] == list(ARMS) and {r.game for r in records} == {1}


def test_results_are_identical_with_1_and_2_workers():
    one = run_compare(6, players=2, seed=1, params=PARAMS, referee="threshold", workers=1)
    two = run_compare(6, players=2, seed=1, params=PARAMS, referee="threshold", workers=2)
    assert one == two
    assert [s.arm for s in one] == list(ARMS) and all(s.games == 6 for s in one)
    standard = one[0]
    assert 0 <= standard.completion[1] <= standard.completion[0] <= standard.completion[2] <= 1


def _stored(path):
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return db.execute("SELECT * FROM results ORDER BY key").fetchall()


def test_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path, monkeypatch):
    """Each of the 6 games is a task (one worker); Ctrl-C in the third leaves two whole games."""
    kwargs = dict(players=2, seed=1, params=PARAMS, referee="threshold", workers=1)
    whole = tmp_path / "whole.sqlite"
    expected = run_compare(6, out=whole, **kwargs)
    assert expected == run_compare(6, **kwargs)  # without a file: the same summaries

    calls = 0
    real = kipp.analysis.compare.compare_chunk

    def interrupted(*args):
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(*args)

    broken = tmp_path / "broken.sqlite"
    monkeypatch.setattr(kipp.analysis.compare, "compare_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_compare(6, out=broken, **kwargs)
    monkeypatch.undo()
    assert len(_stored(broken)) == 2 * len(ARMS)  # the two finished games of every arm, nothing more
    played = []
    monkeypatch.setattr(kipp.analysis.compare, "compare_chunk", lambda *args: played.append(args[-1]) or real(*args))
    assert run_compare(6, out=broken, **kwargs) == expected
    assert sorted(g for games in played for g in games) == [2, 3, 4, 5]  # no game played twice
    assert _stored(broken) == _stored(whole)
    played.clear()
    assert run_compare(6, out=broken, **kwargs) == expected and played == []


def test_more_games_extend_the_file_and_fewer_read_its_first_games(tmp_path):
    kwargs = dict(players=2, seed=4, params=PARAMS, referee="threshold", workers=1)
    out = tmp_path / "r.sqlite"
    few = run_compare(3, out=out, **kwargs)
    assert run_compare(7, out=out, **kwargs) == run_compare(7, **kwargs)
    assert len(_stored(out)) == 7 * len(ARMS)
    assert run_compare(3, out=out, **kwargs) == few


def test_other_options_are_refused(tmp_path):
    out = tmp_path / "r.sqlite"
    run_compare(2, players=2, seed=1, params=PARAMS, referee="threshold", out=out)
    before = out.read_bytes()
    with pytest.raises(ResultsFileError, match=r"players: 2 in the file, 3 now"):
        run_compare(2, players=3, seed=1, params=PARAMS, referee="threshold", out=out)
    with pytest.raises(ResultsFileError, match=r"arms: "):
        run_compare(2, players=2, seed=1, params=PARAMS, referee="threshold", out=out, arms=("standard",))
    assert out.read_bytes() == before


def test_plots_return_what_they_drew():
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summaries = run_compare(3, players=2, seed=0, params=PARAMS, referee="threshold", workers=1)
    fig, ax = plt.subplots()
    drawn = compare_panel(summaries, "stacked", ax)
    assert len(drawn.lines[0].get_xdata()) == len(ARMS) and ax.get_title() == METRICS["stacked"]
    orders = [summarise_row(line, 10, c, hist) for line, c, hist in [
        ("LLLLMMMMSSSS", 2, [0] * 6 + [3, 1, 1, 1, 1, 1, 2]),
        ("SSSSMMMMLLLL", 0, [2] * 5 + [0] * 8),
        ("LMSLMSLMSLMS", 1, [0] * 9 + [4, 5, 0, 1])]]
    fig2, (a, b) = plt.subplots(1, 2)
    assert len(difficulty_histogram(orders, a)) > 0
    points = difficulty_vs_feature(orders, b)
    assert list(points.lines[0].get_xdata()) == [2.5, 10.5, 5.5]
    plt.close(fig)
    plt.close(fig2)


def run(*args):
    return CliRunner().invoke(main, ["compare", *args])


@pytest.fixture
def fast_referee():
    with standing_in(threshold):
        yield


def test_cli_table_and_plot(fast_referee, tmp_path):
    plot = tmp_path / "c.png"
    result = run("--games", "4", "--players", "3", "--workers", "1", "--no-progress", "--plot", str(plot))
    assert result.exit_code == 0, result.output
    for arm in ARMS:
        assert arm in result.output
    assert "paired game by game" in result.output and plot.stat().st_size > 10_000


def test_cli_results_file_resumes_and_refuses_other_options(fast_referee, tmp_path):
    out = tmp_path / "c.sqlite"
    args = ["--players", "2", "--seed", "3", "--workers", "1", "--no-progress", "--out", str(out)]
    part = run("--games", "2", *args)
    assert part.exit_code == 0, part.output
    result = run("--games", "4", *args)
    assert result.exit_code == 0 and f"Every game of every arm: {out}" in result.output, result.output
    fresh = run("--games", "4", *args[:-2])
    assert fresh.exit_code == 0 and result.output.startswith(fresh.output)  # resumed = uninterrupted
    assert len(_stored(out)) == 4 * len(ARMS)
    again = run("--games", "4", *args)
    assert again.exit_code == 0 and again.output == result.output
    for other, text in [(["--seed", "4"], "seed: 3 in the file, 4 now"),
                        (["--players", "3"], "players: 2 in the file, 3 now"),
                        (["--referee", "physics"], "referee: 'hybrid' in the file, 'physics' now")]:
        refused = run("--games", "4", *args, *other)
        assert refused.exit_code == 2, refused.output
        lines = refused.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: --out:") and text in lines[0], refused.output
    assert len(_stored(out)) == 4 * len(ARMS)


@pytest.mark.parametrize("args, text", [
    ([], "--games: how many games per arm?"),
    (["--games", "0"], "--games: expected a whole number >= 1"),
    (["--games", "2", "--players", "5"], "--players: a game has 1 to 4 players"),
    (["--games", "2", "--referee", "oracle"], "--referee: unknown referee 'oracle'"),
    (["--games", "2", "--plot", "/no/such/dir/c.png"], "--plot: no such directory"),
])
def test_cli_bad_input(fast_referee, args, text):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and text in lines[0], result.output
