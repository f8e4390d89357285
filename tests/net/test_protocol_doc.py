"""docs/protocol.md documents every message type both ways and every error code."""
import re

from game.net.protocol import CLIENT_MESSAGES, SERVER_MESSAGES

from .helpers import ROOT

DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_every_message_type_is_documented():
    client_rows = set(re.findall(r"^\| `(\w+)`(?: / `(\w+)`)?", DOC, re.M))
    documented = {name for row in client_rows for name in row if name}
    assert set(CLIENT_MESSAGES) <= documented, set(CLIENT_MESSAGES) - documented
    for kind in SERVER_MESSAGES:
        assert f"`{kind}`" in DOC, kind


def test_every_error_code_the_server_raises_is_documented():
    source = "".join(p.read_text(encoding="utf-8") for p in [*(ROOT / "game" / "net").glob("*.py"), *(ROOT / "game" / "server").glob("*.py")])
    codes = set(re.findall(r'(?:ProtocolError|error)\(\s*"(\w+)"', source))
    assert len(codes) > 30
    missing = sorted(code for code in codes if f"`{code}`" not in DOC)
    assert not missing, missing
