"""The input gate, the log's escaping and its rate-limited warnings, without a network."""

from __future__ import annotations

import logging

from diamant_server.input_limits import PASTE_END, PASTE_START, InputGate
from diamant_server.logtext import WarningLimiter, loggable


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def gate(rate: float = 10, burst: int = 20, paste_max: int = 200) -> tuple[InputGate, Clock]:
    clock = Clock()
    return InputGate(rate=rate, burst=burst, paste_max=paste_max, clock=clock), clock


def test_a_burst_then_the_rate_and_the_rest_dropped():
    g, clock = gate()
    assert g.filter("a" * 50) == "a" * 20
    assert g.dropped == 30
    clock.now += 1.0  # ten more a second
    assert g.filter("\x1b[A" * 15) == "\x1b[A" * 10
    assert g.dropped == 5 and g.dropped_total == 35
    assert g.flood_seconds() == 1.0


def test_a_flood_ends_after_a_quiet_spell():
    g, clock = gate()
    g.filter("x" * 30)
    assert g.flood_started == clock.now
    clock.now += 10
    assert g.flood_seconds() == 0.0
    assert g.filter("abc") == "abc" and g.dropped == 0


def test_in_band_size_reports_and_overlong_sequences_are_ignored_even_when_cut():
    g, _ = gate(rate=1000, burst=1000)
    assert g.filter("a\x1b[48;100000;100000;0;0tb") == "ab"
    assert g.filter("\x1b[48;1;100") == ""  # cut by the chunk: kept back...
    assert g.filter("000;0;0tc") == "c"  # ...and ignored once complete
    assert g.filter("\x1b[" + "1;" * 40 + "u") == ""
    assert g.ignored == 3 and g.dropped_total == 0  # ignored, not a flood


def test_only_the_last_mouse_motion_of_a_chunk_is_kept():
    g, _ = gate(rate=1000, burst=1000)
    moves = "".join(f"\x1b[<35;{x};5M" for x in range(1, 30))
    click = "\x1b[<0;3;4M\x1b[<0;3;4m"
    assert g.filter(moves + click) == "\x1b[<35;29;5M" + click
    assert g.filter("\x1b[<32;1;1M\x1b[<32;2;2M") == "\x1b[<32;2;2M"  # a drag


def test_a_paste_is_one_event_cut_to_the_chat_line_without_escapes():
    g, _ = gate(rate=1, burst=2, paste_max=10)
    text = g.filter(PASTE_START + "0123\x1b[48;9;9;0;0t456789abcdef" + PASTE_END + "z")
    assert text == PASTE_START + "0123[48;9;" + PASTE_END + "z"
    assert g.dropped == 0


def test_a_paste_cut_by_chunks_and_a_paste_over_the_allowance():
    g, _ = gate(rate=1, burst=1, paste_max=5)
    assert g.filter(PASTE_START + "abc") == PASTE_START + "abc"
    assert g.filter("defgh\x1b[20") == "de"  # the end marker may be starting
    assert g.filter("1~q") == PASTE_END  # q: no allowance left
    assert g.dropped == 1
    # A paste with no allowance left is dropped whole, end marker included.
    assert g.filter(PASTE_START + "xyz" + PASTE_END) == ""


def test_keys_cut_by_chunks_stay_whole_and_a_lone_escape_passes():
    g, _ = gate(rate=1000, burst=1000)
    assert g.filter("\x1b[1;5") == ""
    assert g.filter("A") == "\x1b[1;5A"
    assert g.filter("\x1b") == "\x1b"
    assert g.filter("\x1bOP\x1bx\xff") == "\x1bOP\x1bx\xff"


def test_log_text_is_escaped_and_cut():
    assert loggable("xterm\x1b[2J\nFORGED") == "xterm\\x1b[2J\\nFORGED"
    assert loggable("a" * 500) == "a" * 199 + "…"
    assert loggable("x" * 10, limit=5) == "xxxx…"
    assert loggable(b"\xffok\x07") == "\ufffdok\\x07"
    assert loggable("né ✓ аnn") == "né ✓ аnn"
    assert loggable("\u202eevil") == "\\u202eevil"


def test_repeated_warnings_are_logged_once_every_few_seconds_with_a_count(caplog):
    clock = Clock()
    limiter = WarningLimiter(logging.getLogger("diamant_server.test"), interval=5.0, clock=clock)
    with caplog.at_level(logging.WARNING, logger="diamant_server.test"):
        for _ in range(300):
            limiter.warning("unreadable", "s1: unreadable input")
            clock.now += 0.01
        clock.now += 5
        limiter.warning("unreadable", "s1: unreadable input")
        limiter.warning("other", "s1: something else")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["s1: unreadable input",
                        "s1: unreadable input (299 more like it not logged)",
                        "s1: something else"]


def test_the_warning_limiter_forgets_quiet_keys_when_it_holds_many():
    """Keys may come from clients (who asks, for what): past ``KEYS_KEPT`` the ones quiet
    for an interval are forgotten, those still within it kept."""
    clock = Clock()
    limiter = WarningLimiter(logging.getLogger("diamant_server.test"), interval=60.0, clock=clock)
    for n in range(WarningLimiter.KEYS_KEPT - 1):
        assert limiter.due(("watch", n)) == 0
    clock.now += 61
    assert limiter.due("recent") == 0
    assert limiter.due("recent") is None  # within its interval: left out
    assert limiter.due("one more") == 0  # the store was full: the quiet keys go
    assert len(limiter._last) == 2 and limiter.due("recent") is None


def test_the_session_limits_are_settings_and_checked():
    import argparse

    import pytest

    from diamant_server.config import ConfigError, add_arguments, load
    from diamant_server.session import SessionLimits

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    config = load(parser.parse_args(["--max-columns", "300", "--output-stall-timeout", "5"]),
                  {"DIAMANT_INPUT_EVENTS_PER_SECOND": "25"})
    limits = SessionLimits.from_config(config)
    assert (limits.max_columns, limits.max_rows, limits.input_events_per_second,
            limits.output_stall_timeout) == (300, 200, 25.0, 5.0)
    with pytest.raises(ConfigError, match="80x24 at least"):
        load(parser.parse_args(["--max-rows", "10"]), {})
    with pytest.raises(ConfigError, match="input_event_burst: must be more than 0"):
        load(parser.parse_args(["--input-event-burst", "0"]), {})


def test_the_input_burst_holds_a_whole_chat_line_and_the_keys_around_it():
    """A terminal without bracketed paste sends a chat line as keys, all at once: the
    burst (by default, and at the least a host may set) holds the chat's key, the longest
    line and Enter; a smaller one is refused, naming the least. The steady rate is left
    to thin a flood: past the burst, keys are dropped as before."""
    import argparse

    import pytest

    from diamant_server.config import (
        LEAST_INPUT_EVENT_BURST, ConfigError, ServerConfig, add_arguments, load)
    from diamant_tui.table import CHAT_MAX_CHARS

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    with pytest.raises(ConfigError, match=rf"input_event_burst: 150 keys would cut a chat "
                                          rf"line .* give {LEAST_INPUT_EVENT_BURST} at least"):
        load(parser.parse_args(["--input-event-burst", "150"]), {})
    least = load(parser.parse_args(["--input-event-burst", str(LEAST_INPUT_EVENT_BURST)]), {})
    for config in (ServerConfig(), least):
        g, _ = gate(rate=config.input_events_per_second, burst=config.input_event_burst,
                    paste_max=CHAT_MAX_CHARS)
        typed = "t" + "é" * CHAT_MAX_CHARS + "\r"
        assert g.filter(typed) == typed and g.dropped == 0
        flood = "j" * 1000
        assert len(g.filter(flood)) < config.input_event_burst and g.dropped > 0
