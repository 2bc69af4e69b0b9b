"""Build XSkat's computer player headless (issue 53, point 1).

XSkat 4.0's game files (``skat.c``, ``null.c``, ``ramsch.c``, ``text.c``)
are compiled as they are from ``../shared/xskat-4.0`` with the system C
compiler and linked with our stub (``xskat_stub.c`` beside this module: the
display, dialog and IRC functions, and a line driver). Nothing upstream is
changed or copied: skat.c's ``main`` is renamed on the compiler's command
line (``-Dmain=xskat_upstream_main``). The program is built into a cache
folder named by a hash of every input (sources, stub, flags, compiler), never
into the repository or the package: ``$SKAT_XSKAT_CACHE``, else
``$XDG_CACHE_HOME/skat``, else ``~/.cache/skat``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STUB = HERE / "xskat_stub.c"
#: XSkat's game code: the computer player's logic and the texts it refers to.
GAME_FILES = ("skat.c", "null.c", "ramsch.c", "text.c")
HEADERS = ("defs.h", "skat.h", "text.h", "null.h", "ramsch.h")
#: K&R C of 2004: gnu89 accepts its implicit declarations on any gcc/clang.
CFLAGS = ("-std=gnu89", "-O2", "-w")
UPSTREAM_FLAGS = ("-Dmain=xskat_upstream_main", '-DDEFAULT_LANGUAGE="english"')
PROGRAM = "xskat-headless"


class NoCompiler(RuntimeError):
    """No C compiler on this machine."""


def source_dir() -> Path:
    """``../shared/xskat-4.0`` beside the repository (``$SKAT_XSKAT_SRC`` overrides)."""
    env = os.environ.get("SKAT_XSKAT_SRC")
    return Path(env) if env else ROOT.parent / "shared" / "xskat-4.0"


def cache_root() -> Path:
    env = os.environ.get("SKAT_XSKAT_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "skat"


def compiler() -> str:
    """The system C compiler (``$CC``, else ``cc``, ``gcc``, ``clang``)."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise NoCompiler("no C compiler (cc, gcc or clang) on PATH")


def _digest(src: Path, cc: str) -> str:
    h = hashlib.sha256()
    for name in (*GAME_FILES, *HEADERS):
        h.update(name.encode() + b"\0" + (src / name).read_bytes())
    h.update(STUB.read_bytes())
    h.update(" ".join((*CFLAGS, *UPSTREAM_FLAGS)).encode())
    h.update(str(shutil.which(cc)).encode())
    return h.hexdigest()[:16]


def build(cache: Path | None = None, *, src: Path | None = None) -> Path:
    """The headless program, compiled once per set of inputs; its path."""
    src = src or source_dir()
    missing = [n for n in (*GAME_FILES, *HEADERS) if not (src / n).is_file()]
    if missing:
        raise FileNotFoundError(f"XSkat sources not found in {src}: {', '.join(missing)}")
    cc = compiler()
    target_dir = (cache or cache_root()) / f"xskat-{_digest(src, cc)}"
    exe = target_dir / PROGRAM
    if exe.is_file():
        return exe
    target_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target_dir.parent, prefix=".build-") as tmp:
        work = Path(tmp)
        objects = []
        for name in GAME_FILES:
            obj = work / (name[:-2] + ".o")
            _run([cc, *CFLAGS, *UPSTREAM_FLAGS, "-c", str(src / name), "-o", str(obj)])
            objects.append(str(obj))
        stub_obj = work / "xskat_stub.o"
        _run([cc, *CFLAGS, "-I", str(src), "-c", str(STUB), "-o", str(stub_obj)])
        out_dir = work / "out"
        out_dir.mkdir()
        _run([cc, *objects, str(stub_obj), "-o", str(out_dir / PROGRAM)])
        try:
            out_dir.rename(target_dir)
        except OSError:  # built meanwhile by another process
            if not exe.is_file():
                raise
    return exe


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr}")
