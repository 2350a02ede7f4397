"""``kipp calibrate``'s report in the command line's language, translated where the CLI prints it.

:mod:`calibration` imports ``sim`` only, so it knows no catalogue: it words its report, its fit's
quality lines and its warnings in English and takes a ``translate`` function
(:meth:`calibration.calibrate.Calibration.report`), which :func:`report_words` makes here. The
headings and fixed sentences are looked up whole; a sentence the fit builds from parts (counts,
residuals, p values) is found among :data:`TEMPLATES` and its parts filled back in, as
:func:`kipp.cli.library_words.library_words` does for the library's refusals. A sentence that no
template matches is shown as it is, in English.
"""

from __future__ import annotations

from typing import Callable

from kipp.cli.library_words import library_words
from kipp.language import N_, SOURCE_LANGUAGE, Language

WORDS = (
    N_("parameter"), N_("fitted"), N_("std err"), N_("{level} interval"), N_("n"),
    N_("NOTE: these measurements are SYNTHETIC (made by the model), not of a real set."),
    N_("(at bound)"), N_("fit quality:"), N_("warning: {warning}"),
    N_("topple"), N_("round"), N_("slide"), N_("never moved"), N_("ok"), N_("FAILS"),
    N_("direct fits: screw pitch, screw positions, barrels"),
)
"""The report's headings and fixed sentences (``calibration.calibrate.Calibration.report``), and the parts
its sentences name (the likelihood's two kinds of experiment, the numerical check's verdicts), and the
first stage its progress lines name."""

TEMPLATES = (
    # calibration.direct_fit: the quality of the direct fits (the longer form first: it holds the shorter)
    N_("screw rise: {count} readings, rms residual {rms} mm; screws agree on one pitch: chi2 {chi2} on {dof} dof "
       "(p = {p})"),
    N_("screw rise: {count} readings, rms residual {rms} mm"),
    N_("slide: {count} tests, rms residual {rms} deg; {means}; pairs agree on one mu: chi2 {chi2} on {dof} dof "
       "(p = {p})"),
    N_("slide: {count} tests, rms residual {rms} deg; {means}"),
    # calibration.likelihood_fit: the quality of the likelihood fit, and its warnings
    N_("{part}: {count} trials, {turns} turns at risk, {crashes} crashes (model expects {expected}); deviance "
       "{deviance}; Hosmer-Lemeshow {statistic} on {dof} dof (p = {p})"),
    N_("turn_margin_deg held at {value} deg (assumed): no topple experiments"),
    N_("likelihood fit: the optimiser reports {message}"),
    N_("{name} = {value} is at its bound {bounds}: the data do not determine it"),
    N_("{record}: the fitted model gives this outcome a chance of {chance}; check the record"),
    # calibration.calibrate
    N_("{part}: the groups disagree (p = {p}) but the model has one value for all; check the measurements"),
    # calibration.calibrate's progress lines
    N_("friction from {count} slide tests"),
    N_("placement skill and turn margin from {topples} topple experiments and {rounds} game rounds ({draws} draws "
       "each; the slow part)"),
    # calibration.numerical_check
    N_("{size}: topple of {count} {measured}, closed form {expected} deg (tolerance {tolerance} deg): {verdict}"),
    N_("{size}: slide {measured}, closed form {expected} deg (tolerance {tolerance} deg): {verdict}"),
)
"""The sentences the fit builds from parts, with ``{field}`` where it fills one in."""

HEADINGS = {"start": N_("start value")}
"""A heading of the report whose English word means something else elsewhere ("start" a game), by the
words that say what it means here."""


def report_words(language: Language) -> Callable[[str], str]:
    """The ``translate`` function of ``kipp calibrate``'s report: an English heading or sentence of
    :mod:`calibration` in ``language``.

    >>> report_words(Language("de"))("fit quality:")
    'Güte der Anpassung:'
    """
    def translate(text: str) -> str:
        if text in HEADINGS and language.code != SOURCE_LANGUAGE:
            return language.gettext(HEADINGS[text])
        return library_words(text, language, templates=TEMPLATES)

    return translate
