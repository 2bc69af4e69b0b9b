"""What an operator installs (issue 51): the version is written once, the
licence travels in the wheel, the declared build floor really builds, and
constraints.txt pins versions the package allows."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.requirements import Requirement
from packaging.version import Version

import skat
from skat.cli import main
from tests.helpers.paths import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once_and_every_place_shows_it() -> None:
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert version("skat") == skat.__version__
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and skat.__version__ in result.output
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d[^\]]*)\]", changelog, re.M)
    assert released and released[0] == skat.__version__, "CHANGELOG.md's newest release"
    assert "## [Unreleased]" in changelog


def test_the_licence_is_the_declared_one() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the skat contributors" in text


def test_constraints_pin_every_runtime_dependency_within_its_bounds() -> None:
    pins: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, pinned = line.partition("==")
            pins[_norm(name)] = Version(pinned)
    for dep in PYPROJECT["project"]["dependencies"]:
        req = Requirement(dep)
        assert _norm(req.name) in pins, f"constraints.txt lacks {req.name}"
        assert req.specifier.contains(pins[_norm(req.name)]), f"{req.name}: {req.specifier}"


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.slow
def test_a_wheel_built_with_the_declared_build_floor_holds_what_it_should(
    tmp_path: Path,
) -> None:
    """pip fetches the declared floor of setuptools from PyPI (as CI can)."""
    [requirement] = PYPROJECT["build-system"]["requires"]
    floor = Requirement(requirement)
    [spec] = floor.specifier
    assert spec.operator == ">="
    tree = tmp_path / "tree"  # a copy: the build writes build/ and egg-info beside it
    tree.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(
        ROOT / "src",
        tree / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"),
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "install", f"setuptools=={spec.version}"], check=True, timeout=300)
    subprocess.run(
        [*pip, "wheel", "--no-build-isolation", "--no-deps", "-w", str(tmp_path / "out"), "."],
        cwd=tree,
        check=True,
        timeout=600,
    )
    [wheel] = (tmp_path / "out").glob("skat-*.whl")
    assert wheel.name.startswith(f"skat-{skat.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    dist_info = f"skat-{skat.__version__}.dist-info"
    assert f"{dist_info}/licenses/LICENSE" in names
    assert "skat/players/solver/_csolver.pyi" in names
    assert any(re.fullmatch(r"skat/players/solver/_csolver\..*\.so", n) for n in names)
    static = ROOT / "src" / "skat" / "web" / "static"
    for f in static.iterdir():
        assert f"skat/web/static/{f.name}" in names
    for page in ("index.html", "offline.html", "sw.js", "manifest.webmanifest"):
        assert f"skat/web/{page}" in names  # the page and the installable page's files
    assert "skat/py.typed" in names
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata
    assert f"Version: {skat.__version__}" in metadata
