"""The README's Python example prints what its comments say, and the
benchmark script agrees with the command line (when it has been built)."""

import re
import subprocess
import sys

import pytest

from conftest import DATA, ROOT

CLI = ROOT / "target" / "release" / "sokoban"


def test_the_readme_example_works_as_printed():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    expected = [line.split("  # ")[1].strip() for line in code.splitlines() if "  # " in line]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == expected


@pytest.mark.skipif(not CLI.exists(), reason="the command line is not built")
@pytest.mark.parametrize("levels", ["boxoban-medium-1000.xsb", "microban.xsb"])
def test_the_benchmark_gives_the_command_lines_answers(levels):
    script = ROOT / "tests" / "python" / "bench_boxoban.py"
    done = subprocess.run(
        [sys.executable, str(script), str(DATA / "levels" / levels), "--jobs", "2"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "answers: the same" in done.stdout
