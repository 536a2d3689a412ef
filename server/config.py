"""Settings of ``diamant serve``: defaults, an optional TOML file, the environment and flags.

Every setting has one name used everywhere: ``--max-connections`` on the command line,
``DIAMANT_MAX_CONNECTIONS`` in the environment and ``max_connections`` in the TOML file.
A flag beats the environment, which beats the file, which beats the default.
"""

from __future__ import annotations

import argparse
import difflib
import math
import os
import re
import tomllib
import unicodedata
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Callable, Mapping

import platformdirs

from diamant_tui.table import CHAT_MAX_CHARS, PACE_MOST

from .addresses import split_public_host

ENV_PREFIX = "DIAMANT_"
KEYS_BESIDE_A_CHAT_LINE = 20
"""Keys an input burst holds besides a whole chat line: the chat's key, Enter and a few
more typed with them (a slip mended, an arrow)."""
LEAST_INPUT_EVENT_BURST = CHAT_MAX_CHARS + KEYS_BESIDE_A_CHAT_LINE
"""The smallest ``input_event_burst`` allowed, and its default: a terminal without
bracketed paste, or a quick paste, sends a chat line as keys all at once, and the keys
past the burst would be lost, cutting the line (a flood is thinned by the steady rate)."""


class ConfigError(ValueError):
    """A setting with a bad value; the message names the setting and where it came from."""


def default_data_dir() -> Path:
    """The server's data folder in the user's data directory."""
    return Path(platformdirs.user_data_dir("diamant", appauthor=False)) / "server"


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``diamant serve`` can be told, limits included: this is the one place
    where every limit has its name and its default (and, in ``_HELP``, what it bounds and
    why); the parts that enforce a limit are given its value from here."""

    # Where and how the server listens.
    host: str = "0.0.0.0"
    port: int = 2222
    data_dir: Path | None = None
    public_host: str = ""
    log_level: str = "info"
    pace: float = 0.7
    keepalive_interval: float = 30.0
    stop_grace: float = 2.0
    # Connections and sessions.
    max_connections: int = 500
    max_per_address: int = 20
    max_sessions_per_person: int = 3
    max_sessions_per_connection: int = 1
    connect_rate: float = 1.0
    connect_burst: int = 10
    login_timeout: float = 20.0
    lobby_idle_timeout: float = 1800.0
    waiting_timeout: float = 1800.0
    # One session's terminal, input and output.
    max_columns: int = 500
    max_rows: int = 200
    input_events_per_second: float = 40.0
    input_event_burst: int = LEAST_INPUT_EVENT_BURST
    input_flood_seconds: float = 10.0
    input_bytes_per_second: int = 32_768
    input_byte_burst: int = 65_536
    output_high_water: int = 256 * 1024
    output_buffer_max: int = 4 * 1024 * 1024
    output_stall_timeout: float = 60.0
    env_max_count: int = 16
    env_max_length: int = 64
    # Every session's share of the one event loop all the apps run in.
    fair_share_lag: float = 0.05
    fair_share_window: float = 1.0
    fair_share_hold: float = 2.0
    fair_share_seat_weight: float = 2.0
    # Tables, spectators, chat and resume codes.
    max_tables: int = 200
    max_tables_per_person: int = 3
    empty_table_timeout: float = 120.0
    restore_wait: float = 120.0
    bot_time_limit: float = 5.0
    max_watchers: int = 20
    chat_person_lines: int = 5
    chat_watchers_lines: int = 10
    chat_table_lines: int = 20
    chat_window: float = 10.0
    resume_guesses: int = 5
    resume_window: float = 60.0
    resume_addresses: int = 10_000
    # A public room: its face, its log and its metrics.
    server_name: str = ""
    motd: str = ""
    refused_names: str = "root, admin, administrator, sysop, moderator, diamant, server"
    log_format: str = "text"
    log_chat: bool = False
    metrics_port: int = 0
    metrics_host: str = "127.0.0.1"
    admins: str = ""

    @property
    def data_path(self) -> Path:
        """The data folder, the default one when none was given."""
        return self.data_dir if self.data_dir is not None else default_data_dir()

    @property
    def refused_name_list(self) -> tuple[str, ...]:
        """The names nobody may log in under (``refused_names``, split at commas)."""
        return tuple(name.strip() for name in self.refused_names.split(",") if name.strip())

    @property
    def admin_list(self) -> tuple[str, ...]:
        """The key fingerprints of the admins (``admins``, split at commas)."""
        return tuple(key.strip() for key in self.admins.split(",") if key.strip())


# Bounds that are not settings, because the game's shape fixes them rather than the
# host's machine (each is defined, with its reason, where it is enforced):
# - NAME_MAX_CHARS (16, diamant_tui/names.py) and CHAT_MAX_CHARS (200,
#   diamant_tui/table/chat.py): the screens are laid out for them at 80x24;
# - CHAT_KEPT (50 lines a table keeps, diamant_tui/table/chat.py): what the chat panel shows;
# - TERM_MAX_LENGTH (64), RESIZE_INTERVAL and RESIZE_CELLS (server/session.py): a terminal
#   name is short, and a resize is laid out at most a few times a second;
# - MAX_SEQUENCE (32) and FLOOD_QUIET (server/input_limits.py): the longest escape
#   sequence a terminal sends, and the quiet that ends a flood.
# Every other limit is a setting below.

# name -> help text: what the setting is and, for a limit, what it bounds and why.
# The order is the order of ``--help``.
_HELP: dict[str, str] = {
    "host": "address to listen on",
    "port": "TCP port to listen on (0 picks a free one)",
    "data_dir": "folder for the host key and the database (diamant.sqlite3: games, players, "
                "ratings)",
    "public_host": "the host (or host:port) players type, shown in commands such as a guest's "
                   "resume line (empty: the address each client connected to)",
    "log_level": "debug, info, warning or error",
    "pace": f"the least seconds from one card to the next at tables created on this "
            f"server, 0 to {PACE_MOST:g}",
    "keepalive_interval": "seconds between keepalive messages (0: none)",
    "stop_grace": "seconds sessions get to close when the server stops, before their "
                  "connections are cut (a stop must end within seconds whatever the load)",
    "max_connections": "most connections at once, in all: each costs memory and CPU",
    "max_per_address": "most connections at once from one address, so that one machine "
                       "cannot take them all",
    "max_sessions_per_person": "most sessions at once for one person (an SSH key, or a guest's "
                               "address): each is an app",
    "max_sessions_per_connection": "session channels one connection may open: each is an app "
                                   "for the price of one connection",
    "connect_rate": "new connections per second allowed from one address, on average",
    "connect_burst": "new connections allowed from one address in a burst",
    "login_timeout": "seconds a client has to log in, and a connection to open its session",
    "lobby_idle_timeout": "seconds a session may stay idle in the lobby, holding a slot",
    "waiting_timeout": "seconds a session may wait at a table for its game to start",
    "max_columns": "widest terminal drawn, in columns: a frame's cost grows with its size",
    "max_rows": "tallest terminal drawn, in rows: a frame's cost grows with its size",
    "input_events_per_second": "keys and mouse reports a session may send per second, on "
                               "average (each may redraw its screen); more are ignored",
    "input_event_burst": f"keys and mouse reports a session may send in a burst: at least "
                         f"a whole chat line ({CHAT_MAX_CHARS} characters) and "
                         f"{KEYS_BESIDE_A_CHAT_LINE} keys, which a terminal without bracketed "
                         f"paste sends at once",
    "input_flood_seconds": "seconds a session may keep sending too many keys before it is "
                           "closed",
    "input_bytes_per_second": "bytes of input a session may send per second, on average; "
                              "more are thrown away before they are read",
    "input_byte_burst": "bytes of input a session may send in a burst (a paste)",
    "output_high_water": "bytes queued for a client before its frames are dropped until it "
                         "reads again",
    "output_buffer_max": "bytes that may wait to be sent to one client: a client that does "
                         "not read costs bounded memory",
    "output_stall_timeout": "seconds a client may read nothing of what is sent before its "
                            "session is closed",
    "env_max_count": "environment variables kept for a session (only those the game reads)",
    "env_max_length": "longest environment variable kept, name or value (a locale or a "
                      "terminal name)",
    "fair_share_lag": "seconds the event loop (one for every session) may run late before "
                      "the input of sessions using more than their share of it waits, so "
                      "that a crowd's typing cannot slow a player's game",
    "fair_share_window": "seconds over which each session's use of the event loop is "
                         "averaged to compare it with its share",
    "fair_share_hold": "most seconds a session's input waits for its turn while the event "
                       "loop runs late (none of it is lost)",
    "fair_share_seat_weight": "shares of the event loop a seat in a game in progress gets "
                              "for one share of a spectator or a lobby session: a player has "
                              "turns to take",
    "max_tables": "most tables open at once, in all",
    "max_tables_per_person": "most open tables one person (an SSH key, or a guest's address) "
                             "has opened, so that one person cannot fill the server",
    "empty_table_timeout": "seconds a table with nobody at it stays open",
    "bot_time_limit": "seconds a computer player may think over one decision before a "
                      "stand-in decides for it (a strong one may think longer; each is a "
                      "thread's time)",
    "restore_wait": "seconds a table rebuilt after a restart waits for its people to come "
                    "back before computer players play their seats (a waiting table's "
                    "seats are freed)",
    "max_watchers": "most spectators at one table: every update of a table is a redraw for "
                    "each of them",
    "chat_person_lines": "chat lines one person may send in a chat window",
    "chat_watchers_lines": "chat lines a table passes on in a chat window from all its "
                           "spectators together, so a crowd cannot drown the players",
    "chat_table_lines": "chat lines a table passes on in a chat window from everyone at it: "
                        "every line is a redraw for everyone",
    "chat_window": "seconds over which chat lines are counted",
    "resume_guesses": "wrong resume codes one address may type in a resume window before it "
                      "must wait (a code gives a seat)",
    "resume_window": "seconds over which wrong resume codes are counted",
    "resume_addresses": "addresses whose wrong resume codes are remembered at once (the "
                        "oldest is forgotten past it): bounded memory under a spray of "
                        "addresses",
    "server_name": "the server's name, shown at the top of the lobby (empty: none)",
    "motd": "a message of the day, shown in the lobby under its title (empty: none)",
    "refused_names": "names nobody may log in under, separated by commas; names that only "
                     "look like one of them (another script's letters, capitals) are "
                     "refused too",
    "log_format": "text (one readable line per event) or json (one JSON object per line, "
                  "for a log collector)",
    "log_chat": "also log what players say in chat (true or false); off, the log holds no "
                "chat text",
    "metrics_port": "port of a Prometheus metrics endpoint (0: none)",
    "metrics_host": "address the metrics endpoint listens on: keep it local unless a "
                    "firewall guards it",
    "admins": "key fingerprints (SHA256:..., as ssh-keygen -lf shows them) of the people "
              "who get the admin screen in the lobby: sessions, kicks, bans, closing "
              "tables, messages to everyone; separated by commas (empty: no admins)",
}

_LOG_LEVELS = ("debug", "info", "warning", "error")
_LOG_FORMATS = ("text", "json")
_MAY_BE_ZERO = ("keepalive_interval", "pace", "metrics_port")
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
SERVER_NAME_MAX = 40
"""Longest server name: it shares the lobby's title line."""
MOTD_MAX = 300
"""Longest message of the day, in characters (a few lines of the lobby's header)."""
"""Numbers that may be 0; every other number must be more than 0."""
KEY_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")
"""A key's fingerprint as OpenSSH shows it (``ssh-keygen -lf``): SHA-256, base64, no padding."""


def _parser_for(name: str) -> Callable[[str], Any]:
    kind = {f.name: f.type for f in fields(ServerConfig)}[name]
    if name == "data_dir":
        return data_dir_path
    if name == "log_level":
        return _log_level
    if name == "log_format":
        return _log_format
    return {"int": _whole, "float": _number, "str": str, "bool": _yes_no}[str(kind)]


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        # nan passes every comparison (a pace of nan never turns a card, a limit of nan
        # limits nothing) and infinity waits for ever: neither can be a setting.
        raise ValueError(f"{text!r} is not a finite number; give an ordinary number")
    return value


def data_dir_path(text: str) -> Path:
    """The data folder named by ``text`` (a ``~`` expanded); an empty one is refused: it
    would silently be the current folder, with a new host key and an empty database."""
    if not text.strip():
        raise ValueError(f"the path is empty; give the data folder's path, or leave the "
                         f"setting out for the default, {default_data_dir()}")
    return Path(text).expanduser()


def _log_level(text: str) -> str:
    level = text.lower()
    if level not in _LOG_LEVELS:
        raise ValueError(f"{text!r} is not one of {', '.join(_LOG_LEVELS)}")
    return level


def _log_format(text: str) -> str:
    if text.lower() not in _LOG_FORMATS:
        raise ValueError(f"{text!r} is not one of {', '.join(_LOG_FORMATS)}")
    return text.lower()


def _yes_no(text: str) -> bool:
    word = text.strip().lower()
    if word not in _TRUE + _FALSE:
        raise ValueError(f"{text!r} is neither true nor false")
    return word in _TRUE


def _check_texts(config: ServerConfig, where: Callable[[str], str]) -> None:
    """The room's texts are shown to every player: no control characters but line
    breaks in the message of the day, and a bounded length."""
    for name, most, breaks in (("server_name", SERVER_NAME_MAX, False),
                               ("motd", MOTD_MAX, True)):
        text = getattr(config, name)
        if len(text) > most:
            raise ConfigError(f"{where(name)}{name}: at most {most} characters, not {len(text)}")
        if any(unicodedata.category(ch)[0] == "C" and not (breaks and ch == "\n")
               for ch in text):
            raise ConfigError(f"{where(name)}{name}: control characters are not allowed"
                              + ("" if not breaks else " (line breaks are)"))


def _check_public_host(public_host: str, where: str) -> None:
    """``public_host`` is put in the commands players are shown to type (``ssh -p 2222
    play.example.org``): a name or an address (letters of any script, digits, ``.``,
    ``-``, ``_``; an IPv6 address alone or in brackets), with a port after a colon if any.
    With a space, ``a b`` was shown as two words, one of them taken for a command."""
    if not public_host:
        return
    host, port = split_public_host(public_host)
    if (not host or not all(ch.isalnum() or ch in ".-_:%" for ch in host)
            or port is not None and not (port.isascii() and port.isdigit()
                                         and 1 <= int(port) <= 65535)):
        raise ConfigError(f"{where}public_host: {public_host[:80]!r} is not a host players "
                          f"can type; give a name or an address, with a port if it is not "
                          f"the one the server listens on (such as play.example.org or "
                          f"play.example.org:22)")


def _shown(value: int | float) -> str:
    """A number as a refusal echoes it: ``-3``, not ``-3.0``, for a pace of -3."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def _check(config: ServerConfig, sources: Mapping[str, str] | None = None) -> ServerConfig:
    """Reject values that cannot work, naming the setting and, from ``sources`` (setting
    -> the command line, the environment or the TOML file's path), where it was given:
    with a file, variables and flags all in play, the name alone does not say which one
    to change. A setting left at its default has no source."""
    given = sources or {}

    def where(name: str) -> str:
        return f"{given[name]}: " if name in given else ""

    for port in ("port", "metrics_port"):
        if not 0 <= getattr(config, port) <= 65535:
            raise ConfigError(f"{where(port)}{port}: {getattr(config, port)} is not between "
                              f"0 and 65535")
    for field in fields(ServerConfig):
        name, value = field.name, getattr(config, field.name)
        if (name == "port" or not isinstance(value, (int, float))
                or isinstance(value, bool)):
            continue
        if not math.isfinite(value):
            raise ConfigError(f"{where(name)}{name}: must be a finite number, not {value}")
        if name in _MAY_BE_ZERO:
            if value < 0:
                raise ConfigError(f"{where(name)}{name}: must not be negative, not "
                                  f"{_shown(value)}")
        elif value <= 0:
            raise ConfigError(f"{where(name)}{name}: must be more than 0, not {_shown(value)}")
    if config.metrics_port and config.metrics_port == config.port:
        raise ConfigError(f"{where('metrics_port')}metrics_port: {config.port} is the port "
                          f"the server listens on (port); give the metrics endpoint a port "
                          f"of its own")
    if config.pace > PACE_MOST:
        # A table refuses a slower pace: every table the server opened would fail.
        raise ConfigError(f"{where('pace')}pace: at most {PACE_MOST:g} seconds from one card "
                          f"to the next, not {_shown(config.pace)}; give 0 to {PACE_MOST:g}")
    for name, least, unit in (("max_columns", 80, "columns"), ("max_rows", 24, "rows")):
        if getattr(config, name) < least:
            raise ConfigError(f"{where(name)}{name}: the game needs 80x24 at least, not "
                              f"{getattr(config, name)} {unit}")
    if config.input_event_burst < LEAST_INPUT_EVENT_BURST:
        raise ConfigError(f"{where('input_event_burst')}input_event_burst: "
                          f"{config.input_event_burst} keys would cut a chat line typed at "
                          f"once (up to {CHAT_MAX_CHARS} characters, with the keys around "
                          f"it); give {LEAST_INPUT_EVENT_BURST} at least")
    _check_texts(config, where)
    _check_public_host(config.public_host, where("public_host"))
    for key in config.admin_list:
        if not KEY_FINGERPRINT.fullmatch(key):
            raise ConfigError(f"{where('admins')}admins: {key[:60]!r} is not a key "
                              f"fingerprint; give each as ssh-keygen -lf shows it (SHA256: "
                              f"then 43 characters)")
    return config


def _closest(name: str) -> str | None:
    """The setting whose name is nearest ``name`` (a typo's), if one is near enough."""
    found = difflib.get_close_matches(name, _HELP, n=1, cutoff=0.6)
    return found[0] if found else None


def _unknown(shown: str, suggestion: str | None, source: str) -> ConfigError:
    """The refusal of a setting nobody knows: a typo would otherwise go unnoticed and
    the server start with the default in its place."""
    hint = (f"; did you mean {suggestion}?" if suggestion
            else "; diamant serve --help lists the settings")
    return ConfigError(f"{source}: unknown setting {shown}{hint}")


def _apply(config: ServerConfig, values: Mapping[str, Any], source: str,
           sources: dict[str, str] | None = None) -> ServerConfig:
    """``config`` with ``values`` from ``source`` put in, each read and noted in
    ``sources`` as given there (a later source's note replaces an earlier one's)."""
    changes: dict[str, Any] = {}
    for name, value in values.items():
        if name not in _HELP:
            suggestion = _closest(name)
            raise _unknown(repr(name), repr(suggestion) if suggestion else None, source)
        if (isinstance(value, (int, float)) and not isinstance(value, bool)
                and (name == "data_dir" or isinstance(getattr(ServerConfig(), name), str))):
            # A TOML number where a text is meant (data_dir = 5 made a folder "5").
            raise ConfigError(f"{source}: {name}: {value!r} is a number; give a text in "
                              f"quotes ({name} = \"...\")")
        if isinstance(value, (list, tuple)):  # a TOML array (refused_names, admins)
            value = ", ".join(str(item) for item in value)
        elif isinstance(value, bool):  # TOML's true and false
            value = "true" if value else "false"
        try:
            changes[name] = _parser_for(name)(str(value))
        except ValueError as exc:
            example = getattr(ServerConfig(), name)
            hint = f", such as {example:g}" if "ordinary number" in str(exc) else ""
            raise ConfigError(f"{source}: {name}: {exc}{hint}") from None
        if sources is not None:
            sources[name] = source
    return replace(config, **changes)


def read_toml(path: Path) -> dict[str, Any]:
    """The settings in a TOML file (top level, or under a ``[serve]`` table)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    return dict(data.get("serve", data))


PROGRAM_VARIABLES = (ENV_PREFIX + "CONFIG",)
"""``DIAMANT_*`` variables that are not settings but are read all the same: the TOML
file to read (``--config``)."""


def from_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The settings given as ``DIAMANT_*`` environment variables.

    A ``DIAMANT_*`` variable that is neither a setting nor one of
    :data:`PROGRAM_VARIABLES` is refused, naming the nearest setting, as an unknown key
    of the TOML file is: ``DIAMANT_PROT=2302`` would otherwise start the server on the
    default port without a word."""
    for variable in sorted(environ):
        if not variable.startswith(ENV_PREFIX) or variable in PROGRAM_VARIABLES:
            continue
        name = variable[len(ENV_PREFIX):].lower()
        if name not in _HELP or variable != ENV_PREFIX + name.upper():  # DIAMANT_port too
            suggestion = _closest(name)
            raise _unknown(variable, ENV_PREFIX + suggestion.upper() if suggestion else None,
                           "environment")
    return {
        name: environ[ENV_PREFIX + name.upper()]
        for name in _HELP
        if ENV_PREFIX + name.upper() in environ
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add one flag per setting; each help line shows the default and the variable name."""
    defaults = ServerConfig()
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="TOML file with any of these settings, same names "
                        "(env DIAMANT_CONFIG)")
    for name, text in _HELP.items():
        default = getattr(defaults, name)
        shown = default_data_dir() if name == "data_dir" else default
        parser.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            default=None,
            metavar=name.upper(),
            help=f"{text} (default: {shown}; env {ENV_PREFIX}{name.upper()})",
        )


def add_data_folder_arguments(parser: argparse.ArgumentParser) -> None:
    """``--data-dir`` and ``--config``, for a host's command run beside a server (backup,
    export, bans) to find its data folder as ``diamant serve`` does (:func:`load`)."""
    parser.add_argument("--data-dir", dest="data_dir", default=None, metavar="DATA_DIR",
                        help=f"the server's data folder, as given to `diamant serve` (env "
                             f"{ENV_PREFIX}DATA_DIR; default: the config file's data_dir, "
                             f"else {default_data_dir()})")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="the TOML settings file `diamant serve` reads, for its data_dir "
                             f"(env {ENV_PREFIX}CONFIG)")


def load(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> ServerConfig:
    """Combine defaults, the TOML file, the environment and the flags, in that order."""
    environ = os.environ if environ is None else environ
    config = ServerConfig()
    sources: dict[str, str] = {}
    config_file = args.config or (Path(environ["DIAMANT_CONFIG"]) if "DIAMANT_CONFIG" in environ else None)
    if config_file is not None:
        config = _apply(config, read_toml(Path(config_file)), str(config_file), sources)
    config = _apply(config, from_environment(environ), "environment", sources)
    flags = {name: getattr(args, name) for name in _HELP if getattr(args, name, None) is not None}
    config = _apply(config, flags, "command line", sources)
    return _check(config, sources)
