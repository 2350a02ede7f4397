"""The ``kipp`` command: a group of subcommands, each in a module of its own.

Subcommands are imported lazily so that ``kipp --help`` stays fast and a subcommand's
heavy imports (pymunk, pygame, scipy) load only when it runs. User mistakes exit with
code 2 and one clear line, never a traceback: click's own usage errors (an unknown option,
a value out of range) included, which click would print as four lines (usage, hint, blank,
error). So does a failure of the system to do what the command asked (an ``OSError`` no
command turned into its own message): a full disk under the standard output
(``kipp game --json > /dev/full``), a file that vanished; a standard output that cannot be
written is then let go (pointed at ``/dev/null``), so that Python's exit does not fail on it
a second time. Help, errors and click's own words are in the command line's language
(``--language``, else the locale: :mod:`kipp.cli.language_option`, :mod:`kipp.cli.words`).
"""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys

import click

from kipp.cli.language_option import command_language, language_option
from kipp.cli.words import TranslatedHelp, paragraphs, translate
from kipp.language import N_

# name -> (module, attribute, one-line help shown in `kipp --help`)
_SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "game": ("kipp.cli.game", "game", N_("Play a whole game headless with bots; print a transcript.")),
    "replay": ("kipp.cli.replay", "replay", N_("Re-play a recorded JSON game; --check verifies it.")),
    "play": ("kipp.cli.play", "play", N_("Play on screen: people and bots, physics in real time.")),
    "params": ("kipp.cli.params", "params", N_("Print the default parameter file (TOML) to copy and edit.")),
    "calibrate": ("kipp.cli.calibrate", "calibrate", N_("Fit the parameters to measurements of a real set.")),
    "bench": ("kipp.cli.bench", "bench", N_("Measure referee speeds and agreement with physics on this machine.")),
    "tune": ("kipp.cli.tune", "tune", N_("Rank barrel orders by difficulty (P(complete), barrels stacked).")),
    "compare": ("kipp.cli.compare", "compare", N_("Compare the standard game with the variants, with intervals.")),
    "sensitivity": ("kipp.cli.sensitivity", "sensitivity",
                    N_("How the answers move over the toy's uncertain parameters.")),
    "design": ("kipp.cli.design", "design", N_("The value of one parameter that gives a target completion rate.")),
}


def _one_line(error: click.UsageError) -> click.ClickException:
    """A click usage error as one ``Error: <command>: <message>`` line (exit 2)."""
    from kipp.cli.options import UserError

    where = error.ctx.command_path if error.ctx is not None else "kipp"
    message = " ".join(error.format_message().split())
    return UserError(f"{where}: {message}")  # click's words, in the command line's language


def _system_error(ctx: click.Context, error: OSError) -> click.ClickException:
    """An ``OSError`` that reached the top as one ``Error: <command>: <what failed>`` line (exit 2)."""
    from kipp.cli.options import UserError

    _ = command_language(ctx).gettext
    where = ctx.invoked_subcommand and f"{ctx.command_path} {ctx.invoked_subcommand}" or ctx.command_path
    reason = error.strerror or str(error)
    if _stdout_broken() or (error.filename is None and _raised_by_echo(error)):
        return UserError(_("{where}: cannot write the standard output ({reason})").format(where=where, reason=reason))
    if error.filename is None:
        return UserError(_("{where}: failed ({reason})").format(where=where, reason=reason))
    return UserError(_("{where}: cannot use {file} ({reason})").format(where=where, file=error.filename,
                                                                       reason=reason))


def _raised_by_echo(error: BaseException) -> bool:
    """Was ``error`` raised inside ``click.echo`` (writing the standard output)?"""
    trace = error.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_name == "echo" and code.co_filename.endswith(os.path.join("click", "utils.py")):
            return True
        trace = trace.tb_next
    return False


def _stdout_broken() -> bool:
    """Does the standard output refuse what is written to it? If so it is pointed at /dev/null,
    so that what is left in its buffer does not fail again (and loudly) when Python exits."""
    try:
        sys.stdout.flush()
    except OSError:
        pass
    else:
        return False
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a file (a test's capture)
        pass
    return True


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``kipp --version``: click's line (``kipp, version 0.1.0``), in the command line's language."""
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from kipp.cli.click_words import click_word

    message = click_word(command_language(ctx), "%(prog)s, version %(version)s")
    click.echo(message % {"prog": ctx.find_root().info_name, "package": "kipp-kipp-ahoi",
                          "version": version("kipp-kipp-ahoi")})
    ctx.exit()


class _LazyGroup(TranslatedHelp, click.Group):
    """Subcommands imported on demand; usage errors on one line (the contract of every
    subcommand: bad input gets one ``Error: ...`` line and exit code 2, never a traceback);
    words in the command line's language (:class:`kipp.cli.words.TranslatedHelp`)."""

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise  # `kipp` alone prints the help
        except click.UsageError as error:
            raise _one_line(error) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:
            raise _one_line(error) from None
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise  # a reader that went away (`kipp game | head`): click's own quiet exit
            raise _system_error(ctx, error) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in _SUBCOMMANDS:
            return None
        module, attribute, _ = _SUBCOMMANDS[name]
        return getattr(importlib.import_module(module), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from kipp.cli.click_words import click_word

        language = command_language(ctx)
        rows = [(name, translate(_SUBCOMMANDS[name][2], language)) for name in self.list_commands(ctx)]
        with formatter.section(click_word(language, "Commands")):
            formatter.write_dl(rows)


@click.group("kipp", cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, help=paragraphs(
    N_("Kipp, Kipp, Ahoi! -- stack barrels on a tilting ship, on screen and in the lab."),
    N_("Physics (a 2D pymunk model of the ship, its three sailor screws and the barrel tower) decides every "
       "crash. Parameters come from sim/default_params.toml (`kipp params` prints them), overridable with "
       "--params FILE on every subcommand that uses them. Bad input gets one \"Error: ...\" line and exit "
       "code 2."),
    N_("Every command speaks German or English: --language de|en, here or after the command (kipp --language "
       "de tune --help, kipp tune --language de); without it the system's locale (LANG) decides."),
))
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and exit.")
@language_option
def main(language) -> None:
    """The ``kipp`` group (its help is the ``help`` above; the commands do the work)."""


def run(**options) -> None:
    """The ``kipp`` command as a program (its console script, ``python -m kipp``): :func:`main`, where
    SIGTERM stops it as Ctrl-C does. The stop unwinds, so a sweep's worker processes end with it
    (they would otherwise play on for minutes) and its results file keeps the tasks it finished.
    Exit code 143, as for a process SIGTERM ends. ``options`` go to click's ``main``."""
    signal.signal(signal.SIGTERM, _stop)
    main(**options)


def _stop(signum: int, _frame) -> None:
    raise SystemExit(128 + signum)
