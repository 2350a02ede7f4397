"""The site's figures come from the records their commands write, at build time (a MkDocs hook).

Every Markdown page is rendered as a Jinja template before MkDocs reads it, with these
functions (a missing record, key or notebook figure fails the build):

- ``{{ record("bench.json", "physics_turn_ms_median", "{:.1f}") }}``: one figure of a record,
  formatted with a ``str.format`` spec after multiplying by ``scale`` (e.g. ``1/60`` for
  seconds shown as minutes). The key is a dotted path; a list element is picked by one of its
  fields, ``coverage[sweep=standard_casual].stacked.paired``.
- ``{{ table("sweeps.json", "sweeps", [(header, path, spec, scale), ...], limit) }}``: a Markdown
  table with a row per entry of the mapping (or list) at ``path`` (the first ``limit`` entries,
  if given); a column's path is taken
  from the row, ``"@key"`` is the row's own key, and a path starting with ``/`` from the
  record's root, with ``{key}`` replaced by the row's key.
- ``{{ notebook_figure("barrel_order_difficulty.ipynb", 0, "alt text") }}``: the ``n``-th
  PNG output stored in a notebook (they are executed by the test suite, not by the build).
- ``{{ keys_table() }}``: the viewer's key table (``viewer.keys.KEYS`` and ``REPLAY_KEYS``,
  the tables the in-game help card and legend draw).

Each figure is written as ``<span class="record" data-record=FILE data-key=PATH
data-scale=SCALE>TEXT</span>``, so ``tests/docs/test_site.py`` can check every figure of the
built site against its record. The records are found by file name in :data:`RECORD_DIRS`.
The notebooks (``notebooks/*.ipynb``) are added to the site's files here, for mkdocs-jupyter
to render from their stored outputs; their PNG outputs become ``figures/NOTEBOOK-N.png``.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import tomllib
from functools import lru_cache
from pathlib import Path

import jinja2
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parents[2]
RECORD_DIRS = (REPO / "docs" / "data", REPO / "notebooks" / "results", REPO / "lab" / "data", REPO / "sim")
"""Where a record named in a page is looked for (a name must be unique across them): the
measurements' JSON, and ``sim/default_params.toml`` for the parameters a page quotes."""
NOTEBOOKS = REPO / "notebooks"
FIGURES = "figures"
"""The site folder the notebooks' PNG outputs are written to."""

_SELECT = re.compile(r"^(?P<name>[^\[\]]+)\[(?P<fields>[^\]]+)\]$")


def record_path(name: str) -> Path:
    """The one file called ``name`` in :data:`RECORD_DIRS`."""
    found = [folder / name for folder in RECORD_DIRS if (folder / name).is_file()]
    if len(found) != 1:
        where = ", ".join(str(p.relative_to(REPO)) for p in found) or "none of " + ", ".join(
            str(d.relative_to(REPO)) for d in RECORD_DIRS)
        raise PluginError(f"record {name!r}: {'ambiguous' if found else 'not found'} ({where})")
    return found[0]


@lru_cache(maxsize=None)
def load_record(name: str) -> object:
    """The parsed JSON (or TOML) of record ``name``."""
    text = record_path(name).read_text(encoding="utf-8")
    return tomllib.loads(text) if name.endswith(".toml") else json.loads(text)


def lookup(data: object, path: str) -> object:
    """The value at dotted ``path`` in ``data`` (``name[field=value,field=value]`` picks the one
    list element with those fields)."""
    value = data
    for part in path.split(".") if path else []:
        match = _SELECT.match(part)
        key = match["name"] if match else part
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            raise KeyError(f"no {key!r} in {path!r}")
        if match:
            wanted = dict(pair.split("=", 1) for pair in match["fields"].split(","))
            picked = [item for item in value if isinstance(item, dict)
                      and all(str(item.get(field)) == want for field, want in wanted.items())]
            if len(picked) != 1:
                raise KeyError(f"{len(picked)} elements of {key!r} with {match['fields']}")
            value = picked[0]
    return value


def _figure(name: str, path: str, spec: str, scale: float) -> str:
    """One figure of a record as the tagged span the site test checks."""
    try:
        value = lookup(load_record(name), path)
    except KeyError as error:
        raise PluginError(f"record {name!r}: {error}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PluginError(f"record {name!r}: {path!r} is {value!r}, not a number")
    text = spec.format(value * scale)
    return (f'<span class="record" data-record="{html.escape(name)}" data-key="{html.escape(path)}" '
            f'data-scale="{scale!r}">{html.escape(text)}</span>')


def record(name: str, path: str, spec: str = "{:.3g}", scale: float = 1) -> str:
    """A figure of a record (see the module docstring)."""
    return _figure(name, path, spec, scale)


def table(name: str, rows: str, columns: list, limit: int | None = None) -> str:
    """A Markdown table of record ``name`` (see the module docstring), of its first ``limit`` rows
    if given."""
    try:
        entries = lookup(load_record(name), rows)
    except KeyError as error:
        raise PluginError(f"record {name!r}: {error}") from None
    items = list(entries.items() if isinstance(entries, dict) else enumerate(entries))[:limit]
    lines = ["| " + " | ".join(column[0] for column in columns) + " |",
             "| " + " | ".join("---" for _ in columns) + " |"]
    for key, _ in items:
        cells = []
        for column in columns:
            header, path, spec, scale = (tuple(column) + ("{:.3g}", 1)[len(column) - 2:])[:4]
            if path == "@key":
                cells.append(html.escape(str(key)))
                continue
            full = path[1:].replace("{key}", str(key)) if path.startswith("/") else f"{rows}.{key}.{path}"
            value = lookup(load_record(name), full)
            if isinstance(value, (str, bool)):
                cells.append(html.escape(str(value)))
            else:
                cells.append(_figure(name, full, spec, scale))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def notebook_pngs(notebook: Path) -> list[bytes]:
    """The PNG outputs stored in ``notebook``, in cell order."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [base64.b64decode(output["data"]["image/png"])
            for cell in cells if cell["cell_type"] == "code"
            for output in cell.get("outputs", []) if "image/png" in output.get("data", {})]


def figure_uri(notebook: str, index: int) -> str:
    """The site path of PNG output ``index`` of ``notebook``."""
    return f"{FIGURES}/{Path(notebook).stem}-{index}.png"


def notebook_figure(notebook: str, index: int, alt: str) -> str:
    """Markdown showing PNG output ``index`` of ``notebook``, linked to the rendered notebook."""
    path = NOTEBOOKS / notebook
    if not path.is_file() or not 0 <= index < len(notebook_pngs(path)):
        raise PluginError(f"notebook figure {notebook!r} #{index}: no such PNG output")
    return f"[![{alt}]({figure_uri(notebook, index)})](notebooks/{notebook})"


def keys_table() -> str:
    """The viewer's keys, in play and in a replay, as two Markdown tables."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from viewer.keys import KEYS, REPLAY_KEYS

    def rows(keys) -> str:
        return "\n".join(f"| {html.escape(row.label)} | {html.escape(row.words)} |" for row in keys)

    return ("| key | in a game |\n| --- | --- |\n" + rows(KEYS) + "\n\n"
            "| key | in a replay (`kipp replay FILE`) |\n| --- | --- |\n" + rows(REPLAY_KEYS) + "\n")


_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True)
_ENV.globals.update(record=record, table=table, notebook_figure=notebook_figure, keys_table=keys_table)


@event_priority(100)  # before mkdocs-jupyter's on_files, which wraps the notebooks added here
def on_files(files: Files, config) -> Files:
    """Add the notebooks and their PNG outputs to the site."""
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        uri = f"notebooks/{notebook.name}"
        files.append(File(uri, src_dir=str(REPO), dest_dir=config["site_dir"],
                          use_directory_urls=config["use_directory_urls"]))
        for index, png in enumerate(notebook_pngs(notebook)):
            files.append(File.generated(config, figure_uri(notebook.name, index), content=png))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Render a Markdown page's placeholders from the records."""
    if not page.file.src_uri.endswith(".md"):
        return markdown
    load_record.cache_clear()
    try:
        return _ENV.from_string(markdown).render()
    except jinja2.TemplateError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
