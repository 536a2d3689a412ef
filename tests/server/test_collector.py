"""The cycle collector is set for many apps while the server runs, and put back after."""

from __future__ import annotations

import gc
from dataclasses import replace

from conftest import TEST_CONFIG
from diamant_server.collector import YOUNG
from diamant_server.server import GameServer


async def test_the_server_collects_young_less_often_and_puts_the_collector_back(tmp_path):
    before = gc.get_threshold()
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await server.start()
    try:
        # What the start built is out of the collector's sight; young objects are
        # collected every YOUNG new ones, so that a frame's garbage dies young.
        assert gc.get_threshold() == (YOUNG, *before[1:])
        assert gc.get_freeze_count() > 0
    finally:
        await server.stop()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0

