"""The command-line face of a config field (issue 29, point 3): `tunable`
declares a dataclass field with its default and, in the field's metadata, the
help text and the range of its ``skat serve`` option. The server knows no
click; the command line builds the options from ``dataclasses.fields``
(`skat.cli.serve`), so default, type, range and help are written once."""

from __future__ import annotations

from dataclasses import Field, dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

#: The metadata key of a field's `Face`.
CLI = "cli"


@dataclass(frozen=True)
class Face:
    """How a field shows on the command line: its help text (None: the option
    shows only its default) and its range (None: unbounded on that side)."""

    help: str | None = None
    low: float | None = None
    high: float | None = None


def tunable(
    default: T, help: str | None = None, *, low: float | None = None, high: float | None = None
) -> T:
    """A field with ``default`` that ``skat serve`` sets by an option of its name."""
    return field(default=default, metadata={CLI: Face(help, low, high)})


def face_of(f: Field[Any]) -> Face | None:
    """The command-line face of a field, None for one that has none."""
    face = f.metadata.get(CLI)
    return face if isinstance(face, Face) else None


__all__ = ["CLI", "Face", "face_of", "tunable"]
