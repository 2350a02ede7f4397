"""The project's imports point one way (README "Layout", DESIGN.md 2), and none go in a circle.

Every import statement of every module is read from the source (module-level and those
inside functions alike), so a lazy import that breaks the layering fails here too. The
rooms and what each may import:

- ``sim``: physics and geometry; nothing of ``kipp``, ``viewer`` or ``calibration``, no pygame.
- ``kipp.rules``: no physics engine and no pygame, not even through what it imports.
- ``kipp.players``: rules and sim's geometry and static check; never a referee.
- ``kipp.analysis``: rules, players and sim's referees; never the command line, never ``lab``. Inside
  it, a shared floor (:data:`ANALYSIS_FLOOR`) that imports none of the analyses' rooms
  (:data:`ANALYSIS_ROOMS`), and rooms that import the floor but not each other.
- ``kipp.cli``: everything; ``viewer``, ``calibration`` and ``lab`` only inside the commands.
- ``viewer`` sits on top of ``kipp`` and ``sim`` but not of ``kipp.cli``; its game side (the controller and
  what it reads, the frame's view) loads no pygame, only its drawing and its window do.
- ``calibration`` (what ``kipp calibrate`` runs) imports ``sim`` only: neither ``kipp`` nor ``lab``.
- ``lab`` (the project measuring its own model) may import ``sim``, ``kipp`` below its command line
  and ``calibration``; nothing imports it but ``kipp.cli`` (inside commands) and the tests.
- ``kipp.env`` (the Gymnasium environment) may draw with ``viewer`` and pygame, but imports them
  only inside functions (rendering), never the command line, ``calibration`` or ``lab``; only it
  (and ``lab.train_player``, which trains on it) imports ``gymnasium``.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "kipp", "viewer", "calibration", "lab")
ENGINES = ("pymunk", "pygame")
REFEREE_MODULES = ("sim.referees", "sim.world", "sim.energy")
ANALYSIS_FLOOR = tuple(f"kipp.analysis.{name}" for name in (
    "rounds", "shared_rounds", "orders", "executor", "results_store", "results_lock", "resumable", "stats", "export",
    "plots"))
"""What every analysis stands on: rounds, orders, the executor, the results file and its writer lock, intervals,
export, plots."""
ANALYSIS_ROOMS = tuple(f"kipp.analysis.{name}" for name in ("difficulty", "parameters", "compare", "skill_ceiling"))
"""One room per concern: ``kipp tune``; ``kipp sensitivity`` and ``kipp design``; ``kipp compare``; the skill
ceiling."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=None)
def modules() -> dict[str, Path]:
    """Every module of the five packages by dotted name."""
    return {_module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


@lru_cache(maxsize=None)
def imports(module: str) -> tuple[tuple[str, bool], ...]:
    """(imported module, at module level?) for every import statement of ``module``.

    ``from a.b import c`` counts as ``a.b.c`` when that is a module of the project, else ``a.b``.
    """
    path = modules()[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules() else node.module
                     for alias in node.names]
        else:
            continue
        found += [(name, id(node) in top_level) for name in names]
    return tuple(found)


def _inside(name: str, room: str) -> bool:
    return name == room or name.startswith(room + ".")


def _project(name: str) -> str | None:
    """The project module ``name`` refers to (a package import refers to its ``__init__``)."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


def module_level_closure(module: str) -> set[str]:
    """Every module (project or external top-level) loaded by importing ``module``."""
    seen, todo = set(), [module]
    while todo:
        current = todo.pop()
        for name, top in imports(current):
            if not top:
                continue
            target = _project(name)
            if target is None:
                seen.add(name.split(".")[0])
            elif target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def rooms(*prefixes: str) -> list[str]:
    return [m for m in modules() if any(_inside(m, p) for p in prefixes)]


def test_the_walk_sees_every_room():
    names = modules()
    for room in ("sim.world", "kipp.rules.state", "kipp.players.bots", "kipp.analysis.difficulty.sweeps",
                 "kipp.cli.game", "viewer.app", "calibration.calibrate", "lab.bench", "lab.pilot"):
        assert room in names


def test_no_import_circle_anywhere():
    graph = {m: {t for name, _ in imports(m) if (t := _project(name)) and t != m} for m in modules()}
    # a package's __init__ re-exporting its submodules is not a circle: drop the edge child -> parent
    for m, targets in graph.items():
        targets -= {t for t in targets if _inside(m, t) and modules()[t].name == "__init__.py"}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                raise AssertionError("import circle: " + " -> ".join(path[path.index(t):] + [t]))
            if t not in state:
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


@pytest.mark.parametrize("module", rooms("sim"))
def test_sim_knows_nothing_of_the_game_or_the_screen(module):
    bad = [n for n, _ in imports(module) if any(_inside(n, r) for r in ("kipp", "viewer", "calibration", "lab",
                                                                       "pygame"))]
    assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("module", rooms("kipp.rules"))
def test_the_rules_import_no_physics_engine_and_no_pygame(module):
    loaded = module_level_closure(module)
    assert not loaded & set(ENGINES), f"{module} loads {sorted(loaded & set(ENGINES))}"
    direct = [n for n, _ in imports(module) if any(_inside(n, r) for r in ENGINES)]
    assert not direct, f"{module} imports {direct}"
    above = [n for n, _ in imports(module) if any(_inside(n, r) for r in ("kipp.players", "kipp.analysis",
                                                                           "kipp.cli", "viewer", "calibration",
                                                                           "lab"))]
    assert not above, f"the rules import {above}"


@pytest.mark.parametrize("module", rooms("kipp.players"))
def test_players_never_ask_a_referee(module):
    bad = [n for n, _ in imports(module)
           if any(_inside(n, r) for r in REFEREE_MODULES + ENGINES + ("kipp.analysis", "kipp.cli", "viewer",
                                                                      "calibration", "lab"))]
    assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("module", rooms("kipp.analysis"))
def test_analyses_stay_below_the_command_line(module):
    bad = [n for n, _ in imports(module) if any(_inside(n, r) for r in ("kipp.cli", "viewer", "calibration",
                                                                        "lab", "pygame"))]
    assert not bad, f"{module} imports {bad}"


def _analysis_room(module: str) -> str | None:
    return next((room for room in ANALYSIS_ROOMS if _inside(module, room)), None)


def test_every_analysis_module_stands_on_the_floor_or_in_one_room():
    homeless = [m for m in rooms("kipp.analysis")
                if m != "kipp.analysis" and m not in ANALYSIS_FLOOR and _analysis_room(m) is None]
    assert not homeless, f"neither floor nor room: {homeless} (add them to ANALYSIS_FLOOR or ANALYSIS_ROOMS)"
    assert all(f in modules() for f in ANALYSIS_FLOOR) and all(r in modules() for r in ANALYSIS_ROOMS)


@pytest.mark.parametrize("module", ["kipp.analysis", *ANALYSIS_FLOOR])
def test_the_analysis_floor_imports_none_of_its_rooms(module):
    up = [n for n, _ in imports(module) if _analysis_room(n) is not None]
    assert not up, f"{module} (the floor) imports {up}"


@pytest.mark.parametrize("module", rooms(*ANALYSIS_ROOMS))
def test_an_analysis_room_imports_no_other_room(module):
    own = _analysis_room(module)
    across = [n for n, _ in imports(module) if (room := _analysis_room(n)) is not None and room != own]
    assert not across, f"{module} ({own}) imports {across}"


def test_the_analysis_rooms_import_in_no_circle():
    """Within kipp.analysis, no import circle (a package's ``__init__`` holds no imports)."""
    inside = rooms("kipp.analysis")
    graph = {m: {t for n, _ in imports(m) if (t := _project(n)) in inside and t != m} for m in inside}
    depth: dict[str, int] = {}

    def floors(m: str, path: tuple[str, ...]) -> int:
        assert m not in path, "import circle: " + " -> ".join(path[path.index(m):] + (m,))
        if m not in depth:
            depth[m] = 1 + max((floors(t, path + (m,)) for t in graph[m]), default=0)
        return depth[m]

    for m in inside:
        floors(m, ())


@pytest.mark.parametrize("module", rooms("kipp.cli"))
def test_the_command_line_imports_viewer_calibration_and_lab_only_inside_commands(module):
    bad = [n for n, top in imports(module) if top and any(_inside(n, r) for r in ("viewer", "calibration", "lab",
                                                                                  "pygame"))]
    assert not bad, f"{module} imports {bad} at module level"


@pytest.mark.parametrize("module", rooms("viewer", "calibration", "sim", "kipp.rules", "kipp.players",
                                         "kipp.analysis"))
def test_only_the_command_line_imports_viewer_calibration_and_lab(module):
    own = module.split(".")[0]
    bad = [n for n, _ in imports(module) if any(_inside(n, r) for r in ("viewer", "calibration", "lab", "kipp.cli"))
           and not _inside(n, own)]
    assert not bad, f"{module} imports {bad}"


VIEWER_GAME_SIDE = ("viewer.controller", "viewer.frame", "viewer.modes", "viewer.geometry", "viewer.die_roll",
                    "viewer.messages", "viewer.names", "viewer.crash", "viewer.tips", "viewer.recorder",
                    "viewer.referee_bridge", "viewer.script", "viewer.orientation", "viewer.setup",
                    "viewer.balance_hint", "viewer.recap", "viewer.sound")
"""The viewer's modules that run the game and say what a frame shows, drawing nothing."""


@pytest.mark.parametrize("module", VIEWER_GAME_SIDE)
def test_the_viewer_s_game_side_loads_no_pygame(module):
    loaded = module_level_closure(module)
    assert "pygame" not in loaded and not any(_inside(n, "pygame") for n, top in imports(module) if top), (
        f"{module} loads pygame through {sorted(m for m in loaded if m.startswith('viewer'))}")


@pytest.mark.parametrize("module", rooms("kipp.cli"))
def test_the_command_line_loads_no_pygame_until_a_window_is_asked_for(module):
    assert "pygame" not in module_level_closure(module), f"{module} loads pygame at import ([viewer] is an extra)"


@pytest.mark.parametrize("module", rooms("calibration"))
def test_calibration_imports_neither_the_game_nor_the_lab(module):
    bad = [n for n, _ in imports(module) if any(_inside(n, r) for r in ("kipp", "lab", "viewer"))]
    assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("module", rooms("lab"))
def test_the_lab_stands_on_sim_kipp_and_calibration_below_the_command_line(module):
    bad = [n for n, _ in imports(module) if any(_inside(n, r) for r in ("kipp.cli", "viewer", "pygame"))]
    assert not bad, f"{module} imports {bad}"


def test_calibration_never_imports_pygame():
    for module in rooms("calibration"):
        assert "pygame" not in module_level_closure(module) | {n.split(".")[0] for n, _ in imports(module)}


def _calls_decide(module: str) -> bool:
    """Does ``module`` call a method named ``decide`` (a referee's verdict) anywhere?"""
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "decide"
               for node in ast.walk(tree))


def test_only_the_lookahead_player_asks_the_referee_it_is_handed():
    """The one exception to "players never ask a referee": ``kipp.players.lookahead`` (a bound on
    skill, not a person) calls ``decide`` on the referee handed to it; it imports none."""
    asking = [m for m in rooms("kipp.players") if _calls_decide(m)]
    assert asking == ["kipp.players.lookahead"], asking


@pytest.mark.parametrize("module", rooms("kipp.env"))
def test_the_environment_imports_viewer_only_to_render(module):
    bad = [n for n, top in imports(module) if (top and any(_inside(n, r) for r in ("viewer", "pygame")))
           or any(_inside(n, r) for r in ("kipp.cli", "calibration", "lab"))]
    assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("module", rooms("sim", "kipp.rules", "kipp.players", "kipp.analysis", "kipp.cli", "viewer",
                                         "calibration"))
def test_only_the_environment_imports_gymnasium(module):
    bad = [n for n, _ in imports(module) if _inside(n, "gymnasium")]
    assert not bad, f"{module} imports {bad}"
