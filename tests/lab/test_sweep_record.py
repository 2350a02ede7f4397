"""lab.sweep_record --update: one sweep made again replaces its entries and keeps the others'."""

import json

from lab import sweep_record


def test_update_replaces_one_sweep_and_its_checks_and_keeps_the_rest(tmp_path, monkeypatch):
    out = tmp_path / "sweeps.json"
    out.write_text(json.dumps({
        "sweeps": {"standard_casual": {"file": "standard_casual.csv.gz", "wall_s": 1.0},
                   "standard_skilled": {"file": "standard_skilled.csv.gz", "wall_s": 2.0}},
        "coverage": [{"sweep": "standard_casual", "orders": 60}, {"sweep": "standard_skilled", "orders": 60}],
        "confirm": [{"sweep": "standard_skilled", "top": 20}],
    }))
    results = tmp_path / "standard_casual.sqlite"
    monkeypatch.setattr(sweep_record, "record", lambda path: {"wall_s": 3.0, "from": str(path)})
    coverage = tmp_path / "coverage.json"
    coverage.write_text(json.dumps({"results": str(results), "orders": 30}))
    assert sweep_record.main([f"{results}:standard_casual.csv.gz", "--out", str(out), "--coverage", str(coverage),
                              "--update"]) == 0
    written = json.loads(out.read_text())
    assert written["sweeps"]["standard_casual"]["wall_s"] == 3.0
    assert written["sweeps"]["standard_skilled"]["wall_s"] == 2.0
    assert [(c["sweep"], c["orders"]) for c in written["coverage"]] == [("standard_casual", 30),  # in its place
                                                                        ("standard_skilled", 60)]
    assert written["confirm"] == [{"sweep": "standard_skilled", "top": 20}]
    # without --update the file holds only what this call names
    assert sweep_record.main([f"{results}:standard_casual.csv.gz", "--out", str(out)]) == 0
    assert list(json.loads(out.read_text())["sweeps"]) == ["standard_casual"]
