"""What `pip install` puts into site-packages: our two packages under names of our own
(the folder server/ installs as diamant_server), every subpackage, and nothing else."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def listed_packages() -> dict[str, Path]:
    """The packages pyproject.toml installs, each with the folder it comes from."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = config.get("package-dir", {})
    found = {}
    for name in config["packages"]:
        top, _, rest = name.partition(".")
        folder = ROOT / folders.get(top, top)
        found[name] = folder.joinpath(*rest.split(".")) if rest else folder
    return found


def test_every_package_folder_is_installed():
    listed = listed_packages()
    for top, folder in (("diamant_tui", "diamant_tui"), ("diamant_server", "server")):
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            name = ".".join((top, *relative.parts))
            assert name in listed, f"{init.parent} is not installed: add {name!r} to pyproject.toml"
            assert listed[name] == init.parent
    for name, folder in listed.items():
        assert (folder / "__init__.py").exists(), f"{name}: no package at {folder}"


def test_the_wheel_has_only_names_of_our_own(tmp_path):
    # Built from a copy: setuptools leaves a build/ folder beside the sources it builds.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("diamant_tui", "server"):
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path), str(source)], check=True, timeout=300,
                   capture_output=True)
    wheel = next(tmp_path.glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"diamant_tui", "diamant_server"}
    assert "diamant_server/session.py" in names
    assert "diamant_tui/ui/diamant.tcss" in names
