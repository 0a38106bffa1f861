"""The notebook-style examples run."""

import pathlib
import re
import runpy
import subprocess
import sys

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path, capsys):
    pytest.importorskip("pandas")
    runpy.run_path(str(path), run_name="__main__")
    assert "TestResult" in capsys.readouterr().out


def test_there_are_examples():
    assert EXAMPLES


ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_python_commands():
    text = (ROOT / "README.md").read_text()
    return re.findall(r'^python3 -c "(.*)"$', text, flags=re.M)


def test_readme_python_commands_run_as_written():
    pytest.importorskip("pandas")
    commands = readme_python_commands()
    assert commands, "README shows a Python command"
    for code in commands:
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert "TestResult" in out.stdout or out.stdout.strip(), out.stdout
