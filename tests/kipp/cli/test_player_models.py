"""Player models on the command line: --bots, bot:MODEL seats, --player; recorded in transcripts."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.cli.play import parse_bot_models
from kipp.players.models import MODELS, models_help


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_game_bots_play_the_model_and_the_recording_names_it(fast_referee, tmp_path):
    result = run("game", "--bots", "skilled", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    header = json.loads(result.output.splitlines()[0])
    assert header["models"] == ["skilled", "skilled"]
    path = tmp_path / "game.jsonl"
    path.write_text(result.output, encoding="utf-8")
    check = run("replay", str(path), "--check")
    assert check.exit_code == 0, check.output
    assert "Bot 1 (skilled), Bot 2 (skilled)" in check.output


def test_models_change_the_game(fast_referee):
    """Same seed, other model: other placements (the balance aim leans, the novice's hand shakes)."""
    outputs = {m: run("game", "--bots", m, "--seed", "3", "--json").output for m in MODELS}
    places = {m: [e["offset_mm"] for e in map(json.loads, out.splitlines()) if e["event"] == "place"][:6]
              for m, out in outputs.items()}
    assert len({json.dumps(p) for p in places.values()}) == len(MODELS)


@pytest.mark.parametrize("args", [["game", "--bots", "pirate"], ["tune", "--player", "pirate"],
                                  ["compare", "--games", "2", "--player", "pirate"],
                                  ["play", "--players", "Ann,bot:pirate", "--max-frames", "1"]])
def test_an_unknown_model_is_one_line_listing_the_known_ones(args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "unknown player model 'pirate'" in lines[0]
    assert "known: novice, casual, skilled, expert, learned" in lines[0]


def test_play_seats_name_their_models():
    names, bots, models = parse_bot_models("Ann,bot:skilled,bot:novice,bot")
    assert names == ("Ann", "Bot 1 (skilled)", "Bot 2 (novice)", "Bot 3")
    assert bots == (1, 2, 3) and models == {1: "skilled", 2: "novice", 3: "casual"}


@pytest.mark.parametrize("command", ["game", "tune", "compare"])
def test_help_lists_every_model_with_what_it_does(command):
    text = " ".join(run(command, "--help").output.split())
    assert " ".join(models_help().split()) in text
