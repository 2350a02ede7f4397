"""Options and errors shared by several subcommands.

``--params FILE``, ``--seed``, ``--referee NAME``, ``--barrels 12|9``, ``--players``
(:func:`parse_players`), output paths (:func:`check_output`, checked before any work
starts); :class:`UserError` (one ``Error: ...`` line, exit 2) and :func:`game_config`,
which turns the one check of a game's set-up (:class:`kipp.rules.config.GameConfig`)
into such an error. The sweep commands (``kipp tune``, ``kipp compare``) share
:func:`sweep_options` (``--seed --params --referee --workers --scheduler``), ``--no-progress``,
their results file's errors (:func:`sweep_errors`), a scratch file when there is no ``--out``
(:func:`results_path`) and their ``--plot`` and ``--csv`` writers. A referee goes on by its
name: whoever plays builds it from :mod:`sim.referees` (tests register theirs there).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import tempfile
from pathlib import Path
from typing import Callable, Iterator

import click

from kipp.cli.language_option import command_language
from kipp.cli.words import Joined, Number, Text
from kipp.language import N_, Language
from kipp.rules.config import BARREL_COUNTS, MAX_PLAYERS, ConfigError, GameConfig, check_player_count
from sim.params import Params, ParamsError, load_params
from sim.referees import referee_names

_CONFIG_OPTIONS = {"players": "--players", "barrels": "--barrels", "half_turn": "--half-turn",
                   "sea_dogs": "--sea-dogs"}
"""GameConfig fields set by command-line options: their errors name the option."""


class UserError(click.ClickException):
    """A mistake in the user's input: printed as one ``Error: ...`` line, exit code 2."""

    exit_code = 2


def _user_error(error: ConfigError) -> UserError:
    option = _CONFIG_OPTIONS.get(error.field)
    message = library_error(error)
    return UserError(f"{option}: {message}" if option else message)


def library_error(error: Exception) -> str:
    """A library's one-line refusal in the command line's language (:mod:`kipp.cli.library_words`)."""
    from kipp.cli.library_words import library_words

    return library_words(str(error), command_language())


def game_config(**fields) -> GameConfig:
    """``GameConfig(**fields)``; its refusal becomes a :class:`UserError` naming the option."""
    try:
        return GameConfig(**fields)
    except ConfigError as error:
        raise _user_error(error) from None


def player_count(n: int) -> int:
    """``n`` if that many players can play, else a :class:`UserError` (GameConfig's check)."""
    try:
        check_player_count(n)
    except ConfigError as error:
        raise _user_error(error) from None
    return n


_COUNT = re.compile(r"[0-9]+")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def parse_players(text: str, option: str = "--players") -> int | tuple[str, ...]:
    """``--players`` of ``kipp game`` and ``kipp play``: a count N (an int, 1-4) or
    comma-separated names (a tuple).

    Anything else is a :class:`UserError`: an empty name, a count out of range, and a
    name that reads as a number (``-1``, ``2.5``, ``nan``, ``1e3``), which is a mistyped
    count rather than somebody's name.
    """
    language = command_language()
    _ = language.gettext
    text = text.strip()
    if _COUNT.fullmatch(text):
        if len(text) > MAX_DIGITS:
            raise UserError(_("{option}: a game has 1 to {max_players} players, got a number of {digits} digits")
                            .format(option=option, max_players=MAX_PLAYERS, digits=language.decimal(len(text))))
        return player_count(int(text))
    names = tuple(name.strip() for name in text.split(","))
    if not text or any(not name for name in names):
        raise UserError(_("{option}: expected a count (1-4) or comma-separated names such as \"Ann,Ben\", "
                          "got {text!r}").format(option=option, text=text))
    for name in names:
        if _is_number(name):
            raise UserError(_("{option}: expected a count (1-4) or comma-separated names, got {name!r} "
                              "(a name must not be a number)").format(option=option, name=name))
    player_count(len(names))
    return names


def check_output(option: str, path: str | Path | None, *, suffix: str | None = None) -> str | None:
    """``path`` if a file can be written there, else a :class:`UserError` saying why.

    Every command checks its output paths (``--out``, ``--plot``, ``--screenshot``) with
    this before any work starts: a folder given as a file, a missing folder, a "folder"
    that is a file, a folder or file we may not write. Writability is tried (a temporary
    file is made and removed at once), not inferred from permission bits, which root
    ignores. Nothing is left behind.
    """
    if path is None:
        return None
    _ = command_language().gettext
    text = str(path)
    target = Path(text)
    if not text or text.endswith(("/", os.sep)) or target.is_dir():
        raise UserError(_("{option}: {path} is a folder; give a file name in it").format(option=option, path=text))
    if suffix is not None and target.suffix.lower() != suffix:
        raise UserError(_("{option}: expected a {suffix} file name, got {path!r}").format(
            option=option, suffix=suffix, path=text))
    folder = target.parent
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise UserError(_("{option}: {ancestor} is a file, not a folder, so {path} cannot be written").format(
            option=option, ancestor=ancestor, path=text))
    if not folder.is_dir():
        raise UserError(_("{option}: no such directory {folder!r}").format(option=option, folder=str(folder)))
    try:
        probe = tempfile.NamedTemporaryFile(dir=folder, prefix=".kipp-probe-")
        probe.close()
    except OSError as error:
        raise UserError(_("{option}: cannot write in folder {folder} ({reason})").format(
            option=option, folder=folder, reason=error.strerror or error)) from None
    if target.exists():
        if not target.is_file():
            raise UserError(_("{option}: {path} exists and is not a regular file").format(option=option, path=text))
        try:
            with open(target, "r+b"):
                pass
        except OSError as error:
            raise UserError(_("{option}: cannot write {path} ({reason})").format(
                option=option, path=text, reason=error.strerror or error)) from None
    return text


@contextlib.contextmanager
def removed_on_error(path: str | Path | None, keep: Callable[[str], bool] | None = None) -> Iterator[None]:
    """If the body fails, remove ``path`` (and SQLite's side files) when the body created it
    (unless ``keep(path)`` says it holds work worth keeping): a run refused before it did
    any work leaves nothing behind."""
    existed = path is None or Path(path).exists()
    try:
        yield
    except BaseException:
        if not existed and not (keep is not None and Path(path).exists() and keep(str(path))):
            for name in (str(path), f"{path}-journal", f"{path}-wal", f"{path}-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(name)
        raise


def bounded(option: str, low: float, high: float, value: str | None, default: float | None = None) -> float | None:
    """A number ``low <= value <= high`` from option text, else a :class:`UserError`."""
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and low <= number <= high):
        raise UserError(command_language().gettext("{option}: expected a number >= {low} and <= {high}, got {value!r}")
                        .format(option=option, low=f"{low:g}", high=f"{high:g}", value=value))
    return number


@contextlib.contextmanager
def physics_errors(what: str = "the game stopped", keep: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
    """A referee refusing an impossible situation (a ``ValueError``) or the physics
    diverging (:class:`sim.world.PhysicsError`) becomes one :class:`UserError` line.

    Errors of the types in ``keep`` (bugs, not the user's mistakes) pass unchanged.
    """
    try:
        yield
    except keep:
        raise
    except ValueError as error:
        raise UserError(f"{what}: {error}") from None
    except RuntimeError as error:
        from sim.world import PhysicsError

        if not isinstance(error, PhysicsError):
            raise
        raise UserError(command_language().gettext("{what}: {error} (check [solver] in --params: more "
                                                   "steps_per_second or iterations)").format(what=what, error=error)
                        ) from None


def _load(ctx: click.Context, param: click.Parameter, value: str | None) -> Params:
    """``--params FILE``'s parameter set: the defaults overridden by FILE, the defaults without it."""
    try:
        return load_params(value)
    except ParamsError as error:
        raise UserError(f"--params: {library_error(error)}") from None





params_option = click.option(
    "--params", "params", metavar="FILE", default=None, callback=_load,
    help=N_("TOML parameter file overriding the defaults (see `kipp params`)."),
)
"""``--params FILE``: hands the command the parameter set (:class:`sim.params.Params`), the
defaults when it is not given."""

seed_option = click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True,
    help=N_("Root random seed: the same seed and options give the same result."),
)


def _barrels(ctx: click.Context, param: click.Parameter, value) -> int:
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) not in BARREL_COUNTS:
        _ = command_language().gettext
        raise UserError(_("--barrels: expected {choices}, got {value!r}").format(
            choices=_(" or ").join(map(str, BARREL_COUNTS)), value=value))
    return int(text)


barrels_option = click.option(
    "--barrels", default=str(BARREL_COUNTS[0]), show_default=True, metavar="|".join(map(str, BARREL_COUNTS)),
    callback=_barrels, help=N_("Barrels per round (9: the younger sailors' variant)."),
)


def check_referee(name: str, what: str = "--referee") -> str:
    """``name`` if it is a registered referee, else a :class:`UserError` naming the choices."""
    if name not in referee_names():
        raise UserError(command_language().gettext("{what}: unknown referee {name!r}; expected one of {names}").format(
            what=what, name=name, names=", ".join(referee_names())))
    return name


def referee_option(default: str | Callable[[], str], default_help: str | None = None):
    """``--referee NAME``, one of :func:`sim.referees.referee_names`, checked in a callback.

    ``default`` is a name or a function giving one (evaluated when the command runs);
    ``default_help`` describes it in ``--help`` (default: the name; words marked with ``N_``
    or a :class:`~kipp.cli.words.Text`, translated there).
    """
    names = referee_names()
    shown = default_help if default_help is not None else str(default)
    return click.option(
        "--referee", "referee_name", default=default, metavar="|".join(names),
        callback=lambda ctx, param, value: None if value is None else check_referee(value),
        help=Text(N_("Who decides crashes: {names} (physics is the ground truth; fast and hybrid "
                     "are faster approximations, see `kipp bench`; loop is physics without its compound fast path, "
                     "the referee `kipp play` animates and records) [default: {shown}]."),
                  names=", ".join(names), shown=Text(shown) if default_help is not None else shown),
    )


def check_player_model(option: str, name: str) -> str:
    """``name`` if it is a player model (:mod:`kipp.players.models`), else a one-line
    :class:`UserError` listing the known ones."""
    from kipp.players.models import MODELS

    if name not in MODELS:
        raise UserError(command_language().gettext("{option}: unknown player model {name!r}; known: {names}").format(
            option=option, name=name, names=", ".join(MODELS)))
    return name


_MODEL_WORDS = {
    "aim": {"centre": N_("aims at the centre of the top barrel"),
            "balance": N_("sets each barrel a little uphill of the coming tilt"),
            "learned": N_("aims by a policy trained on the Gymnasium environment"),
            "captain": N_("aims by a blend of the balance judgement and the learned aim, "
                          "fitted in games against itself")},
    "wild": {"leveler": N_("levels the deck on a wild roll"), "random": N_("turns any sailor on a wild roll"),
             "joint": N_("picks a wild roll's sailor with the aim"),
             "captain": N_("turns the wild roll's sailor it judges least likely to crash")},
    "passing": {"never": N_("never passes"), "cautious": N_("passes when the worst face could tip the tower"),
                "risk": N_("passes when its own crash estimate exceeds N/(2N+1) at N players"),
                "captain": N_("passes by its policy's bar (the risk rule with the shipped weights)")},
}
"""The words of :meth:`kipp.players.models.PlayerModel.describe`, marked for the catalogue (a test
checks that they make the same English)."""


def models_help() -> Joined:
    """:func:`kipp.players.models.models_help` (every model and what it does), to be translated."""
    from kipp.players.models import MODELS

    def hand(sigma_mm: float | None) -> Text:
        if sigma_mm is None:
            return Text(N_("the parameter set's hand"))
        return Text(N_("a {sigma_mm} mm hand"), sigma_mm=Number(float(sigma_mm)))

    return Joined("; ", [Text(N_("{name}: {aim}, {hand}, {wild}, {passing}"), name=m.name,
                              aim=Text(_MODEL_WORDS["aim"][m.aim]), hand=hand(m.sigma_mm),
                              wild=Text(_MODEL_WORDS["wild"][m.wild]), passing=Text(_MODEL_WORDS["passing"][m.passing]))
                         for m in MODELS.values()])


def player_model_option(option: str, help_intro: str):
    """``--bots MODEL`` / ``--player MODEL``: a named player model, checked in a callback.

    The help text (``help_intro``, marked with ``N_``) lists every model with what it does (one source
    of truth: :mod:`kipp.players.models`, see :func:`models_help`).
    """
    from kipp.players.models import DEFAULT_MODEL, MODELS

    dest = option.lstrip("-").replace("-", "_")
    return click.option(option, dest, default=DEFAULT_MODEL, show_default=True, metavar="|".join(MODELS),
                        callback=lambda ctx, param, value: check_player_model(option, value),
                        help=Text(N_("{intro} {models}."), intro=Text(help_intro), models=models_help()))



MAX_ROUNDS = 1_000_000
"""``--rounds`` per order and ``--games`` per arm at most (a million physics games run for weeks)."""
MAX_WORKERS = 256
"""``--workers`` at most (each is a process with its own copy of the physics)."""


MAX_DIGITS = 18
"""Digits of a whole-number option at most (a count of rounds, games, workers)."""


def whole_number(option: str, minimum: int, maximum: int | None = None):
    """A click callback: ``option`` must be a whole number >= ``minimum`` (and <= ``maximum``;
    one-line error)."""
    def convert(ctx, param, value):
        if value is None:
            return None
        language = command_language(ctx)
        _ = language.gettext
        text = str(value).strip()
        if len(text) > MAX_DIGITS:  # Python refuses past 4,300 digits; no count needs more than a few
            raise UserError(_("{option}: expected a whole number of at most {max_digits} digits, got {length} "
                              "characters").format(option=option, max_digits=MAX_DIGITS,
                                                   length=language.decimal(len(text))))
        if not (text.isascii() and text.isdigit()) or int(text) < minimum:
            raise UserError(_("{option}: expected a whole number >= {minimum}, got {value!r}").format(
                option=option, minimum=minimum, value=value))
        if maximum is not None and int(text) > maximum:
            raise UserError(_("{option}: expected a whole number from {minimum} to {maximum}, got {value!r}").format(
                option=option, minimum=minimum, maximum=language.decimal(maximum), value=value))
        return int(text)
    return convert


def check_scheduler(address: str | None) -> str | None:
    """``--scheduler``: a Dask address like ``tcp://HOST:PORT`` (one-line error otherwise)."""
    if address is not None and "://" not in address:
        raise UserError(command_language().gettext("--scheduler: expected an address like tcp://HOST:PORT, got "
                                                   "{address!r}").format(address=address))
    return address


def check_plot(path: str | None) -> str | None:
    """``--plot FILE.png``, checked before the sweep (:func:`check_output`)."""
    return check_output("--plot", path, suffix=".png")


def check_results_out(path: str | None) -> str | None:
    """``--out FILE`` of a sweep: a path a results file can be written at (an existing file
    is checked to be one when the sweep opens it, and resumed)."""
    return check_output("--out", path)


def save_plot(fig, path: str) -> None:
    """Write the figure to ``--plot`` and say so; an unwritable file is a one-line error."""
    from kipp.analysis.plots import save

    _ = command_language().gettext
    try:
        save(fig, path)
    except OSError as error:
        raise UserError(_("--plot: cannot write {path}: {reason}").format(path=path, reason=error.strerror or error)
                        ) from None
    click.echo(_("Plot: {path}").format(path=path))


def save_csv(rows, path: str, about: str) -> None:
    """Write ``--csv`` and say so; an unwritable file is a one-line error."""
    from kipp.analysis.export import write_csv

    _ = command_language().gettext
    try:
        write_csv(rows, path, about)
    except OSError as error:
        raise UserError(_("--csv: cannot write {path}: {reason}").format(path=path, reason=error.strerror or error)
                        ) from None
    click.echo(_("Table: {path}").format(path=path))


@contextlib.contextmanager
def sweep_errors(out: str | None = None) -> Iterator[None]:
    """Turn a results file or executor refusal during a sweep into the one-line CLI error.

    The run holds ``out``'s writer lock throughout (:func:`kipp.analysis.results_store.writer_lock`):
    a second run on the same file is refused at once, before it touches anything. A results
    file ``out`` that this run created is removed if the run fails (an unreachable
    --scheduler, say): a refused run leaves nothing behind. One that existed before is kept,
    as is one that holds the finished part of an interrupted run (a full disk, say).
    """
    from kipp.analysis.executor import ExecutorError
    from kipp.analysis.results_store import ResultsFileError, writer_lock

    try:
        with contextlib.ExitStack() as stack:
            if out is not None:
                stack.enter_context(writer_lock(out))
            stack.enter_context(removed_on_error(out, keep=_holds_results))
            yield
    except ResultsFileError as error:
        raise UserError(f"--out: {library_error(error)}") from None
    except ExecutorError as error:
        raise UserError(library_error(error)) from None


def _holds_results(path: str) -> bool:
    """Does the SQLite file ``path`` hold any finished item (a row of table ``results``)?"""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return db.execute("SELECT EXISTS (SELECT 1 FROM results)").fetchone()[0] == 1
    except sqlite3.Error:
        return False


@contextlib.contextmanager
def results_path(out: str | None) -> Iterator[str]:
    """``out``, or a results file in a scratch folder removed afterwards (results still stream to disk)."""
    if out is not None:
        yield out
        return
    with tempfile.TemporaryDirectory(prefix="kipp-sweep-") as scratch:
        yield str(Path(scratch) / "results.sqlite")


def default_referee() -> str:
    """``hybrid`` when it is registered, else ``physics``."""
    return "hybrid" if "hybrid" in referee_names() else "physics"


workers_option = click.option(
    "--workers", default=None, metavar="N", callback=whole_number("--workers", 1, MAX_WORKERS),
    help=Text(N_("Worker processes (default: all cores; at most {max_workers}); 1 runs in this process."),
              max_workers=MAX_WORKERS))
scheduler_option = click.option(
    "--scheduler", default=None, metavar="tcp://HOST:PORT",
    help=N_("Run the tasks on this Dask cluster instead (needs the 'dask' extra; workers need kipp installed)."))
analysis_referee_option = referee_option(default_referee, N_("hybrid if available, else physics"))
progress_option = click.option("--no-progress", is_flag=True, help=N_("No progress bar (it goes to stderr)."))


def shown_progress(no_progress: bool, language: Language) -> Language | bool:
    """What an analysis's ``progress`` is told: ``language`` (a bar with its label in it) unless
    ``--no-progress``."""
    return False if no_progress else language


def sweep_options(command, referee=analysis_referee_option):
    """--seed, --params, --referee, --workers and --scheduler, in that order: what every
    sweep command (``kipp tune``, ``kipp compare``) takes."""
    for option in reversed((seed_option, params_option, referee, workers_option, scheduler_option)):
        command = option(command)
    return command
