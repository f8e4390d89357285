"""Accounts on the wire: register, sign in, sessions, passwords, names, guests."""
import asyncio
import json
import sqlite3

import pytest

from game.server.accounts import hash_password, name_key, verify_password
from game.net.client import Client, ServerRefused
from game.server.limits import Limits
from game.net.protocol import ProtocolError

from .helpers import PASSWORD, ServerProcess, run_scenario, signed_in


@pytest.mark.parametrize("name, key", [("Alice", "alice"), ("ALICE", "alice"), ("A1ice", "alice"),
                                       ("Al-ice", "alice"), ("ＡＬＩＣＥ", "alice"),
                                       ("José", "jose"), ("ALİCE", "alice"),
                                       ("Рара", "papa"), ("Борис", "бopиc")])
def test_a_names_key_folds_case_width_accents_and_look_alikes(name, key):
    assert name_key(name) == key


@pytest.mark.parametrize("name", ["Аlice",            # Cyrillic А, then Latin letters
                                  "al!ce", "☺bob", "--"])
def test_names_that_mix_alphabets_or_hold_symbols_are_refused(name):
    with pytest.raises(ProtocolError) as refusal:
        name_key(name)
    assert refusal.value.code == "bad_name"


def test_a_password_hash_is_salted_and_checks_only_its_password():
    first, second = hash_password("same password", n=1024), hash_password("same password", n=1024)
    assert first != second and first.startswith("scrypt$1024$8$1$")
    assert "same password" not in first
    assert verify_password("same password", first) and verify_password("same password", second)
    assert not verify_password("same passworD", first)
    assert not verify_password("same password", None)        # no account: no
    assert not verify_password("same password", "scrypt$junk")


def test_register_sign_in_with_the_session_change_password_and_sign_out():
    async def scenario(server, url):
        alice, = await signed_in(url, "Alice")
        assert alice.welcome["guest"] is False and alice.session
        session = alice.session
        await alice.close()
        # The app keeps the session: it signs in once.
        again = await Client.with_session(url, session)
        assert again.name == "Alice" and again.welcome["guest"] is False
        assert again.session == session                  # kept for the next time
        changed = await again.change_password(PASSWORD, "a new long password")
        assert changed["session"] != session
        # The old session ended with the old password; the new one works.
        with pytest.raises(ServerRefused) as refusal:
            await Client.with_session(url, session)
        assert refusal.value.code == "bad_session"
        with pytest.raises(ServerRefused) as refusal:
            await Client.account(url, "alice", PASSWORD)
        assert refusal.value.code == "bad_password"
        await again.close()
        fresh = await Client.account(url, "ALICE", "a new long password")
        assert fresh.name == "Alice"                     # as registered, whatever was typed
        kept = fresh.session
        await fresh.sign_out()
        with pytest.raises(ServerRefused):
            await Client.with_session(url, kept)
        guest = await Client.connect(url, "Guest")
        with pytest.raises(ServerRefused) as refusal:
            await guest.change_password("x" * 8, "y" * 8)
        assert refusal.value.code == "needs_account"
    run_scenario(scenario)


def test_names_are_unique_regardless_of_case_and_look_alikes_and_guests_cannot_pose():
    async def scenario(server, url):
        await signed_in(url, "Alice")
        for name, code in (("alice", "name_taken"), ("A1ICE", "name_taken"),
                           ("Аlice", "bad_name"), ("Alice\u200b", "bad_field")):
            with pytest.raises(ServerRefused) as refusal:
                await Client.account(url, name, PASSWORD, register=True)
            assert refusal.value.code == code, name
        # A guest may not use an account's name, offline or on, in any spelling.
        with pytest.raises(ServerRefused) as refusal:
            await Client.connect(url, "ALICE")
        assert refusal.value.code == "name_taken"
        guest = await Client.connect(url, "Bob")
        assert guest.welcome["guest"] is True and guest.session is None
        with pytest.raises(ServerRefused) as refusal:       # nor an account a guest's name
            await Client.account(url, "bob", PASSWORD, register=True)
        assert refusal.value.code == "name_taken"
        with pytest.raises(ServerRefused) as refusal:
            await Client.account(url, "Carol", "short", register=True)
        assert refusal.value.code == "weak_password"
        table = (await guest.create_table())["table"]
        await guest.sit(table, "white")
        state = await guest.expect("table", table=table, where=lambda m: m["seats"]["white"])
        assert state["seats"]["white"]["guest"] is True
        lobby = await guest.lobby()
        assert lobby["guests"] == ["Bob"] and set(lobby["users"]) == {"Alice", "Bob"}
    run_scenario(scenario)


def test_wrong_passwords_are_limited_per_account_and_per_address():
    limits = Limits(scrypt_n=1 << 10, failures_per_account=3, failures_per_address=5)

    async def scenario(server, url):
        for name in ("Alice", "Bob", "Carol"):
            await (await Client.account(url, name, PASSWORD, register=True)).close()

        async def sign_in(name, password, source="127.0.0.1"):
            client = await Client.account(url, name, password, local_addr=(source, 0))
            await client.close()

        for _ in range(3):
            with pytest.raises(ServerRefused) as refusal:
                await sign_in("Alice", "wrong password")
            assert refusal.value.code == "bad_password"
        with pytest.raises(ServerRefused) as refusal:      # even the right one, for a while
            await sign_in("Alice", PASSWORD, "127.0.0.3")
        assert refusal.value.code == "rate_limited"
        await sign_in("Bob", PASSWORD)                     # other accounts are not locked
        for _ in range(2):
            with pytest.raises(ServerRefused):
                await sign_in("Bob", "wrong password")
        # Five failures from 127.0.0.1: that address may not try any account now...
        with pytest.raises(ServerRefused) as refusal:
            await sign_in("Carol", PASSWORD)
        assert refusal.value.code == "rate_limited"
        await sign_in("Carol", PASSWORD, "127.0.0.2")      # ...another address may
    run_scenario(scenario, limits=limits)


def test_a_sign_in_is_answered_before_the_next_message_of_the_same_client():
    async def scenario(server, url):
        client = await Client.connect(url, None)
        await client.send({"type": "register", "version": 1, "name": "Dora", "password": PASSWORD})
        await client.send({"type": "lobby"})               # sent while the hash is made
        first, second = await client.next(), await client.next()
        assert first["type"] == "welcome" and second["type"] == "lobby"   # welcome's own lobby
        assert (await client.next())["type"] == "lobby"
    run_scenario(scenario)


def test_passwords_appear_in_no_log_line_and_no_stored_column(tmp_path):
    """With the real hash cost, on a subprocess server: every password typed —
    right, wrong, old, new — is looked for in its output and every byte of its
    database files."""
    db = tmp_path / "accounts.sqlite3"
    server = ServerProcess(str(db))
    secrets = ["first-Password-41", "WRONG-password-42", "second-Password-43"]
    try:
        async def scenario():
            alice = await Client.account(server.url, "Alice", secrets[0], register=True)
            with pytest.raises(ServerRefused):
                await Client.account(server.url, "Alice", secrets[1])
            await alice.change_password(secrets[0], secrets[2])
            with pytest.raises(ServerRefused):
                await alice.change_password(secrets[1], secrets[0])
            raw = await Client.connect(server.url, None)       # junk around a password
            await raw.send_raw(json.dumps({"type": "sign_in", "version": 1, "name": "Alice",
                                           "password": secrets[2], "extra": 1}))
            refused = await raw.next()
            assert refused["type"] == "error" and secrets[2] not in json.dumps(refused)
            await raw.close()
            await alice.close()
        asyncio.run(asyncio.wait_for(scenario(), 30))
    finally:
        output = server.stop()
    output += server.proc.stdout.read()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for secret in secrets:
        assert secret not in output
        assert secret.encode() not in stored
    with sqlite3.connect(db) as check:
        (hashed,), = check.execute("SELECT password_hash FROM accounts").fetchall()
    assert hashed.startswith("scrypt$16384$8$1$")
    assert verify_password(secrets[2], hashed)


def test_while_a_password_is_hashed_the_other_players_are_answered(monkeypatch):
    """The hash runs on a worker thread: held there (until another client has been
    answered), it keeps only its own client waiting."""
    import threading

    import game.server.members as members
    held, real_hash = threading.Event(), members.hash_password

    def held_hash(password, n):
        held.wait(10)
        return real_hash(password, n)
    monkeypatch.setattr(members, "hash_password", held_hash)

    async def scenario(server, url):
        other = await Client.connect(url, "Other")
        newcomer = await Client.connect(url, None)
        await newcomer.send({"type": "register", "version": 1, "name": "Nell",
                             "password": PASSWORD})
        await asyncio.sleep(0.05)                        # the hash has started, and waits
        assert (await other.lobby())["type"] == "lobby"  # the loop goes on meanwhile
        assert newcomer.drain() == []
        held.set()
        assert (await newcomer.next())["type"] == "welcome"
    run_scenario(scenario)
