"""Fixtures for the server tests: a real server on 127.0.0.1, port 0, in a temporary folder."""

from __future__ import annotations

from dataclasses import replace

import asyncssh
import pytest

from diamant_server.config import ServerConfig
from diamant_server.server import GameServer

from harness import Player

TEST_CONFIG = ServerConfig(host="127.0.0.1", port=0, pace=0.02, keepalive_interval=0,
                           connect_rate=50, connect_burst=50)


@pytest.fixture
async def server(tmp_path):
    """A running server; stopped (and every session closed) after the test."""
    game_server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await game_server.start()
    yield game_server
    await game_server.stop()


@pytest.fixture
def make_key():
    """Make a new client key (a new person)."""
    return lambda: asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def players():
    """Players made during a test; all disconnected at the end."""
    made: list[Player] = []

    def make(name: str, size: tuple[int, int] = (80, 24)) -> Player:
        player = Player(name, size)
        made.append(player)
        return player

    yield make
    for player in made:
        try:
            await player.close()
        except Exception:
            pass
