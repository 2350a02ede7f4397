"""The site states every figure as its record holds it, and the library and README carry no
figures of their own (issue 40: every measured figure has one home, the record its command writes).

The figures are checked against the records by a resolver of this file's own, not the build
hook's: a figure is right when the number the reader sees is the record's value rounded to the
digits shown.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.docs.conftest import REPO, pages

pytestmark = pytest.mark.xdist_group("docs-site")

RECORD_DIRS = (REPO / "docs" / "data", REPO / "notebooks" / "results", REPO / "lab" / "data", REPO / "sim")
LIBRARY = ("sim", "kipp", "viewer", "calibration", "lab")
HISTORY = re.compile(r"revision [0-9]|before the (lens|default|contacts)|measured 20[0-9]{2}-")


class Figures(HTMLParser):
    """The record spans of a page: (record, key, scale, text shown)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, float, str]] = []
        self._open: dict | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "span" and "record" in (attrs.get("class") or "").split():
            self._open, self._text = attrs, []

    def handle_data(self, data):
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "span" and self._open is not None:
            a = self._open
            self.found.append((a["data-record"], a["data-key"], float(a["data-scale"]), "".join(self._text)))
            self._open = None


def figures_of(page: Path) -> list[tuple[str, str, float, str]]:
    parser = Figures()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.found


def load(name: str):
    (path,) = [d / name for d in RECORD_DIRS if (d / name).is_file()]
    text = path.read_text(encoding="utf-8")
    return tomllib.loads(text) if name.endswith(".toml") else json.loads(text)


def resolve(data, key: str):
    """The value at a dotted key; ``name[a=x,b=y]`` is the list element with those fields."""
    for part in key.split("."):
        selector = re.fullmatch(r"(.+)\[(.+)\]", part)
        name = selector[1] if selector else part
        data = data[int(name)] if isinstance(data, list) else data[name]
        if selector:
            wanted = dict(pair.split("=", 1) for pair in selector[2].split(","))
            (data,) = [e for e in data if all(str(e[f]) == v for f, v in wanted.items())]
    return data


def shown_number(text: str) -> tuple[float, float]:
    """The number a reader sees in ``text`` ("4.1", "34,650", "95.4%", "+2.5%", "2.46x") and half
    a unit of its last digit."""
    match = re.fullmatch(r"\s*([+-]?[\d,]*\.?\d+)\s*(%|x)?\s*", text)
    assert match, f"not a number: {text!r}"
    digits = match[1].replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    value, half = float(digits), 0.5 * 10 ** -decimals
    if match[2] == "%":
        value, half = value / 100, half / 100
    return value, half


def test_every_figure_on_the_site_is_its_records_value(site):
    checked = 0
    for page in pages(site):
        for record, key, scale, text in figures_of(page):
            expected = resolve(load(record), key) * scale
            shown, half = shown_number(text)
            assert abs(shown - expected) <= half * (1 + 1e-9) + 1e-12, \
                f"{page.relative_to(site)}: {text!r} for {record} {key} = {expected!r}"
            checked += 1
    assert checked >= 100, f"only {checked} figures rendered from records"


def test_the_performance_page_shows_every_figure_of_kipp_bench(site):
    """``kipp bench``'s table rows (lab.bench.ROWS) and its per-referee and per-model figures."""
    from lab.bench import ROWS

    keys = {key for record, key, _, _ in figures_of(site / "performance" / "index.html") if record == "bench.json"}
    bench = load("bench.json")
    wanted = {row[0] for row in ROWS}
    wanted |= {f"rounds_per_s_per_core.{name}" for name in bench["rounds_per_s_per_core"]}
    wanted |= {f"agreement.{name}" for name in bench["agreement"]}
    wanted |= {f"model_rounds_per_s.{name}" for name in bench["model_rounds_per_s"]}
    assert wanted <= keys, f"not on the page: {sorted(wanted - keys)}"


def test_every_sweep_is_on_the_performance_page(site):
    keys = {key for record, key, _, _ in figures_of(site / "performance" / "index.html") if record == "sweeps.json"}
    for name in load("sweeps.json")["sweeps"]:
        assert {f"sweeps.{name}.wall_s", f"sweeps.{name}.cpu_s"} <= keys, name


def test_no_placeholder_is_left_and_the_site_loads_nothing_from_outside(site):
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        assert "{{ record(" not in html and "{{ table(" not in html, page
        outside = re.findall(r'(?:src|href)="(https?://(?!squidfunk\.github\.io)[^"]+)', html)
        assert not outside, f"{page.relative_to(site)} loads from outside: {outside[:3]}"


def test_the_play_page_lists_the_viewers_keys(site):
    from viewer.keys import KEYS, REPLAY_KEYS

    text = (site / "play" / "index.html").read_text(encoding="utf-8")
    for row in KEYS + REPLAY_KEYS:
        assert f"<td>{row.label}</td>" in text.replace("&amp;", "&") and row.words in text, row.label


def test_the_notebooks_figures_are_on_the_site(site):
    figures = sorted((site / "figures").glob("*.png"))
    assert len(figures) >= 6
    for figure in figures:
        assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", figure.name
    for notebook in (REPO / "notebooks").glob("*.ipynb"):
        assert (site / "notebooks" / notebook.stem / "index.html").is_file(), notebook.name


def _hook():
    spec = importlib.util.spec_from_file_location("records_hook", REPO / "docs" / "hooks" / "records.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_fails_on_a_figure_its_record_does_not_hold():
    from mkdocs.exceptions import PluginError

    hook = _hook()
    assert 'data-key="agreement.fast"' in hook.record("bench.json", "agreement.fast", "{:.1%}")
    for name, key in (("bench.json", "no_such_figure"), ("no_such_record.json", "x"), ("bench.json", "quick"),
                      ("sweeps.json", "coverage[sweep=no_such_sweep].orders")):
        with pytest.raises(PluginError):
            hook.record(name, key)


def test_the_library_carries_no_history():
    """No "revision N", "before the lens/default/contacts" or dated measurement in the library's
    code, docstrings, comments or data files: git keeps the history."""
    hits = []
    for package in LIBRARY:
        for path in sorted((REPO / package).rglob("*")):
            if path.suffix in {".py", ".toml", ".md"} and path.is_file():
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if HISTORY.search(line):
                        hits.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_readme_is_a_newcomers_page():
    """About 80 lines, the two set-up commands first, no measured figure (the site has them)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    assert 60 <= len(lines) <= 100, len(lines)
    assert ("python3 -m venv .venv && . .venv/bin/activate && pip install -q -e '.[test]' && ruff check . && pytest"
            in readme), "the test command, as .ci/run runs it"
    assert "pip install -q -e '.[viewer]' && kipp play" in readme
    prose = "\n".join(line for line in lines if not line.startswith("    "))
    figures = re.findall(r"\d+\.\d+\s*(?:%|ms|x\b|s\b)|\d+(?:\.\d+)?\s*%|\[\d+\.\d+, \d+\.\d+\]", prose)
    assert not figures, f"measured figures in the README: {figures}"
    for page in ("play", "design", "own-set", "researchers"):
        assert f"docs/{page}.md" in readme, page


def test_the_readme_lists_the_viewers_keys():
    from viewer.keys import KEYS

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for row in KEYS:
        assert f"\n| {row.label} | " in readme, row.label


WRITTEN_PAGES = ("index", "play", "design", "own-set", "researchers", "how-it-works", "performance")
NOT_MEASURED = {"95%", "97%", "15%", "60%", "1%", "1.96", "1.645", "16.7 ms", "0.01 mm"}
"""Numbers the pages may write by hand: confidence levels, the balance band a children's game
implies, the convergence rule, a 60 Hz frame, a test's threshold; none is a measurement."""


def _prose(html: str) -> str:
    """The text of a page's article without its record spans, code, and the notebook figures."""
    article = html[html.index("<article"):html.index("</article>")]
    article = re.sub(r'<span class="record"[^>]*>.*?</span>', " ", article, flags=re.S)
    article = re.sub(r"<(pre|code)\b.*?</\1>", " ", article, flags=re.S)
    article = re.sub(r"<[^>]+>", " ", article)
    return article


def test_the_written_pages_state_no_measured_figure_by_hand(site):
    """Every decimal and every percentage a reader sees on the written pages comes from a record."""
    for name in WRITTEN_PAGES:
        page = site / ("" if name == "index" else name) / "index.html"
        prose = _prose(page.read_text(encoding="utf-8"))
        found = set(re.findall(r"\d+\.\d+(?:\s*(?:ms|mm|%))?|\d+%", prose)) - NOT_MEASURED
        assert not found, f"{name}: figures not read from a record: {sorted(found)}"
