"""After people leave, nothing of their sessions stays in a server that runs for days: no
app, screen, driver or session is still referenced once they have gone."""

from __future__ import annotations

import asyncio
import gc
import heapq
import weakref


async def _gone(server, timeout: float = 10.0) -> None:
    """Wait until the server holds no session."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while server.sessions:
        assert loop.time() < end, f"{len(server.sessions)} sessions still open"
        await asyncio.sleep(0.05)


def _drop_cancelled_timers() -> None:
    """Forget the event loop's cancelled timers, as asyncio itself does once they are half
    of its timers: each keeps the context it was made in (the app's) until its time."""
    loop = asyncio.get_running_loop()
    loop._scheduled = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
    heapq.heapify(loop._scheduled)  # type: ignore[attr-defined]


def _alive(refs: list[weakref.ref]) -> list[str]:
    """What of ``refs`` lives after a look at every object (frozen ones too)."""
    gc.unfreeze()
    gc.collect()
    gc.unfreeze()  # the server's collector freezes what survives
    return [type(r()).__qualname__ for r in refs if r() is not None]


async def test_a_person_who_typed_and_left_leaves_no_app_behind(server, players, make_key):
    """Every key a person typed went through Textual's terminal parser, whose cache of
    extended keys (shared by the process, up to 1,024 entries) kept the parser, and with
    it the last key event and the person's whole app, after they had gone: about 0.7 MB
    per person, until a thousand others had typed."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    (session,) = server.sessions
    refs = [weakref.ref(session), weakref.ref(session.app),
            weakref.ref(session.app._driver)]
    ann.press("down", "up", "n")
    await ann.wait_for("Open a table")
    ann.type("abc")
    await ann.wait_for(r"Name +abc ")
    del session
    await ann.close()
    await _gone(server)
    await asyncio.sleep(0.5)  # the app's own end
    _drop_cancelled_timers()
    assert _alive(refs) == []


def test_the_key_parser_reads_keys_as_textual_does():
    """The server's parser, its cache set apart, reads plain keys, escape sequences and
    the keyboard protocol's extended keys as Textual's own does."""
    from textual._xterm_parser import XTermParser

    from diamant_server.key_parser import KeyParser

    typed = "ab\x1b[A\x1b[97;5u\x1b[13u\x1b[3~é\r"
    def keys(parser) -> list[tuple[str, str | None]]:
        return [(e.key, e.character) for e in parser.feed(typed) if hasattr(e, "key")]
    ours, textuals = keys(KeyParser(debug=False)), keys(XTermParser(debug=False))
    assert ours == textuals and ("ctrl+a", None) in ours and len(ours) >= 7
    assert keys(KeyParser(debug=False)) == ours  # from the cache, the same
