"""The load balancer's configuration in docs/ is one HAProxy accepts."""
from __future__ import annotations

import shutil
import subprocess

from tests.services import missing

from .helpers import ROOT


def test_the_haproxy_configuration_in_the_docs_is_valid():
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        missing("HAProxy", "no haproxy binary (Debian package 'haproxy')")
    nodes = {f"ROUNDTABLE_NODE{k}": f"127.0.0.1:{8764 + k}" for k in (1, 2, 3)}
    result = subprocess.run(
        [haproxy, "-c", "-f", str(ROOT / "docs" / "haproxy.cfg")], capture_output=True,
        text=True, timeout=30, env={"PATH": "/usr/bin:/bin", "ROUNDTABLE_LISTEN": "127.0.0.1:8080",
                                     **nodes})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Configuration file is valid" in result.stdout
