"""Every ``kipp`` command's ``--help`` and errors in German (``LANG=de_DE.UTF-8`` or ``--language de``),
English by default and as it was, machine output the same in both.

The German is checked against the English it translates, piece by piece (each paragraph of a
command's help, each option's help): every piece must differ from its English source unless it
is only option names and metavariables, the rendered ``--help`` must hold the German piece and
none of the English ones, and click's own words (``Usage:``, ``Options:``, ``Error:``) must be
German too. The English is checked against the help texts of the commit before the translation
(``golden_help/``, click's rendering through CliRunner at ``LANG=C``).
"""

from __future__ import annotations

import gettext
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.cli.language_option import language_in
from kipp.cli.options import models_help
from kipp.cli.words import Joined, translate
from kipp.language import Language

COMMANDS = ("game", "play", "tune", "compare", "design", "sensitivity", "params", "calibrate", "replay", "bench")
"""Every command."""

GOLDEN = Path(__file__).with_name("golden_help")
GERMAN = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "de_DE.UTF-8"}
C_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C"}
DE = Language("de")

def invoke(args: list[str], env: dict) -> click.testing.Result:
    return CliRunner().invoke(main, args, env=env)


def command(name: str) -> click.Command:
    return main if not name else main.get_command(click.Context(main), name)


def help_pieces(name: str) -> list[tuple[str, str]]:
    """(where, English) for each paragraph of the command's help and each option's help."""
    cmd = command(name)
    paragraphs = cmd.help.parts if isinstance(cmd.help, Joined) else cmd.help.split("\n\n")
    pieces = [(f"{name or 'kipp'} help", paragraph) for paragraph in paragraphs]
    for param in cmd.params:
        if isinstance(param, click.Option) and param.help:
            pieces.append((f"{name or 'kipp'} {param.opts[-1]}", param.help))
    return pieces


def only_names(text: str) -> bool:
    """Is ``text`` nothing but option names, metavariables, numbers and punctuation?"""
    rest = re.sub(r"--?[\w-]+|\b[A-Z][A-Z_.|:]*\b|[0-9.,]+", " ", text)
    return not re.search(r"[a-zäöüß]{2}", rest)


def squashed(text: str) -> str:
    """``text`` without any whitespace (so that wrapping at another width does not matter)."""
    return re.sub(r"\s+", "", text)


ALL_PIECES = [(name, where, english) for name in ("", *COMMANDS) for where, english in help_pieces(name)]


@pytest.mark.parametrize("name, where, english", ALL_PIECES, ids=[where for _, where, _ in ALL_PIECES])
def test_every_help_paragraph_has_german_of_its_own(name, where, english):
    german = translate(english, DE)
    assert german != english or only_names(english), f"{where} is not translated: {english!r}"


@pytest.mark.parametrize("name", ["", *COMMANDS])
@pytest.mark.parametrize("how", ["LANG", "--language"])
def test_the_german_help_shows_the_german_and_no_english(name, how):
    args = ([name] if name else []) + ["--help"]
    result = invoke(args, GERMAN) if how == "LANG" else invoke(["--language", "de", *args], C_LOCALE)
    assert result.exit_code == 0, result.output
    shown = squashed(result.output)
    for where, english in help_pieces(name):
        assert squashed(translate(english, DE)) in shown, where
        if not only_names(english):
            assert squashed(english) not in shown, f"{where} is English in the German help"
    assert result.output.startswith(f"Aufruf: kipp{' ' + name if name else ''} [OPTIONEN]")
    assert "\nOptionen:\n" in result.output and "Diese Hilfe zeigen und beenden." in result.output
    for word in ("Usage:", "Options:", "Show this message", "[default:", "[OPTIONS]"):
        assert word not in result.output, word


@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_the_language_option_after_the_command_wins(name):
    args = [name] if name else []
    english = invoke([*args, "--help"], C_LOCALE).output
    assert invoke(["--language", "de", *args, "--language", "en", "--help"], C_LOCALE).output == english
    assert invoke([*args, "--language", "en", "--help"], GERMAN).output == english
    assert invoke([*args, "--help", "--language", "de"], C_LOCALE).output == invoke([*args, "--help"], GERMAN).output


def without_language_option(text: str) -> str:
    """The help without the ``--language`` option's entry (the one option the translation added)."""
    lines, skipping = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("  --language "):
            skipping = True
        elif skipping and not line.startswith("   "):
            skipping = False
        if not skipping:
            lines.append(line)
    return "".join(lines)


@pytest.mark.parametrize("name", [name for name in COMMANDS if name != "params"])
def test_the_english_help_is_what_it_was(name):
    shown = invoke([name, "--help"], C_LOCALE)
    assert shown.exit_code == 0
    before = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert without_language_option(shown.output) == without_language_option(before)


@pytest.mark.parametrize("name", ["", "params"])
def test_the_english_help_text_is_what_it_was_where_the_new_option_widens_the_table(name):
    """``--language`` is the longest option of ``kipp`` and ``kipp params``: their option tables are
    wider now; the text above them is as it was (the group's tells of --language in a new paragraph)."""
    shown = invoke(([name] if name else []) + ["--help"], C_LOCALE).output
    before = (GOLDEN / f"{name or 'kipp'}.txt").read_text(encoding="utf-8")
    head = re.sub(r"  Every command speaks German or English.*?\n\n", "", shown.partition("Options:")[0], flags=re.S)
    assert head == before.partition("Options:")[0]


@pytest.mark.parametrize("args, german", [
    (["tune", "--bogus"], "Fehler: kipp tune: Keine Option '--bogus'."),
    (["nope"], "Fehler: kipp: Kein Befehl 'nope'."),
    (["calibrate", "--draws", "3"], "Fehler: kipp calibrate: Ungültiger Wert für '--draws': 3 liegt nicht im Bereich"),
    (["game", "--language", "fr"], "Fehler: kipp game: Ungültiger Wert für '--language': 'fr' ist nicht eins von"),
    (["compare", "--games", "x"], "Fehler: --games: erwartet eine ganze Zahl >= 1, bekam 'x'"),
    (["game", "--players", "Ann,,Ben"], "Fehler: --players: erwartet eine Anzahl (1-4) oder Namen mit Kommas"),
    (["play", "--max-frames", "0"], "Fehler: kipp play: Ungültiger Wert für '--max-frames': 0 liegt nicht im Bereich"),
    (["play", "--screenshot", "x.txt"], "Fehler: --screenshot: erwartet einen Dateinamen mit .png, bekam 'x.txt'"),
    (["play", "--players", "Ann,bot:nope"], "Fehler: --players: unbekanntes Spielermodell 'nope'"),
    (["replay", "x.jsonl", "--check", "--mute", "--max-frames", "3"], "Fehler: --max-frames: nur für das Nachspielen "
     "im Fenster"),
])
def test_a_bad_input_is_one_german_line_and_exit_2(args, german):
    result = invoke(args, GERMAN)
    assert result.exit_code == 2
    assert len(result.output.splitlines()) == 1, result.output
    assert result.output.startswith(german), result.output
    english = invoke(args, C_LOCALE)
    assert english.exit_code == 2 and english.output.startswith("Error: ") and english.output != result.output


def test_clicks_words_are_its_own_again_after_a_command_and_untouched_by_importing_kipp():
    import click.core
    import click.exceptions

    assert click.core._ is gettext.gettext and click.exceptions.ngettext is gettext.ngettext
    invoke(["tune", "--bogus"], GERMAN)
    assert click.core._ is gettext.gettext and click.exceptions.ngettext is gettext.ngettext
    assert click.core._("Usage:") == "Usage:"


def test_the_language_is_read_before_click_parses():
    assert language_in(["--language", "de", "tune", "--language", "en"], {}).code == "en"
    assert language_in(["tune", "--", "--language", "de"], {}).code == "en"
    assert language_in(["tune", "--language", "fr"], {"LANG": "de_DE.UTF-8"}).code == "de"


def test_the_models_listed_in_help_are_the_models_own_description():
    from kipp.players.models import models_help as described

    assert str(models_help()) == described()
    assert "zielt auf die Mitte des obersten Fasses" in models_help().translated(DE)


@pytest.mark.parametrize("args", [["params"], ["game", "--json", "--referee", "fast", "--seed", "3"]])
def test_machine_output_does_not_change_with_the_language(args):
    english, german = invoke(args, C_LOCALE), invoke(args, GERMAN)
    assert english.exit_code == german.exit_code == 0
    assert english.output == german.output


def test_a_sweeps_csv_and_results_file_do_not_change_with_the_language(tmp_path):
    import sqlite3

    outputs = {}
    for language in ("en", "de"):
        csv, out = tmp_path / f"{language}.csv", tmp_path / f"{language}.sqlite"
        result = invoke(["tune", "--language", language, "--referee", "fast", "--orders", "sample:3", "--rounds", "2",
                         "--workers", "1", "--no-progress", "--csv", str(csv), "--out", str(out)], C_LOCALE)
        assert result.exit_code == 0, result.output
        with sqlite3.connect(out) as db:
            rows = db.execute("SELECT * FROM results ORDER BY 1").fetchall()
        outputs[language] = (csv.read_bytes(), rows)
    assert outputs["en"] == outputs["de"]


@pytest.fixture
def bad_files(tmp_path, monkeypatch):
    """A working folder with a parameter file out of range, a folder and an orders file with a bad letter."""
    (tmp_path / "mu.toml").write_text("[friction]\nmu = 7.0\n")
    (tmp_path / "adir").mkdir()
    (tmp_path / "orders.txt").write_text("LLLLMMMMSSSX\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("args, german, english", [
    (["params", "--params", "mu.toml"], "Fehler: --params: mu.toml: friction.mu: muss zwischen 0.01 und 2 liegen, "
     "ist aber 7.0", "Error: --params: mu.toml: friction.mu: must be between 0.01 and 2, got 7.0"),
    (["replay", "adir", "--check"], "Fehler: adir: ist ein Ordner, keine Datei: Aufzeichnung (eine Datei von "
     "`kipp game --json`)", "Error: adir: is a folder, not a recording (a file of `kipp game --json`)"),
    (["replay", "nofile.jsonl", "--check"], "Fehler: nofile.jsonl: lässt sich nicht lesen: Aufzeichnung (eine Datei "
     "von `kipp game --json`) (", "Error: nofile.jsonl: cannot read recording (a file of `kipp game --json`) ("),
    (["tune", "--orders", "orders.txt", "--referee", "fast"], "Fehler: --orders: orders.txt Zeile 1: 'LLLLMMMMSSSX': "
     "falscher Buchstabe", "Error: --orders: orders.txt line 1: 'LLLLMMMMSSSX': bad letter"),
    (["game", "--players", "Ann,Ben,Cy,Di,Ed"], "Fehler: --players: ein Spiel hat 1 bis 4 Spieler (1 zum Üben), "
     "angegeben sind 5", "Error: --players: a game has 1 to 4 players (1 for practice), got 5"),
])
def test_the_librarys_refusals_reach_the_user_in_german(bad_files, args, german, english):
    result = invoke(args, GERMAN)
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1, result.output
    assert result.output.startswith(german), result.output
    assert invoke(args, C_LOCALE).output.startswith(english)


def test_a_message_no_template_knows_stays_as_the_library_wrote_it():
    from kipp.cli.library_words import library_words

    assert library_words("mu.toml: something the templates do not know", DE) == (
        "mu.toml: something the templates do not know")


def test_every_word_the_installed_click_asks_for_has_german():
    """The ``click`` catalogue against Babel's extraction of the installed click (a new click with new
    words fails here, until the catalogue is updated as its header says)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po

    from kipp.language import LOCALE_DIR

    asked = {message if isinstance(message, str) else message[0] for _f, _l, message, _c, _x in extract_from_dir(
        Path(click.__file__).parent, method_map=[("**.py", "python")], keywords={"_": None, "ngettext": (1, 2)})}
    with open(LOCALE_DIR / "de" / "LC_MESSAGES" / "click.po", "rb") as po:
        catalogue = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_po(po) if m.id}
    missing = sorted(word for word in asked if not catalogue.get(word) or not all(
        [catalogue[word]] if isinstance(catalogue[word], str) else catalogue[word]))
    assert not missing


def test_the_version_line_speaks_the_language_too():
    from importlib.metadata import version

    assert invoke(["--version"], C_LOCALE).output == f"kipp, version {version('kipp-kipp-ahoi')}\n"
    assert invoke(["--version"], GERMAN).output == f"kipp, Version {version('kipp-kipp-ahoi')}\n"


def test_a_command_run_alone_first_does_not_change_its_help_under_the_group():
    from kipp.cli.bench import bench

    assert CliRunner().invoke(bench, ["--help"], env=C_LOCALE).output.count("-h, --help") == 0
    assert "  -h, --help " in invoke(["bench", "--help"], C_LOCALE).output


@pytest.mark.parametrize("display, german", [
    (None, "Fehler: kein Bildschirm, auf dem ein Fenster aufgehen kann (DISPLAY und WAYLAND_DISPLAY sind nicht "
           "gesetzt); `kipp game` spielt ein ganzes Spiel ohne Fenster"),
    (":97", "Fehler: kann kein Fenster auf DISPLAY=:97 öffnen (dort antwortet kein Display-Server); `kipp game` "
            "spielt ein ganzes Spiel ohne Fenster"),
])
def test_without_a_display_the_window_says_so_in_one_german_line(display, german):
    """A real ``kipp play`` without a display to open a window on (SDL falls back to ``offscreen``)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env |= {"LANG": "de_DE.UTF-8"} | ({"DISPLAY": display} if display else {})
    if display and os.path.exists(f"/tmp/.X11-unix/X{display[1:]}"):
        pytest.skip(f"an X server listens on {display}")
    result = subprocess.run([sys.executable, "-m", "kipp", "play", "--players", "Ann,bot"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [german]



ENGLISH_THOUSANDS = re.compile(r"\d,\d{3}(?!\d)")
"""A number grouped by commas (1,000,000): English; German groups with a dot, and a comma is its decimal
separator (1.000.000, 4,6)."""


def test_the_german_help_groups_thousands_and_writes_decimals_as_german_does():
    """Every command's German help: no number grouped the English way, and the numbers that are prose (a
    bot's hand, how long --max-frames runs at most) with a decimal comma. Values typed on the command line
    (``--target 0.3``) keep their point: a German types them so too."""
    helps = {code: "".join(invoke([*([name] if name else []), "--help"], env).output for name in ("", *COMMANDS))
             for code, env in (("en", C_LOCALE), ("de", GERMAN))}
    english, german = squashed(helps["en"]), squashed(helps["de"])
    assert ENGLISH_THOUSANDS.search(helps["en"]) and "a0.5mmhand" in english and "4.6hours" in english
    assert not ENGLISH_THOUSANDS.findall(helps["de"]), sorted(set(ENGLISH_THOUSANDS.findall(helps["de"])))
    for words in ("eine Hand mit 0,5 mm", "höchstens 1.000.000 (4,6 Stunden", "(höchstens 1.000.000)",
                  "1,5 mm als Vorgabe"):
        assert squashed(words) in german, words
