"""The CLI through click's runner: output, files and the fixed exit codes."""

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.core.registry import get_language


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, [str(a) for a in args], input=input)

    return invoke


def no_traceback(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_languages_lists_the_builtins(run):
    result = run("languages")
    assert result.exit_code == 0
    assert "pcfg-set" in result.output and "scan" in result.output
    scan_row = next(line for line in result.output.splitlines() if line.startswith("scan "))
    assert scan_row.split()[1] == get_language("scan").version  # each row shows its version
    rows = json.loads(run("languages", "--json").output)
    assert {row["name"] for row in rows} >= {"pcfg-set", "pcfg-let", "scan"}


def test_generate_stats_export_round(run, tmp_path):
    result = run("generate", "pcfg-set", "--n", 300, "--seed", 1, "--out", tmp_path / "p")
    assert result.exit_code == 0, result.output
    assert "wrote 300 pcfg-set examples" in result.output
    stats = run("stats", tmp_path / "p")
    assert stats.exit_code == 0 and "300 examples" in stats.output and "depth" in stats.output
    summary = json.loads(run("stats", tmp_path / "p", "--json").output)
    assert summary["examples"] == 300
    exported = run("export", tmp_path / "p", "--format", "tsv")
    assert exported.exit_code == 0
    assert len((tmp_path / "p/export/tsv/examples.tsv").read_text().splitlines()) == 300


def test_determinism_through_the_cli(run, tmp_path):
    digests = []
    for name, seed, jobs in [("a", 5, 1), ("b", 5, 2), ("c", 6, 1)]:
        result = run(
            "generate",
            "pcfg-let",
            "--n",
            1500,
            "--seed",
            seed,
            "--jobs",
            jobs,
            "--out",
            tmp_path / name,
        )
        assert result.exit_code == 0, result.output
        digests.append(hashlib.sha256((tmp_path / name / "examples.jsonl").read_bytes()).digest())
    assert digests[0] == digests[1] != digests[2]


def test_scan_all(run, tmp_path):
    result = run("generate", "scan", "--all", "--out", tmp_path / "s")
    assert result.exit_code == 0
    assert "wrote 20,910 scan examples" in result.output


def test_interpret_text_and_file(run, tmp_path):
    assert run("interpret", "scan", "walk twice").output == "I_WALK I_WALK\n"
    inputs = tmp_path / "in.tsv"
    inputs.write_text("copy A1 B1\tignored\nreverse A1 B1\n")
    result = run("interpret", "pcfg-set", "--file", inputs)
    assert result.exit_code == 0 and result.output == "A1 B1\nB1 A1\n"
    assert run("interpret", "scan", "--file", "-", input="jump\n").output == "I_JUMP\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (("interpret", "nope", "x"), "unknown language 'nope'"),
        (("interpret", "scna", "walk"), "did you mean 'scan'"),
        (("interpret", "pcfg-set", "copy foo"), "unexpected character 'f'"),
        (("interpret", "pcfg-set"), "either TEXT or --file"),
        (("generate", "pcfg-set", "--out", "x"), "either --n (a random pool of n) or --all"),
        (("generate", "pcfg-set", "--n", "5", "--target", "t.json", "--out", "x"), "--naturalize"),
        (("generate", "pcfg-let", "--n", "5", "--naturalize", "--out", "x"), "pass --target"),
        (("generate", "scan", "--n", "30000", "--out", "x"), "only 20,910 sentences"),
    ],
)
def test_bad_input_exits_2_with_one_paragraph(run, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    no_traceback(result)
    assert not (tmp_path / "x").exists()


def test_interpret_file_error_names_the_line(run, tmp_path):
    inputs = tmp_path / "in.txt"
    inputs.write_text("copy A1\nappend A1\n")
    result = run("interpret", "pcfg-set", "--file", inputs)
    assert result.exit_code == 2
    assert f"{inputs}:2: not valid pcfg-set input" in result.output
    assert "^" in result.output


def test_unwritable_out_exits_2(run, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("generate", "scan", "--n", 5, "--out", blocker / "pool")
    assert result.exit_code == 2 and "cannot write to" in result.output
    result = run("generate", "scan", "--n", 5, "--out", blocker)
    assert result.exit_code == 2 and "is a file" in result.output
    no_traceback(result)


def test_existing_pool_needs_overwrite(run, tmp_path):
    assert run("generate", "scan", "--n", 5, "--out", tmp_path / "p").exit_code == 0
    result = run("generate", "scan", "--n", 5, "--out", tmp_path / "p")
    assert result.exit_code == 2 and "--overwrite" in result.output
    assert run("generate", "scan", "--n", 5, "--out", tmp_path / "p", "--overwrite").exit_code == 0


def test_stats_of_a_malformed_pool(run, tmp_path):
    (tmp_path / "examples.jsonl").write_text('{"id": "a", "input": "x", "output": "y"}\n{oops\n')
    result = run("stats", tmp_path)
    assert result.exit_code == 2
    assert "examples.jsonl:2: not valid JSON" in result.output


BAD_GRAMMAR_PLUGIN = """
import symcomp
symcomp.register(symcomp.Language.from_grammar(
    "broken", 'start: "a" -> a\\n     | "b"\\n%ignore " "\\n', semantics=symcomp.Semantics))
"""

BAD_WEIGHTS_PLUGIN = """
from pathlib import Path
import symcomp
here = Path(__file__).parent
(here / "w.lark").write_text('start: "a" -> a\\n     | "b" -> b\\n%ignore " "\\n')
(here / "w.toml").write_text('[language]\\nversion = "1"\\n[weights]\\na = 1\\nc = 2\\n')
symcomp.register(symcomp.Language.from_grammar("w", here / "w.lark", semantics=symcomp.Semantics))
"""


@pytest.mark.parametrize(
    "plugin, message",
    [
        (BAD_GRAMMAR_PLUGIN, "alternative 2 of rule 'start'"),
        (BAD_WEIGHTS_PLUGIN, "w.toml:5: weight for unknown alias 'c'"),
        ("import nonexistent_module_xyz\n", "cannot load plugin"),
    ],
)
def test_malformed_grammar_or_weights_in_a_plugin_exit_2(run, tmp_path, plugin, message):
    path = tmp_path / "plugin.py"
    path.write_text(plugin)
    result = run("--plugin", path, "languages")
    assert result.exit_code == 2, result.output
    assert message in result.output
    no_traceback(result)


def test_help_is_fast_and_lists_commands(run):
    result = run("--help")
    assert result.exit_code == 0
    for command in ("languages", "generate", "interpret", "stats", "export"):
        assert command in result.output


def test_plugin_from_environment(run, tmp_path, monkeypatch):
    path = Path(tmp_path / "tiny.py")
    path.write_text(
        "import symcomp\n"
        "class S(symcomp.Semantics):\n    def go(self, c): return ['GO']\n"
        "symcomp.register(symcomp.Language.from_grammar('tiny-env', 'start: \"go\" -> go\\n"
        '%ignore " "\\n\', semantics=S), replace=True)\n'
    )
    monkeypatch.setenv("SYMCOMP_PLUGINS", str(path))
    assert run("interpret", "tiny-env", "go").output == "GO\n"


def test_the_cli_starts_without_heavy_imports():
    import subprocess
    import sys

    probe = (
        "import sys, symcomp.cli; "
        "print(sorted(m for m in ('lark', 'networkx', 'torch', 'dgl', 'z3', 'nltk', 'sympy') "
        "if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_verify_imports_only_what_it_uses(run, tmp_path):
    """A verify whose labels are all decided by construction needs no solver, no graph
    library and no nltk (whose __init__ imports scipy): start-up was most of a small run."""
    import subprocess
    import sys

    pool = tmp_path / "pairs"
    assert (
        run("generate", "monotonicity", "--n", "10", "--seed", "0", "--out", str(pool)).exit_code
        == 0
    )
    report = tmp_path / "modules.txt"
    probe = (
        "import atexit, sys; from pathlib import Path; "
        f"atexit.register(lambda: Path({str(report)!r}).write_text(' '.join(sorted("
        "m for m in ('nltk', 'scipy', 'networkx', 'z3', 'torch', 'numpy') if m in sys.modules)))); "
        "from symcomp.cli import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "verify", str(pool)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "portfolio 0" in done.stdout  # every label decided by construction
    assert report.read_text() == ""
