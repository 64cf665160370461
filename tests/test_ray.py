"""Tournaments on a Ray cluster (``spread.py``, ``--ray``): a local Ray of this machine plays the
same deals to the same summary as one process, a worker killed mid-run has its deal played
again (not lost, not counted twice), and an address where no cluster answers is refused before
any deal. Ray is the ``cluster`` extra; build.py's test stage installs it (TEST_TOOLS)."""

from __future__ import annotations

import os
import signal
import socket
import sys

import pytest
from conftest import run_cli

pytestmark = pytest.mark.skipif(
    sys.platform == "emscripten", reason="Pyodide has neither processes nor Ray"
)

import py_engine.ai.tournament as tournament_mod  # noqa: E402
from py_engine import spread  # noqa: E402
from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.ai.tournament import Player, tournament  # noqa: E402

TIMING = ("seconds", "jobs", "ray", "decision_ms")


def summary(result: dict) -> dict:
    """The figures that must not depend on where the deals ran (all but the timings), with the
    number of decisions per level."""
    out = {k: v for k, v in result.items() if k not in TIMING}
    out["decisions"] = {lv: d["n"] for lv, d in result["decision_ms"].items()}
    return out


class DiesOnce(MediumBot):
    """``medium``, except that the first of these bots to play, anywhere, kills the process it
    plays in (SIGKILL: no clean-up, as a lost machine would), once: it claims the marker file
    ``marker`` (only one claim can succeed) and writes its process id beside it first."""

    def __init__(self, seed: int = 0, marker: str = "", **kw):
        super().__init__(seed=seed, **kw)
        self.marker = marker

    def decide(self, obs, legal):
        try:
            os.unlink(self.marker)
        except FileNotFoundError:
            return super().decide(obs, legal)
        with open(self.marker + ".killed", "w") as f:
            f.write(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def ray():
    import ray  # (installed by build.py's test stage: a missing Ray fails here)

    # The test module travels to the workers by value (it is no package they can import).
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    spread.connect("auto")
    yield ray
    ray.shutdown()


def test_a_tournament_on_ray_gives_the_summary_of_one_process(ray):
    one = tournament("samba", 4, "medium", "easy", 6, 21)
    code, on_ray = run_cli(
        "tournament --rules samba --players 4 --a medium --b easy --deals 6 --seed 21 --ray auto"
    )
    assert code == 0
    assert on_ray["ray"] == "auto" and on_ray["deals"] == 6
    assert summary(on_ray) == summary(one)


def test_a_worker_killed_mid_run_has_its_deal_played_again(ray, tmp_path):
    marker = tmp_path / "die"
    player = Player("medium_dies", DiesOnce, {"marker": str(marker)})
    serial = tournament("samba", 2, player, "easy", 4, 5)  # no marker: nobody dies
    marker.write_text("")
    on_ray = tournament("samba", 2, player, "easy", 4, 5, ray="auto")
    killed = tmp_path / "die.killed"
    assert not marker.exists() and killed.exists(), "no worker was killed"
    assert int(killed.read_text()) != os.getpid()  # a worker, not this process
    assert summary(on_ray) == summary(serial)  # rerun, not lost nor doubled


def test_an_address_with_no_cluster_is_refused_before_any_deal(monkeypatch):
    with socket.socket() as s:  # a port of this machine that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(tournament_mod, "play_deal", lambda *a, **k: pytest.fail("played"))
    code, res = run_cli(f"tournament --a medium --b easy --deals 2 --ray 127.0.0.1:{port}")
    assert code == 2
    err = res["error"]
    assert f"127.0.0.1:{port}" in err and "no Ray cluster answers there" in err
    code, res = run_cli("tournament --deals 2 --ray nowhere")
    assert code == 2 and "HOST:PORT" in res["error"]
