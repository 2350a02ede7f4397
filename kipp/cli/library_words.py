"""The library's one-line refusals in the command line's language, translated where the CLI prints them.

The library (``sim``, ``kipp.rules``, ``kipp.analysis``) words its errors in English and knows no
language; a message is built from parts (a file name, a key, a value). Each sentence a person
meets through a ``kipp`` command is listed here as its English template, marked for the catalogue:
:func:`library_words` finds the template a message was made from (after any ``FILE: `` or
``KEY: `` prefixes, which stay as they are), translates it and fills the same parts back in, each
part itself translated where it is a known sentence. A message that no template matches is
shown as it is, in English.

The sources covered: the game's set-up (:class:`kipp.rules.config.ConfigError`), the parameter
files (:class:`sim.toml_schema.TomlError`, :class:`sim.params.ParamsError`), the user files read
with :func:`sim.user_files.read_user_file` and :func:`sim.user_files.loads_json`, the results
files and their writer lock (:mod:`kipp.analysis.results_store`, :mod:`kipp.analysis.results_lock`)
the barrel orders of ``kipp tune --orders`` (:mod:`kipp.analysis.orders`) and its ``--find``
(:mod:`kipp.analysis.difficulty.racing`), the executors of the sweeps (:mod:`kipp.analysis.executor`),
``kipp design``'s question (:mod:`kipp.analysis.parameters.design`) and the recordings that
``kipp replay`` reads (:mod:`kipp.rules.transcript`, :mod:`kipp.rules.replay`), the uncertain
parameters of ``kipp sensitivity --only`` and most of ``kipp calibrate``'s refusals of a
measurement file and of a fit (:mod:`calibration`).
"""

from __future__ import annotations

import re
import string
from functools import lru_cache

from kipp.language import N_, SOURCE_LANGUAGE, Language

TEMPLATES = (
    # kipp.rules.config
    N_("a game has 1 to {max_players} players (1 for practice), got {count}"),
    N_("player names must be non-empty, got {names}"),
    N_("barrels must be 12 or 9 (younger sailors), got {barrels}"),
    # sim.user_files
    N_("is a folder, not a {what}"),
    N_("cannot read {what} ({reason})"),
    N_("is {kind}, not a {what}"),
    N_("larger than {size}: not a {what}"),
    N_("a FIFO (named pipe)"),
    N_("a device"),
    N_("a socket"),
    N_("not a regular file"),
    N_("a number with {digits} digits (at most {max_digits})"),
    N_("a number written with {length} characters (at most {max_length})"),
    N_("a number too large ({text}...)"),
    N_("{text} is not a number JSON allows"),
    N_("nested deeper than {levels} levels"),
    N_("not JSON ({reason})"),
    # sim.toml_schema, sim.params
    N_("not UTF-8 text (byte {byte} at offset {offset}); save it as UTF-8"),
    N_("not valid TOML ({reason})"),
    N_("not a file of ours ({reason})"),
    N_("expected an integer, got {value}"),
    N_("expected a number, got {value}"),
    N_("must be a finite number, got {value}"),
    N_("must be > 0, got {value}"),
    N_("must be between {low} and {high}, got {value} ({why})"),
    N_("must be between {low} and {high}, got {value}"),
    N_("must be >= {low}, got {value} ({why})"),
    N_("must be >= {low}, got {value}"),
    N_("must be <= {high}, got {value} ({why})"),
    N_("must be <= {high}, got {value}"),
    N_("must be one of {options}, got {value}"),
    N_("expected a string, got {value}"),
    N_("expected true or false, got {value}"),
    N_("expected a table, got {value}"),
    N_("unknown key (expected one of: {keys})"),
    N_("missing"),
    # kipp.analysis.results_store, kipp.analysis.results_lock
    N_("in use by another run ({holder}); wait for it to finish, or use another --out"),
    N_("no such results file"),
    N_("not a results file of ours (it stores no options); use another --out"),
    N_("was written with other options ({differences}); use another --out, or the same options to resume"),
    N_("cannot take its writer lock {lock} ({reason})"),
    N_("not a results file ({reason})"),
    # kipp.analysis.orders
    N_("{path} line {number}: {problem}"),
    N_("bad letter {letter} (expected L, M or S)"),
    N_("{count} letters, expected {barrels}"),
    N_("{content} repeats line {number}"),
    N_("no orders (one per line, like {example})"),
    N_("expected 1 to {count} orders of {barrels} barrels"),
    N_("expected sample:N with N a whole number"),
    # kipp.analysis.difficulty.racing (--find)
    N_("expected hardest:N or easiest:N with N a whole number >= 1"),
    N_("expected hardest:N, easiest:N or both, like hardest:20,easiest:20"),
    N_("asks for {count} of only {orders} orders"),
    # kipp.analysis.executor
    N_("--scheduler needs Dask: pip install 'kipp-kipp-ahoi[dask]'"),
    N_("cannot reach the Dask scheduler at {address}: {reason}"),
    N_("a Dask worker died each of the {times} times one task ran; stopped the sweep (does that task crash its "
       "process?)"),
    N_("a worker process died ({cause}) each of the {times} times one task ran; stopped the sweep (does that task "
       "crash its process?)"),
    # kipp.analysis.parameters.design
    N_("expected a completion rate between 0 and 1, got {target}"),
    N_("{key} is not a numeric key of the parameter file (e.g. ship.thread_pitch_mm, friction.mu, "
       "barrels.large.mass_g; see `kipp params`)"),
    N_("{key} is not a number"),
    N_("{key} is a whole number; the design needs a continuous parameter"),
    N_("{key} has no finite plausible range; give one with --range LOW,HIGH"),
    N_("expected {low} <= LOW < HIGH <= {high} for {key}, got {values}"),
    N_("not reached for {key} within {low} to {high}: P(complete) runs from {first} to {last} ({player}, {rounds} "
       "rounds per value)"),
    # kipp.rules.replay, kipp.rules.transcript
    N_("line {number}: {problem}"),
    N_("after line {number}: {problem}"),
    N_("bad game_start ({problem})"),
    N_("unknown referee {name}; expected one of {names}"),
    N_("recorded with parameter set {recorded}, replaying with {replaying} (use the same --params)"),
    N_("event after the end of the game"),
    N_("bad {event} event ({problem})"),
    N_("recorded {event} did not happen in the replay"),
    N_("the replay has a {event} event the record lacks ({details})"),
    N_("the transcript ends at line {number} before the game is over"),
    N_("not an event of the transcript vocabulary"),
    N_("does not start with a game_start event"),
    # kipp.analysis.parameters.uncertain (--only)
    N_("unknown uncertain parameter {name}; known: {names}"),
    # calibration (kipp calibrate's measurements and fit)
    N_("empty list of readings"),
    N_("unknown sailor {name}; expected one of {names}"),
    N_("expected a non-empty list of barrel sizes, got {value}"),
    N_("unknown barrel size {name}; expected one of {names}"),
    N_("unknown barrel size; expected one of {names}"),
    N_("must not be 0"),
    N_("expected a non-empty list of sailors, got {value}"),
    N_("give exactly one of fell_after_turn = K or stood = true"),
    N_("must be true (use fell_after_turn for a fall), got {value}"),
    N_("must be an integer between 1 and {count}, got {value}"),
    N_("expected a non-empty list of die faces, got {value}"),
    N_("a wild roll must name the sailor turned, e.g. 'wild:red'"),
    N_("unknown face {face}; expected red, yellow, blue or wild:SAILOR"),
    N_("more barrels placed than the {count} in the order"),
    N_("the round was over after the last barrel's turn"),
    N_("not crashed, but only {placed} of {count} barrels were placed"),
    N_("give exactly one of tilt_deg or turns"),
    N_("{tilt} deg is not a sliding angle (must be < 60)"),
    N_("unknown section (expected one of: {names})"),
    N_("measure all three screws or none (missing: {missing})"),
    N_("the measurement file holds no data to fit"),
    N_("the fitted values make an impossible parameter set: {problem}"),
    N_("{count} reading(s); the pitch needs at least 2"),
    N_("{count} test(s); friction needs at least 2"),
    N_("a test's turns leave the deck level; it cannot have slid there"),
)
"""The English sentences, with ``{field}`` where the library fills in a part."""


_FIELD = r"(?:[^()]|\([^()]*\))+?"
"""What a field matches: as little as it can, with its parentheses in pairs, so that ``cannot read
{what} ({reason})`` reads ``recording (a file of `kipp game --json`) (No such file or directory)`` as
the recording's words and the reason."""


def _pattern(template: str) -> re.Pattern:
    parts = []
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(f"(?P<{field}>{_FIELD})")
    return re.compile("".join(parts), re.DOTALL)


@lru_cache(maxsize=None)
def _patterns(templates: tuple[str, ...] = TEMPLATES) -> tuple[tuple[str, re.Pattern], ...]:
    return tuple((template, _pattern(template)) for template in templates)


def library_words(message: str, language: Language, depth: int = 0,
                  templates: tuple[str, ...] = TEMPLATES) -> str:
    """``message`` (an English one-line error of the library) in ``language``; ``templates``: the English
    sentences it may have been made from (by default the library's refusals, :data:`TEMPLATES`).

    >>> library_words("friction.mu: must be between 0.01 and 2, got 7.0", Language("de"))
    'friction.mu: muss zwischen 0.01 und 2 liegen, ist aber 7.0'
    >>> library_words("something new", Language("de"))
    'something new'
    """
    if language.code == SOURCE_LANGUAGE or depth > 3:
        return message
    words = language.gettext(message)
    if words != message:
        return words
    starts = [0] + [match.end() for match in re.finditer(": ", message)]
    for start in starts:
        rest = message[start:]
        for template, pattern in _patterns(templates):
            match = pattern.fullmatch(rest)
            if match is not None:
                parts = {name: library_words(value, language, depth + 1, templates)
                         for name, value in match.groupdict().items()}
                return message[:start] + language.gettext(template).format(**parts)
    return message
