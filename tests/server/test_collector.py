"""The cycle collector is set for many apps while the server runs, and put back after."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from dataclasses import replace

from conftest import TEST_CONFIG
from diamant_server import collector as collector_module
from diamant_server.collector import PER_SESSION, YOUNG, Collector
from diamant_server.server import GameServer


async def test_the_server_collects_young_less_often_and_puts_the_collector_back(tmp_path):
    before = gc.get_threshold()
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await server.start()
    try:
        # What the start built is out of the collector's sight; young objects are
        # collected every YOUNG new ones, so that a frame's garbage dies young.
        assert gc.get_threshold() == (YOUNG, before[1], before[2])
        assert gc.get_freeze_count() > 0
    finally:
        await server.stop()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0



class Node:
    """An object in a cycle: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


async def test_what_survives_a_full_collection_is_frozen_and_garbage_is_not():
    collector = Collector()
    collector.tune()
    try:
        kept = Node()
        dropped = weakref.ref(Node())  # garbage already: a cycle nobody holds
        frozen, freezes = gc.get_freeze_count(), collector.freezes
        gc.collect()
        assert collector.freezes == freezes + 1
        assert gc.get_freeze_count() > frozen  # `kept`, among what survived
        assert dropped() is None  # the garbage was freed, not frozen
        assert kept.me is kept
        young = Node()
        assert gc.is_tracked(young) and all(young is not o for o in gc.get_objects(2))
    finally:
        collector.restore()
    assert gc.get_freeze_count() == 0 and collector._after_collection not in gc.callbacks


async def test_what_survives_a_middle_collection_is_frozen_and_garbage_is_not():
    # Frozen at once, it never grows old in the collector's sight: no full collection
    # looks at it again.
    collector = Collector()
    collector.tune()
    try:
        kept = Node()
        dropped = weakref.ref(Node())
        frozen, freezes = gc.get_freeze_count(), collector.freezes
        gc.collect(1)
        assert collector.freezes == freezes + 1
        assert gc.get_freeze_count() > frozen
        assert all(kept is not o for g in range(3) for o in gc.get_objects(g))
        assert dropped() is None and kept.me is kept
        gc.collect(0)  # a young collection freezes nothing: what it leaves may die soon
        assert collector.freezes == freezes + 1
    finally:
        collector.restore()


async def test_memory_grown_by_half_with_frozen_garbage_is_all_looked_at_again(caplog):
    caplog.set_level("INFO", logger="diamant_server.collector")
    collector = Collector()
    collector.tune()
    try:
        assert not collector.check() and collector.sweeps == 0
        base, frozen = sys.getallocatedblocks(), gc.get_freeze_count()
        apps = [Node() for _ in range(base)]  # a block or more each: the memory about doubles
        gc.collect()  # a full collection freezes them, alive
        left = weakref.ref(apps[0])
        assert gc.get_freeze_count() > frozen + base
        del apps[:]  # their cycles die frozen: out of the collector's sight
        gc.collect()
        assert left() is not None and sys.getallocatedblocks() > 1.8 * base
        assert collector.check() and collector.sweeps == 1
        assert left() is None  # the sweep freed them
        # The pause is told in the log, with what it freed.
        said = [r.getMessage() for r in caplog.records if r.name == "diamant_server.collector"]
        assert len(said) == 1 and said[0].startswith("cycle collector: looked at everything")
        memory = said[0].removesuffix(" blocks").split("memory ")[1]
        before, after = (int(n) for n in memory.split(" -> "))
        assert before > 1.8 * base and after < 1.2 * base
        assert sys.getallocatedblocks() < 1.2 * base
        assert gc.get_freeze_count() > frozen / 2  # and froze again what lives
        assert not collector.check()
    finally:
        collector.restore()


async def test_new_sessions_may_grow_the_memory_by_what_they_hold():
    sessions = [0]
    collector = Collector(lambda: sessions[0])
    collector.tune()
    try:
        base = sys.getallocatedblocks()
        sessions[0] = 2 * base // PER_SESSION  # apps for that many: room for 2 x base more
        apps = [Node() for _ in range(base)]  # alive, a base's worth of blocks or more
        gc.collect()
        assert sys.getallocatedblocks() > 1.8 * base
        assert not collector.check() and collector.sweeps == 0
        sessions[0] = 0  # they all leave: what they held is garbage beyond the allowance
        del apps[:]
        assert collector.check() and collector.sweeps == 1
    finally:
        collector.restore()


async def test_the_server_watches_its_memory_while_it_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(collector_module, "CHECK_EVERY", 0.01)
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await server.start()
    try:
        apps = [Node() for _ in range(sys.getallocatedblocks())]
        gc.collect()
        del apps[:]
        for _ in range(500):
            if server.collector.sweeps:
                break
            await asyncio.sleep(0.01)
        assert server.collector.sweeps == 1
    finally:
        await server.stop()
    assert gc.get_freeze_count() == 0
