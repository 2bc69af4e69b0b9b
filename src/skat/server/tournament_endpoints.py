"""The tournaments' HTTP endpoints (issue 27; docs/protocol.md,
Tournaments). Each finds `Tournaments` on ``request.app.state``."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .endpoints import body_of, client_address, json_error
from .errors import ErrorCode
from .offer import NotOffered
from .tournaments import TournamentError, Tournaments

#: A tournament's id as `secrets.token_urlsafe` makes them (it goes into a file name).
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _tournaments(request: Request) -> Tournaments:
    t: Tournaments = request.app.state.tournaments
    return t


async def _json_body(request: Request) -> Any:
    """The body as JSON, or the `Response` that refuses it."""
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    try:
        return json.loads(body or b"{}")
    except (ValueError, RecursionError):
        return json_error(ErrorCode.BAD_REQUEST, "the body is not JSON")


def _refused(exc: TournamentError) -> Response:
    return json_error(exc.code, exc.message, exc.status)


def _id(request: Request) -> str | None:
    tid = request.path_params["tournament_id"]
    return tid if isinstance(tid, str) and _ID.fullmatch(tid) else None


async def create(request: Request) -> Response:
    data = await _json_body(request)
    if isinstance(data, Response):
        return data
    address = client_address(request)
    try:
        made = await _tournaments(request).create(data, address)
    except TournamentError as exc:
        return _refused(exc)
    except NotOffered as exc:
        return json_error(ErrorCode.NOT_OFFERED, str(exc)[:300])
    except (ValueError, TypeError) as exc:
        return json_error(ErrorCode.BAD_OPTIONS, str(exc)[:300])
    url = f"/tournament/{made.id}"
    return JSONResponse(
        {
            "id": made.id,
            "url": url,
            "organiser": made.organiser,
            "run_url": f"{url}#run={made.organiser}",
        },
        status_code=201,
    )


Call = Callable[[Tournaments, str, Any], Awaitable[Any]]


async def _answer(request: Request, call: Call, *, body: bool = True, status: int = 200) -> Any:
    """One tournament's request: its id checked, its JSON body read (when
    ``body``), ``call(tournaments, id, body)`` made; the answer, or the
    `Response` that refuses the request."""
    tid = _id(request)
    if tid is None:
        return json_error(ErrorCode.NO_TOURNAMENT, "no such tournament", 404)
    data = await _json_body(request) if body else None
    if isinstance(data, Response):
        return data
    try:
        return await call(_tournaments(request), tid, data)
    except TournamentError as exc:
        return _refused(exc)


def _field(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


async def view(request: Request) -> Response:
    out = await _answer(request, lambda t, tid, _: t.view_body(tid), body=False)
    if isinstance(out, Response):
        return out
    return Response(out, media_type="application/json", headers={"cache-control": "no-store"})


async def standings_json(request: Request) -> Response:
    """The standings to keep: the whole public view as a download."""
    out = await _answer(request, lambda t, tid, _: t.view(tid), body=False)
    if isinstance(out, Response):
        return out
    name = f"tournament-{request.path_params['tournament_id']}.json"
    return JSONResponse(out, headers={"content-disposition": f'attachment; filename="{name}"'})


async def standings_csv(request: Request) -> Response:
    out = await _answer(request, lambda t, tid, _: t.standings_csv(tid), body=False)
    if isinstance(out, Response):
        return out
    name = f"tournament-{request.path_params['tournament_id']}.csv"
    return Response(
        out[0],
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


async def enter(request: Request) -> Response:
    address = client_address(request)
    profiles = request.app.state.profiles

    async def entered(t: Tournaments, tid: str, data: Any) -> tuple[str, str]:
        # the entrant's profile key (issue 48), if sent: the tournament and
        # its tables are the profile's; the tournament keeps nothing of it
        key = data.pop("profile", None) if isinstance(data, dict) else None
        name, token = await t.enter(tid, data, address)
        if key is not None:
            await profiles.link_entry(key, tid, name)
        return name, token

    out = await _answer(request, entered)
    if isinstance(out, Response):
        return out
    name, token = out
    return JSONResponse({"name": name, "token": token}, status_code=201)


async def start_series(request: Request) -> Response:
    address = client_address(request)
    out = await _answer(
        request, lambda t, tid, data: t.start_series(tid, _field(data, "organiser"), address)
    )
    if isinstance(out, Response):
        return out
    return JSONResponse({"series": out}, status_code=201)


async def close_resting(request: Request) -> Response:
    """The organiser closes the tables of the latest series that rest (none
    of their people is here) once no table of it plays."""
    out = await _answer(
        request, lambda t, tid, data: t.close_resting(tid, _field(data, "organiser"))
    )
    if isinstance(out, Response):
        return out
    return JSONResponse({"closed": out})


async def entry(request: Request) -> Response:
    """The organiser closes (or opens again) the entry by the shared link."""
    out = await _answer(request, lambda t, tid, data: t.set_entry(tid, data))
    if isinstance(out, Response):
        return out
    return JSONResponse({"open": out})


async def withdraw(request: Request) -> Response:
    out = await _answer(request, lambda t, tid, data: t.withdraw(tid, data))
    if isinstance(out, Response):
        return out
    return JSONResponse({"withdrawn": out})


async def me(request: Request) -> Response:
    out = await _answer(request, lambda t, tid, data: t.me(tid, _field(data, "token")))
    if isinstance(out, Response):
        return out
    return JSONResponse(out)


__all__ = [
    "close_resting",
    "create",
    "enter",
    "entry",
    "me",
    "standings_csv",
    "standings_json",
    "start_series",
    "view",
    "withdraw",
]
