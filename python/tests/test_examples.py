"""The notebook-style examples run."""

import pathlib
import runpy

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path, capsys):
    pytest.importorskip("pandas")
    runpy.run_path(str(path), run_name="__main__")
    assert "TestResult" in capsys.readouterr().out


def test_there_are_examples():
    assert EXAMPLES
