"""The ``python -m scoring`` contract: outputs, exit codes, and one clear line per rejection."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from scoring.cli import main
from scoring.evaluate import ROW_COLUMNS

SUMMARY_KEYS = {
    "score",
    "score_valid_only",
    "coverage",
    "n_expected",
    "n_valid",
    "n_invalid",
    "n_missing",
    "per_embodiment",
    "per_category",
    "per_metadata",
    "baseline_raw",
    "scorer_version",
    "dataset_revision",
}


def run(capsys, *argv: str, cache: Path) -> tuple[int, str, str]:
    code = main(list(argv), environ={"NAVITRACE_CACHE": str(cache)})
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def examples(demo_dataset: Path, key_cache: Path, tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("examples")
    made = {}
    for split in ("validation", "test"):
        for kind in ("straight", "noisy", "perfect"):
            out = folder / f"{split}-{kind}.tsv"
            assert (
                main(
                    ["example-submission", "--dataset", str(demo_dataset), "--split", split, "--kind", kind, str(out)],
                    environ={"NAVITRACE_CACHE": str(key_cache)},
                )
                == 0
            )
            made[f"{split}-{kind}"] = out
    return made


def test_perfect_submission_scores_100_with_exact_outputs(capsys, examples, demo_dataset, key_cache, tmp_path):
    rows_out, summary_out = tmp_path / "rows.tsv", tmp_path / "summary.json"
    code, out, _ = run(
        capsys,
        "score",
        str(examples["validation-perfect"]),
        "--dataset",
        str(demo_dataset),
        "--split",
        "validation",
        "--rows-out",
        str(rows_out),
        "--summary-out",
        str(summary_out),
        cache=key_cache,
    )
    assert code == 0
    assert "NaviTrace score" in out and "100.00" in out
    summary = json.loads(summary_out.read_text())
    assert set(summary) == SUMMARY_KEYS
    assert summary["score"] == pytest.approx(100.0) and summary["coverage"] == 1.0 and summary["n_missing"] == 0
    rows = pd.read_csv(rows_out, sep="\t", keep_default_na=False)
    assert tuple(rows.columns) == ROW_COLUMNS
    assert len(rows) == summary["n_expected"] and set(rows["status"]) == {"valid"}


def test_straight_example_scores_at_its_own_calibrated_anchor(capsys, examples, demo_dataset, key_cache, tmp_path):
    code, out, _ = run(capsys, "calibrate", "--dataset", str(demo_dataset), "--split", "test", cache=key_cache)
    assert code == 0
    anchor = float(out.strip().splitlines()[-1])
    summary_out = tmp_path / "s.json"
    code, _, _ = run(
        capsys,
        "score",
        str(examples["test-straight"]),
        "--dataset",
        str(demo_dataset),
        "--split",
        "test",
        "--baseline-raw",
        str(anchor),
        "--summary-out",
        str(summary_out),
        cache=key_cache,
    )
    assert code == 0
    # By construction the straight-forward trace averages 0 on the scale anchored at its own mean.
    assert json.loads(summary_out.read_text())["score"] == pytest.approx(0.0, abs=1e-4)


def test_noisy_scores_between_straight_and_perfect(capsys, examples, demo_dataset, key_cache, tmp_path):
    scores = {}
    for kind in ("straight", "noisy", "perfect"):
        out = tmp_path / f"{kind}.json"
        run(
            capsys,
            "score",
            str(examples[f"validation-{kind}"]),
            "--dataset",
            str(demo_dataset),
            "--split",
            "validation",
            "--summary-out",
            str(out),
            cache=key_cache,
        )
        scores[kind] = json.loads(out.read_text())["score"]
    assert scores["straight"] < scores["noisy"] < scores["perfect"] == pytest.approx(100.0)


def test_invalid_and_missing_rows_count_as_zero(capsys, examples, demo_dataset, key_cache, tmp_path):
    frame = pd.read_csv(examples["validation-perfect"], sep="\t", dtype=str, keep_default_na=False)
    frame.loc[0, "prediction"] = "I cannot see a path."
    frame = frame.drop(index=1)
    path = tmp_path / "partial.tsv"
    frame.to_csv(path, sep="\t", index=False)
    rows_out, summary_out = tmp_path / "rows.tsv", tmp_path / "s.json"
    code, _, _ = run(
        capsys,
        "score",
        str(path),
        "--dataset",
        str(demo_dataset),
        "--split",
        "validation",
        "--rows-out",
        str(rows_out),
        "--summary-out",
        str(summary_out),
        cache=key_cache,
    )
    assert code == 0
    summary = json.loads(summary_out.read_text())
    n = summary["n_expected"]
    assert (summary["n_valid"], summary["n_invalid"], summary["n_missing"]) == (n - 2, 1, 1)
    assert summary["score"] == pytest.approx(100.0 * (n - 2) / n)
    assert summary["score_valid_only"] == pytest.approx(100.0)
    rows = pd.read_csv(rows_out, sep="\t", keep_default_na=False, dtype=str)
    invalid = rows[rows["status"] == "invalid"].iloc[0]
    assert invalid["reason"] == "not JSON" and invalid["score"] == ""
    assert rows[rows["status"] == "missing"].iloc[0]["score"] == ""


def _rewrite(source: Path, target: Path, edit) -> Path:
    frame = pd.read_csv(source, sep="\t", dtype=str, keep_default_na=False)
    edit(frame).to_csv(target, sep="\t", index=False)
    return target


REJECTIONS = {
    "missing file": (lambda src, t: t / "nope.tsv", "no such file"),
    "directory": (lambda src, t: t, "directory"),
    "empty file": (lambda src, t: _write(t / "e.tsv", b""), "empty"),
    "blank file": (lambda src, t: _write(t / "b.tsv", b"\n\n  \n"), "empty"),
    "header only": (lambda src, t: _write(t / "h.tsv", b"sample_id\tembodiment\tprediction\n"), "no rows"),
    "missing column": (
        lambda src, t: _rewrite(src, t / "m.tsv", lambda f: f.drop(columns=["prediction"])),
        "missing required column prediction",
    ),
    "comma separated": (
        lambda src, t: _write(t / "c.tsv", src.read_text().replace("\t", ",").encode()),
        "not tab-separated",
    ),
    "duplicate row": (
        lambda src, t: _rewrite(src, t / "d.tsv", lambda f: pd.concat([f, f.iloc[[3]]])),
        "duplicate row",
    ),
    "not annotated": (lambda src, t: _rewrite(src, t / "n.tsv", _unannotated), "not annotated"),
    "unknown embodiment": (
        lambda src, t: _rewrite(src, t / "u.tsv", lambda f: f.assign(embodiment="Drone")),
        "not annotated",
    ),
    "not utf-8": (
        lambda src, t: _write(t / "x.tsv", src.read_bytes().replace(b"val_0001", b"val_\xff001")),
        "not UTF-8",
    ),
    "utf-16": (lambda src, t: _write(t / "w.tsv", src.read_text().encode("utf-16")), "UTF-16"),
    "ragged row": (lambda src, t: _write(t / "r.tsv", src.read_bytes() + b"val_0000\tHuman\n"), "fields, expected"),
    "too large": (lambda src, t: _write(t / "l.tsv", src.read_bytes() + b"#" * (65 * 1024 * 1024)), "limit"),
}


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _unannotated(frame: pd.DataFrame) -> pd.DataFrame:
    from scoring.penalty_table import EMBODIMENTS

    annotated = frame.groupby("sample_id")["embodiment"].apply(set)
    for sample_id, have in annotated.items():
        spare = [e for e in EMBODIMENTS if e not in have]
        if spare:
            index = frame.index[frame["sample_id"] == sample_id][0]
            frame.loc[index, "embodiment"] = spare[0]
            return frame
    raise AssertionError("every synthetic sample is annotated for every embodiment")


@pytest.mark.parametrize("case", sorted(REJECTIONS))
def test_rejected_file_exits_2_with_one_located_line_and_no_output(
    case, capsys, examples, demo_dataset, key_cache, tmp_path
):
    make, expected = REJECTIONS[case]
    path = make(examples["validation-perfect"], tmp_path)
    rows_out, summary_out = tmp_path / "out" / "rows.tsv", tmp_path / "out" / "s.json"
    code, out, err = run(
        capsys,
        "score",
        str(path),
        "--dataset",
        str(demo_dataset),
        "--split",
        "validation",
        "--rows-out",
        str(rows_out),
        "--summary-out",
        str(summary_out),
        cache=key_cache,
    )
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and expected in err and "Traceback" not in err
    assert not rows_out.exists() and not summary_out.exists() and out == ""


def test_rejections_name_the_place(capsys, examples, demo_dataset, key_cache, tmp_path):
    path = _rewrite(examples["validation-perfect"], tmp_path / "d.tsv", lambda f: pd.concat([f, f.iloc[[3]]]))
    _, _, err = run(
        capsys, "score", str(path), "--dataset", str(demo_dataset), "--split", "validation", cache=key_cache
    )
    rows = len(pd.read_csv(examples["validation-perfect"], sep="\t"))
    # raw_response cells hold a newline, so each row spans two lines of the file.
    assert f"line {2 + 2 * rows} (sample_id" in err and "already given on line 8" in err
    _, _, err = run(
        capsys,
        "score",
        str(examples["validation-perfect"]),
        "--dataset",
        str(demo_dataset),
        "--split",
        "test",
        cache=key_cache,
    )
    assert 'line 2 (sample_id "val_0000")' in err and "unknown sample_id" in err and "test split" in err


def test_subprocess_rejection_has_no_traceback(examples, demo_dataset, key_cache):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "score",
            str(examples["validation-perfect"]),
            "--dataset",
            str(demo_dataset),
            "--split",
            "test",
        ],
        capture_output=True,
        text=True,
        env={"NAVITRACE_CACHE": str(key_cache), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_scoring_test_split_of_public_copy_is_refused(capsys, examples, demo_public, key_cache):
    code, _, err = run(
        capsys,
        "score",
        str(examples["test-straight"]),
        "--dataset",
        str(demo_public),
        "--split",
        "test",
        cache=key_cache,
    )
    assert code == 1 and "no ground truth" in err


def test_demo_data_cli_writes_hub_layout(capsys, tmp_path):
    code, out, _ = run(
        capsys, "demo-data", str(tmp_path / "d"), "--samples", "2", "--size", "64x48", "--seed", "3", cache=tmp_path
    )
    assert code == 0
    assert sorted(p.name.split("-")[0] for p in (tmp_path / "d" / "data").glob("*.parquet")) == ["test", "validation"]
