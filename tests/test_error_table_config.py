"""Bad input to ``--config``, ``--time-limit`` and ``split dbca --distinct-from``, as a table
(the style of tests/test_error_table.py): case, command, exit code, fragments of the message.

A value from a config file must be converted exactly as the same value typed on the command
line: integers only from TOML integers (or strings click reads as one), no bool or float taken
for an integer, paths only from strings and relative to the config file's folder; every error a
config value causes names the file, the table and the key. No JSON symcomp writes holds NaN.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


CONFIGS = {
    "datetime-seed": "[generate]\nseed = 1979-05-27\n",
    "inf-seed": "[generate]\nseed = inf\n",
    "float-seed": "[generate]\nseed = 1.9\n",
    "int-out": "[generate]\nout = 5\n",
    "float-n": "[generate]\nn = 5.7\n",
    "whole-float-n": "[generate]\nn = 5.0\n",
    "bool-n": "[generate]\nn = true\n",
    "negative-n-seed": "[generate]\nseed = -1\n",
    "string-flag": '[generate]\nall = "yes"\n',
    "int-flag": "[generate]\nwith-dag = 1\n",
    "int-profile": "[generate]\nprofile = 3\n",
    "table-n": "[generate]\nn = {a = 1}\n",
    "int-predictions": "[evaluate]\npredictions = 5\n",
    "missing-predictions": '[evaluate]\npredictions = "nowhere.tsv"\n',
    "both-spellings": "[split]\ntrain-frac = 0.5\ntrain_frac = 0.6\n",
    "flag-and-name": "[generate]\nall = true\nenumerate_all = true\n",
    "nan-frac": "[split]\ntrain-frac = nan\n",
    "nan-time-limit": "[split.dbca]\ntime-limit = nan\n",
    "bool-time-limit": "[split.dbca]\ntime-limit = true\n",
    "date-pool": "[split]\npool = 2020-01-01\n",
    "list-of-ints-model": "[evaluate]\nmodel = [1, 2]\n",
    "bool-in-list": "[evaluate]\ntest = [true]\n",
    "unknown-choice": '[split.dbca]\nmethod = "grid"\n',
    "existing-out": '[generate]\nn = 10\nout = "taken"\n',
    "string-n": '[generate]\nn = "5.7"\n',
}


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every fixture, by the name the table uses in braces."""
    root = tmp_path_factory.mktemp("config-errors")
    found: dict[str, str] = {"root": str(root)}
    assert invoke("generate", "scan", "--n", 200, "--seed", 1, "--out", root / "pool")[0] == 0
    assert invoke("generate", "scan", "--n", 200, "--seed", 2, "--out", root / "other")[0] == 0
    assert invoke("split", "random", root / "other", "--out", root / "other.json")[0] == 0
    assert invoke("suite", "scan", "--out", root / "suite", "--no-export")[0] == 0
    nan_pool = root / "nan-pool"
    nan_pool.mkdir()
    lines = (root / "pool" / "examples.jsonl").read_text().splitlines()
    lines[1] = lines[1][:-1] + ', "score": NaN}'
    (nan_pool / "examples.jsonl").write_text("\n".join(lines) + "\n")
    (nan_pool / "manifest.json").write_text(json.dumps({"language": "scan", "files": {}}))
    split = json.loads((root / "other.json").read_text())
    split["meta"]["ratio"] = float("inf")
    (root / "inf-split.json").write_text(json.dumps(split))  # Python writes Infinity
    configs = root / "configs"
    configs.mkdir()
    assert invoke("generate", "scan", "--n", 10, "--out", configs / "taken")[0] == 0
    for name, text in CONFIGS.items():
        (configs / f"{name}.toml").write_text(text)
        found[f"{name}.toml"] = str(configs / f"{name}.toml")
    found.update({p.name: str(p) for p in root.iterdir() if p.name not in found})
    return found


def _generate(config: str) -> tuple[str, ...]:
    return ("generate", "scan", "--n", "5", "--config", f"{{{config}}}", "--out", "{root}/g")


def _split(method: str, config: str) -> tuple[str, ...]:
    return ("split", method, "{pool}", "--config", f"{{{config}}}", "--out", "{root}/s.json")


# case, command, exit code, fragments that must all be in the message
CONFIG = [
    (
        "config-datetime-seed",
        ("generate", "scan", "--config", "{datetime-seed.toml}", "--out", "{root}/g"),
        2,
        ("datetime-seed.toml", "[generate] seed", "1979-05-27", "integer"),
    ),
    (
        "config-inf-seed",
        _generate("inf-seed.toml"),
        2,
        ("inf-seed.toml", "[generate] seed", "inf", "integer"),
    ),
    (
        "config-float-seed",
        _generate("float-seed.toml"),
        2,
        ("float-seed.toml", "[generate] seed", "1.9", "integer"),
    ),
    (
        "config-int-out",
        ("generate", "scan", "--n", "5", "--config", "{int-out.toml}"),
        2,
        ("int-out.toml", "[generate] out", "5", "a path"),
    ),
    (
        "config-float-n",
        ("generate", "scan", "--config", "{float-n.toml}", "--out", "{root}/g"),
        2,
        ("float-n.toml", "[generate] n", "5.7", "integer"),
    ),
    (
        "config-whole-float-n",
        ("generate", "scan", "--config", "{whole-float-n.toml}", "--out", "{root}/g"),
        2,
        ("whole-float-n.toml", "[generate] n", "5.0", "integer"),
    ),
    (
        "config-string-n",
        ("generate", "scan", "--config", "{string-n.toml}", "--out", "{root}/g"),
        2,
        ("string-n.toml", "[generate] n", "5.7", "integer"),
    ),
    (
        "config-bool-n",
        ("generate", "scan", "--config", "{bool-n.toml}", "--out", "{root}/g"),
        2,
        ("bool-n.toml", "[generate] n", "true", "integer"),
    ),
    (
        "config-negative-seed",
        _generate("negative-n-seed.toml"),
        2,
        ("negative-n-seed.toml", "[generate] seed", "-1", ">=0"),
    ),
    (
        "config-string-flag",
        _generate("string-flag.toml"),
        2,
        ("string-flag.toml", "[generate] all", "yes", "true or false"),
    ),
    (
        "config-int-flag",
        _generate("int-flag.toml"),
        2,
        ("int-flag.toml", "[generate] with-dag", "1", "true or false"),
    ),
    (
        "config-int-string-option",
        _generate("int-profile.toml"),
        2,
        ("int-profile.toml", "[generate] profile", "3", "a string"),
    ),
    (
        "config-table-for-value",
        _generate("table-n.toml"),
        2,
        ("table-n.toml", "[generate] n", "not a table"),
    ),
    (
        "config-int-predictions",
        ("evaluate", "{suite}", "--config", "{int-predictions.toml}"),
        2,
        ("int-predictions.toml", "[evaluate] predictions", "5", "a path"),
    ),
    (
        "config-missing-predictions-relative-to-file",
        ("evaluate", "{suite}", "--config", "{missing-predictions.toml}"),
        2,
        ("missing-predictions.toml", "[evaluate] predictions", "configs/nowhere.tsv"),
    ),
    (
        "config-both-spellings",
        _split("random", "both-spellings.toml"),
        2,
        ("both-spellings.toml", "[split]", "train-frac", "train_frac"),
    ),
    (
        "config-flag-and-parameter-name",
        _generate("flag-and-name.toml"),
        2,
        ("flag-and-name.toml", "[generate]", "'all'", "'enumerate_all'"),
    ),
    (
        "config-nan-frac",
        _split("random", "nan-frac.toml"),
        2,
        ("nan-frac.toml", "[split] train-frac", "nan", "finite"),
    ),
    (
        "config-nan-time-limit",
        _split("dbca", "nan-time-limit.toml"),
        2,
        ("nan-time-limit.toml", "[split.dbca] time-limit", "nan"),
    ),
    (
        "config-bool-time-limit",
        _split("dbca", "bool-time-limit.toml"),
        2,
        ("bool-time-limit.toml", "[split.dbca] time-limit", "true", "number"),
    ),
    (
        "config-date-pool",
        ("split", "random", "--config", "{date-pool.toml}", "--out", "{root}/s.json"),
        2,
        ("date-pool.toml", "[split] pool", "2020-01-01", "a path"),
    ),
    (
        "config-ints-for-model-specs",
        ("evaluate", "{suite}", "--config", "{list-of-ints-model.toml}"),
        2,
        ("list-of-ints-model.toml", "[evaluate] model", "1", "a string"),
    ),
    (
        "config-bool-in-list",
        ("evaluate", "{suite}", "--model", "oracle", "--config", "{bool-in-list.toml}"),
        2,
        ("bool-in-list.toml", "[evaluate] test", "true", "a string"),
    ),
    (
        "config-unknown-choice",
        _split("dbca", "unknown-choice.toml"),
        2,
        ("unknown-choice.toml", "[split.dbca] method", "grid", "greedy"),
    ),
    (
        "config-existing-out-relative-to-file",
        ("generate", "scan", "--config", "{existing-out.toml}"),
        2,
        ("existing-out.toml", "configs/taken"),
    ),
]

# the same values typed on the command line
COMMAND_LINE = [
    (
        "time-limit-nan",
        ("split", "dbca", "{pool}", "--time-limit", "nan", "--out", "{root}/s.json"),
        2,
        ("--time-limit", "nan"),
    ),
    (
        "time-limit-inf",
        ("split", "dbca", "{pool}", "--time-limit", "inf", "--out", "{root}/s.json"),
        2,
        ("--time-limit", "inf"),
    ),
    (
        "time-limit-negative",
        ("split", "dbca", "{pool}", "--time-limit", "-1", "--out", "{root}/s.json"),
        2,
        ("--time-limit", "-1"),
    ),
    (
        "train-frac-nan",
        ("split", "random", "{pool}", "--train-frac", "nan", "--out", "{root}/s.json"),
        2,
        ("--train-frac", "nan"),
    ),
    (
        "max-da-nan",
        ("split", "dbca", "{pool}", "--max-da", "nan", "--out", "{root}/s.json"),
        2,
        ("--max-da", "nan"),
    ),
    (
        "distinct-from-another-pool",
        (
            "split",
            "dbca",
            "{pool}",
            "--rounds",
            "0",
            "--distinct-from",
            "{other.json}",
            "--out",
            "{root}/d.json",
        ),
        2,
        ("other.json", "made for another pool", "other/examples.jsonl", "pool/examples.jsonl"),
    ),
]

# NaN and Infinity are not JSON: refused where read, never written
NOT_JSON = [
    (
        "nan-in-pool-export",
        ("export", "{nan-pool}", "--format", "hf", "--out", "{root}/e-nan"),
        2,
        ("nan-pool/examples.jsonl:2", "NaN is not a JSON number"),
    ),
    (
        "nan-in-pool-split",
        ("split", "random", "{nan-pool}", "--out", "{root}/s.json"),
        2,
        ("nan-pool/examples.jsonl:2", "NaN"),
    ),
    (
        "infinity-in-split-meta",
        ("suite", "from-splits", "{other}", "{inf-split.json}", "--out", "{root}/fs"),
        2,
        ("inf-split.json", "Infinity is not a JSON number"),
    ),
]

CASES = [*CONFIG, *COMMAND_LINE, *NOT_JSON]


def test_the_cases_are_distinct() -> None:
    assert len({case[0] for case in CASES}) == len(CASES)


@pytest.mark.parametrize(("case", "args", "code", "fragments"), CASES, ids=[c[0] for c in CASES])
def test_bad_input(
    paths: dict[str, str], case: str, args: tuple[str, ...], code: int, fragments: tuple[str, ...]
) -> None:
    resolved = [re.sub(r"\{([^{}]+)\}", lambda m: paths[m.group(1)], arg) for arg in args]
    found, output = invoke(*resolved)
    assert "Traceback" not in output, output
    assert found == code, f"{case}: exit {found}, expected {code}: {output}"
    for fragment in fragments:
        assert fragment in output, f"{case}: {fragment!r} not in: {output}"
    assert not Path(paths["root"], "s.json").exists()
    assert not Path(paths["root"], "d.json").exists()


def test_config_values_read_as_typed_and_paths_beside_the_file(
    paths: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Integers from TOML integers or strings, paths relative to the config file's folder
    (not the working directory), and the command line over a bad value of the file."""
    folder = tmp_path / "experiment"
    folder.mkdir()
    (folder / "run.toml").write_text(
        '[generate]\nlanguage = "scan"\nn = 12\nseed = "3"\nout = "pool"\n'
        '[evaluate]\nmodel = ["echo.py:echo"]\ntest = ["simple"]\n'
    )
    (folder / "echo.py").write_text("def echo(inputs):\n    return list(inputs)\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, output = invoke("generate", "--config", folder / "run.toml")
    assert code == 0, output
    manifest = json.loads((folder / "pool" / "manifest.json").read_text())
    assert (manifest["parameters"]["n"], manifest["seed"]) == (12, 3), manifest
    assert not (elsewhere / "pool").exists()
    code, output = invoke("evaluate", paths["suite"], "--config", folder / "run.toml")
    assert code == 0, output
    assert "simple" in output
    # a value given on the command line wins, so the file's value is never converted (a
    # value of the wrong TOML kind, like an unknown key, is refused whatever the command line)
    (folder / "bad.toml").write_text('[generate]\nn = "5.7"\nseed = "x"\n')
    code, output = invoke(
        "generate", "scan", "--n", 4, "--seed", 0, "--config", folder / "bad.toml",
        "--out", tmp_path / "cli-pool",
    )  # fmt: skip
    assert code == 0, output


def test_an_error_from_a_config_value_names_the_file(paths: dict[str, str], tmp_path: Path) -> None:
    """An error the command finds later (not while reading the value) still names the file."""
    (tmp_path / "run.toml").write_text("[split]\ntrain-frac = 0.9\ntest-frac = 0.9\n")
    code, output = invoke(
        "split", "random", paths["pool"], "--config", tmp_path / "run.toml",
        "--out", tmp_path / "s.json",
    )  # fmt: skip
    assert code == 2, output
    assert "run.toml" in output and "[split] train-frac" in output, output


def test_json_writers_refuse_nan_and_leave_nothing(tmp_path: Path) -> None:
    from symcomp.data.artifacts import write_json
    from symcomp.data.splits import Split, write_split
    from symcomp.errors import DataError

    with pytest.raises(DataError, match=r"scores\.b\[1\] is NaN"):
        write_json(tmp_path / "r.json", {"scores": {"b": [1.0, float("nan")]}})
    with pytest.raises(DataError, match="time_limit is Infinity"):
        write_split(tmp_path / "s.json", Split((0,), (), (1,), {"time_limit": float("inf")}))
    assert list(tmp_path.iterdir()) == []
