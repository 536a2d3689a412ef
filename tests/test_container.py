"""The container recipe (deploy/Containerfile), read as a container engine reads it: no
engine runs here, so its instructions are parsed and checked, and its health check is run
as written against a real server."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECIPE = ROOT / "deploy" / "Containerfile"


def instructions(text: str) -> list[tuple[str, str]]:
    """The recipe's instructions, each as (INSTRUCTION, arguments): comments dropped and
    continued lines (ending in a backslash) joined, as the engines do."""
    found: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        line, pending = pending + line, ""
        word, _, rest = line.strip().partition(" ")
        found.append((word.upper(), rest.strip()))
    assert not pending, "the recipe ends in a continued line"
    return found


@pytest.fixture(scope="module")
def recipe() -> list[tuple[str, str]]:
    return instructions(RECIPE.read_text(encoding="utf-8"))


def only(recipe, word: str) -> str:
    (arguments,) = [rest for instruction, rest in recipe if instruction == word]
    return arguments


def health_command(recipe) -> list[str]:
    """The HEALTHCHECK's command, as the exec form (a JSON array) gives it."""
    rest = only(recipe, "HEALTHCHECK")
    options, _, command = rest.partition(" CMD ")
    assert all(option.startswith("--") for option in options.split()), options
    return json.loads(command)


def test_the_recipe_uses_python_3_11_slim_and_installs_the_game(recipe):
    assert [word for word, _ in recipe][0] == "FROM"
    assert only(recipe, "FROM") == "python:3.11-slim"
    assert any(word == "RUN" and "pip install /src" in rest for word, rest in recipe)
    # What is copied is what the package needs to build (pyproject lists its packages).
    copied = [rest.split()[0] for word, rest in recipe if word == "COPY"]
    assert set(copied) == {"pyproject.toml", "diamant_tui", "server"}
    for name in copied:
        assert (ROOT / name).exists(), name


def test_the_server_runs_as_an_unprivileged_user_with_its_data_in_a_volume(recipe):
    words = [word for word, _ in recipe]
    user = only(recipe, "USER")
    assert user not in ("root", "0") and not user.startswith(("root:", "0:"))
    made = [rest for word, rest in recipe if word == "RUN" and "useradd" in rest]
    assert len(made) == 1 and re.search(rf"useradd .*\b{user}\b", made[0])
    uid = re.search(r"--uid (\d+)", made[0])
    assert uid and int(uid[1]) >= 1000
    assert words.index("USER") < words.index("CMD")
    environment = shlex.split(only(recipe, "ENV"))
    data = dict(item.split("=", 1) for item in environment)["DIAMANT_DATA_DIR"]
    assert json.loads(only(recipe, "VOLUME")) == [data]
    assert f"chown {user}:{user} {data}" in made[0]
    assert only(recipe, "EXPOSE") == "2222"
    assert json.loads(only(recipe, "CMD")) == [
        "diamant", "serve", "--host", "0.0.0.0", "--port", "2222"]
    assert only(recipe, "STOPSIGNAL") == "SIGTERM"


def run_health_check(recipe, port: int) -> int:
    command = health_command(recipe)
    assert command[0] == "python"
    done = subprocess.run([sys.executable, *command[1:]], capture_output=True, timeout=30,
                          env={**os.environ, "DIAMANT_PORT": str(port)})
    return done.returncode


async def test_the_health_check_passes_against_a_running_server(recipe, tmp_path):
    """The very command of the recipe (with the port the server got here)."""
    from diamant_server.config import ServerConfig
    from diamant_server.server import GameServer

    server = GameServer(ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path,
                                     keepalive_interval=0))
    await server.start()
    port = server.port
    try:
        assert await asyncio.to_thread(run_health_check, recipe, port) == 0
    finally:
        await server.stop()
    # Stopped: nothing answers there, and the check says so.
    assert run_health_check(recipe, port) != 0


def test_the_health_check_fails_when_something_else_answers(recipe):
    """A port that answers but is not an SSH server is not healthy."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()

        def answer() -> None:
            conn, _ = listener.accept()
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        assert run_health_check(recipe, listener.getsockname()[1]) == 1
        thread.join(10)
