"""The systemd units and environment files of deploy/ (issue 51): they parse,
systemd itself finds nothing wrong in them (where `systemd-analyze` is
installed), they start `skat serve`, and every variable their environment
files set is a setting `skat serve` reads."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from skat.cli import main
from tests.helpers.paths import ROOT

DEPLOY = ROOT / "deploy"
UNITS = ["skat.service", "skat-worker@.service"]
ENV_FILES = ["skat.env", "worker.env", "worker-app1-a.env"]
INSTALLED = "/opt/skat/venv/bin/skat"  # where the units expect the venv


def _unit(name: str) -> configparser.ConfigParser:
    # systemd allows a key twice (EnvironmentFile=): not strict; keys keep their case
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return unit


def _serve_variables() -> set[str]:
    command = main.commands["serve"]
    parent = click.Context(main, info_name="skat", **main.context_settings)
    params = command.get_params(click.Context(command, info_name="serve", parent=parent))
    return {p.envvar for p in params if isinstance(p, click.Option) and isinstance(p.envvar, str)}


@pytest.mark.parametrize("name", UNITS)
def test_a_unit_runs_skat_serve_with_its_environment_file(name: str) -> None:
    unit = _unit(name)
    assert unit.sections() == ["Unit", "Service", "Install"]
    service = unit["Service"]
    assert service["ExecStart"] == f"{INSTALLED} serve"  # settings only from the environment
    assert service["EnvironmentFile"].startswith("/etc/skat/")
    assert service["User"] == "skat" and service["Restart"] in ("on-failure", "always")
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    text = (DEPLOY / name).read_text(encoding="utf-8")
    for env in re.findall(r"^EnvironmentFile=-?/etc/skat/(\S+)$", text, re.M):
        example = env.replace("%i", "app1-a")
        assert (DEPLOY / example).exists(), f"{name} reads {env}: deploy/ has no example"


def test_the_worker_unit_names_the_worker_after_its_instance() -> None:
    text = (DEPLOY / "skat-worker@.service").read_text(encoding="utf-8")
    assert "Environment=SKAT_WORKER=%i" in text
    for env in ("worker.env", "worker-app1-a.env"):
        text = (DEPLOY / env).read_text(encoding="utf-8")
        assert not re.search(r"^#?SKAT_WORKER=", text, re.M), env


@pytest.mark.parametrize("name", ENV_FILES)
def test_an_environment_file_sets_only_settings_of_skat_serve(name: str) -> None:
    known = _serve_variables()
    assert {"SKAT_DB", "SKAT_PORT", "SKAT_METRICS", "SKAT_LOG_JSON"} <= known
    lines = (DEPLOY / name).read_text(encoding="utf-8").splitlines()
    named = [m[1] for line in lines if (m := re.match(r"#?(SKAT_\w+)=", line))]
    assert named, name
    for variable in named:  # those commented out too: an operator uncomments them
        assert variable in known, f"{name}: {variable} is no setting of skat serve"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
@pytest.mark.parametrize("name", UNITS)
def test_systemd_finds_nothing_wrong_in_a_unit(name: str, tmp_path: Path) -> None:
    # systemd checks that ExecStart's program exists: this venv's skat
    skat = Path(sys.executable).parent / "skat"
    assert skat.exists()
    text = (DEPLOY / name).read_text(encoding="utf-8").replace(INSTALLED, str(skat))
    target = tmp_path / name.replace("@.", "@w1.")  # a template is verified as an instance
    target.write_text(text, encoding="utf-8")
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    # an unknown key or a bad value is only a warning: none is allowed
    assert done.stderr.strip() == "" and done.stdout.strip() == "", done.stderr
