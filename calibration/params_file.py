"""Write a calibrated parameter file in the format of ``sim/default_params.toml``.

Without a start file the output holds only the calibrated keys (a partial file: keys
left out keep the shipped defaults when loaded with ``--params``). With a start file
(``--params START``) the output is START with the calibrated keys replaced, so it alone
reproduces START plus the calibration. Every calibrated key carries its interval as a
comment; the likelihood parameters are comments in the header, and the recorded players'
placement skill becomes ``placement.sigma_mm``. The TOML is written by
:func:`sim.toml_schema.dump_toml`, the writer of ``kipp params``. The file is written to
a temporary name, checked with ``load_params`` and only then moved into place: a failure
never leaves a half-written file.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Mapping

from calibration.calibrate import Calibration
from sim.params import ParamsError, load_params
from sim.toml_schema import dump_toml, raising, read_toml

_USES = {
    "sigma_topple_mm": "placement error of the topple experimenter (not a parameter-file key)",
    "sigma_game_mm": "placement skill of the recorded players, written as placement.sigma_mm (the bots' default)",
    "turn_margin_deg": "real turns topple towers this far below the static angle (compare fast.turn_margin_deg)",
}


def _merge(base: dict, extra: Mapping) -> dict:
    out = dict(base)
    for key, value in extra.items():
        out[key] = _merge(out.get(key, {}), value) if isinstance(value, Mapping) else value
    return out


def params_text(result: Calibration, start_path: str | Path | None = None, source: str = "",
                seed: int = 0) -> str:
    """The TOML text of the calibrated parameter file."""
    base: dict = {}
    if start_path is not None:
        with raising(ParamsError):
            base = read_toml(start_path, "parameter file")
    tables = _merge(base, result.overrides)
    comments = {}
    header = ["# Kipp, Kipp, Ahoi! parameters calibrated by `kipp calibrate`",
              f"# measurements: {source or '(in memory)'}; seed {seed}"]
    if result.synthetic:
        header.append("# SYNTHETIC: fitted to measurements made by the model, not to a real set.")
    header.append("# Partial file: keys left out keep the defaults." if start_path is None
                  else f"# Start parameters: {start_path}; calibrated keys replaced.")
    for f in result.fitted:
        interval = "at a bound" if math.isnan(f.stderr) else f"+- {f.stderr:.2g}, 95% [{f.low:.4g}, {f.high:.4g}]"
        if "." in f.key:
            comments[f.key] = f"calibrated: {interval}, n = {f.n} ({f.source})"
        elif f.key == "sigma_game_mm":
            comments["placement.sigma_mm"] = f"calibrated: {interval}, n = {f.n} ({f.source})"
        else:
            header.append(f"# {f.key} = {f.value:.4g} ({interval}, n = {f.n} {f.source}): {_USES.get(f.key, '')}")
    return "\n".join(header) + "\n\n" + dump_toml(tables, comments, float_digits=6)


def write_params(result: Calibration, out: str | Path, start_path: str | Path | None = None, source: str = "",
                 seed: int = 0) -> Path:
    """Write the calibrated parameter file to ``out``, checked with ``load_params`` first."""
    out = Path(out)
    text = params_text(result, start_path, source, seed)
    tmp = out.with_name(f".{out.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        load_params(tmp)
        os.replace(tmp, out)
    except (OSError, ParamsError):
        tmp.unlink(missing_ok=True)
        raise
    return out
