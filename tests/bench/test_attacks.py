"""bench/server/attacks.py in a tiny form: one attack (issue 54, finding 1:
the upload flood) for a second or two beside one table of people and one
of a person and computers, so that the benchmark keeps running. Its
figures are not asserted (they depend on the machine); what the attack
met is: the attacker refused, the bystander's boards answered."""

from __future__ import annotations

import json

import pytest
from bench.server import attacks

pytestmark = pytest.mark.slow


def test_the_upload_attack_runs_beside_its_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    argv = "--attack upload --seconds 3 --warmup 0.5 --pace 0.3 --people-tables 1"
    attacks.main([*argv.split(), "--computer-tables", "1"])
    out = capsys.readouterr().out
    result = json.loads(out.strip().splitlines()[-1])["upload"]
    assert result["tracebacks"] == 0
    for window in ("baseline", "attack"):
        assert result[window]["people_samples"] > 0, out
    found = result["found"]
    assert found["file_kib"] > 60 and found["games_in_file"] > 50  # 63 KiB of game records
    assert "429 RATE_LIMITED" in found["answers"], found
    assert set(found["answers"]) <= {"404 NO_DEAL", "503 BUSY", "429 RATE_LIMITED"}, found
    assert set(found["bystander_boards"]) == {"200"}, found
    assert "== summary" in out
