"""The profiles' HTTP endpoints (issue 48, point 3; docs/protocol.md,
Profiles). A profile's key travels only in a request's body (never in a
URL the server sees: the secret link carries it after ``#``), and only its
owner's answers hold it, once, when it is made."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .endpoints import body_of, client_address, json_error, object_body
from .errors import ErrorCode
from .profiles import ProfileError, Profiles


def _profiles(request: Request) -> Profiles:
    p: Profiles = request.app.state.profiles
    return p


def _refused(exc: ProfileError) -> Response:
    return json_error(exc.code, exc.message, exc.status)


async def _fields(request: Request, allowed: dict[str, type]) -> dict[str, Any] | Response:
    want = ", ".join(f'"{k}"' for k in allowed)
    return await object_body(request, allowed, f"the body must be a JSON object of {want}")


_NO_STORE = {"cache-control": "no-store"}


async def create(request: Request) -> Response:
    """A new profile: ``{"id", "key"}``, the key only here, once."""
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    if body.strip() not in (b"", b"{}"):
        return json_error(ErrorCode.BAD_REQUEST, "a profile is made with an empty body")
    try:
        profile_id, key = await _profiles(request).create(client_address(request))
    except ProfileError as exc:
        return _refused(exc)
    return JSONResponse({"id": profile_id, "key": key}, status_code=201, headers=_NO_STORE)


async def mine(request: Request) -> Response:
    """The owner's profile: the body is ``{"key"}``."""
    data = await _fields(request, {"key": str})
    if isinstance(data, Response):
        return data
    profiles = _profiles(request)
    try:
        found = await profiles.owned(data["key"])
        out = await profiles.render(found, client_address(request))
    except ProfileError as exc:
        return _refused(exc)
    return JSONResponse(out, headers=_NO_STORE)


async def public(request: Request) -> Response:
    """A profile its owner made public, by its id (no key)."""
    try:
        out = await _profiles(request).public(
            request.path_params["profile_id"], client_address(request)
        )
    except ProfileError as exc:
        return _refused(exc)
    return JSONResponse(out, headers=_NO_STORE)


async def publish(request: Request) -> Response:
    """``{"key", "public": true|false}``: others may read it by its id, or not."""
    data = await _fields(request, {"key": str, "public": bool})
    if isinstance(data, Response):
        return data
    try:
        p = await _profiles(request).set_public(data["key"], data["public"])
    except ProfileError as exc:
        return _refused(exc)
    return JSONResponse({"id": p.id, "public": p.public}, headers=_NO_STORE)


async def delete(request: Request) -> Response:
    """``{"key"}``: the profile and every row of it go; its lists stay the
    tables' own (the other people's sheets keep the name played under)."""
    data = await _fields(request, {"key": str})
    if isinstance(data, Response):
        return data
    try:
        await _profiles(request).delete(data["key"])
    except ProfileError as exc:
        return _refused(exc)
    return JSONResponse({"deleted": True}, headers=_NO_STORE)


__all__ = ["create", "delete", "mine", "public", "publish"]
