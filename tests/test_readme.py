"""The README's code runs as written: the toy language and its use through the CLI."""

import contextlib
import io
import re

from click.testing import CliRunner

import symcomp
from symcomp.cli import cli
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def toy_language_code() -> str:
    return README.split("<!-- toy-language -->\n```python\n", 1)[1].split("```", 1)[0]


def test_readme_opens_with_the_two_commands():
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in first_block.splitlines()]
    assert commands == ["make demo", "make test"]


def test_toy_language_is_short_and_runs_exactly_as_written():
    code = toy_language_code()
    assert len(code.strip().splitlines()) < 30
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    printed = output.getvalue().splitlines()
    assert printed[0] == "STEP_NORTH STEP_EAST STEP_EAST"
    robot = symcomp.get_language("robot")
    assert robot.interpret(printed[1]) and robot.parse(printed[1])
    assert [r for _, r in robot.derivation_dag("step west twice").nodes(data="rule")] == [
        "start",
        "twice",
        "step",
    ]


def test_toy_language_works_with_every_cli_command(tmp_path):
    plugin = tmp_path / "robot.py"
    plugin.write_text(
        toy_language_code().replace(
            "symcomp.register(robot)", "symcomp.register(robot, replace=True)"
        )
    )
    runner = CliRunner()
    base = ["--plugin", str(plugin)]
    pool = tmp_path / "runs" / "robot"
    result = runner.invoke(cli, [*base, "generate", "robot", "--n", "500", "--out", str(pool)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(cli, [*base, "languages"]).output.count("robot") == 1
    assert runner.invoke(cli, [*base, "stats", str(pool)]).exit_code == 0
    assert runner.invoke(cli, [*base, "export", str(pool), "--format", "srctgt"]).exit_code == 0
    interpreted = runner.invoke(cli, [*base, "interpret", "robot", "step south twice"])
    assert interpreted.output == "STEP_SOUTH STEP_SOUTH\n"


def test_readme_api_tour_is_true():
    tour = README.split("## The Python API\n\n```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(tour, "README.md", "exec"), namespace)
    expected = re.search(r"# '(.+)'", tour)
    assert expected is not None
    assert namespace["pcfg"].interpret(  # type: ignore[attr-defined]
        "append swap_first_last A1 B2 C3 , repeat D4 E5"
    ) == expected.group(1)
    assert namespace["tree"] == namespace["pcfg"].sample(seed=0).tree  # type: ignore[attr-defined]
