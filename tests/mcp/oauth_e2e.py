#!/usr/bin/env python3
"""OAuth 2.1 for MCP end to end: the official MCP SDK's OAuth client and a person in a browser.

Run by the Rust test `canvasctl/tests/oauth_sdk.rs` against a real `canvasctl up` (see
tests/run.sh for the pinned SDK and the browser):

    python oauth_e2e.py --url BASE/mcp --project ID (--sign-in-url LINK --login LOGIN
                        | --login LOGIN --password PW) [--screenshot FILE]
                        [--document-cert PEM --document-key PEM]

1. Discovery as a client meets it: `/mcp` answers 401 with `resource_metadata`, the RFC 9728
   document names the MCP URL and the account site, RFC 8414 metadata lists the endpoints.
2. The SDK's `OAuthClientProvider` (in-memory token storage) connects over streamable HTTP: it
   discovers both documents, registers dynamically, and its redirect handler runs
   `tests/browser/oauth_consent.mjs`, which signs the person in (with the one-time link, setting
   a new password for the later runs) and approves on the consent page; its callback handler
   waits on this script's loopback server for the code. Then it lists the tools, calls read tools
   as the person, is made to refresh (its token's expiry moved into the past) and calls again
   without the person being asked.
2b. With --document-cert/--document-key (MCP 2026-07-28): the SDK names itself by the URL of its
   Client ID Metadata Document, served here over HTTPS with a certificate from a CA the service
   trusts; it connects without registering, the consent page names the host that publishes the
   document, and the SDK refuses an answer whose `iss` (RFC 9207) is not the issuer it discovered.
3. RFC answers with plain httpx2 against the endpoints from the metadata: registration refusals;
   authorization requests that must show a page (unregistered redirect URI, unknown client) or
   redirect an error (`plain` PKCE, no challenge); a denial; token requests with a wrong or missing
   code_verifier, a mismatched redirect_uri, a code used twice (which also ends the first grant);
   a loopback redirect URI on another port; refresh-token rotation with reuse detection; an MCP
   token refused by the REST API; RFC 7009 revocation of a refresh token and of an access token,
   after which `/mcp` answers 401 with `resource_metadata` again.

Prints `ok name` / `FAIL name: why` per check and "N passed, M failed"; exit status 1 on a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import os
import queue
import secrets
import ssl
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

CONSENT_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "browser", "oauth_consent.mjs")
SDK_CLIENT = "Canvas OAuth e2e (MCP SDK)"
MANUAL_CLIENT = "Canvas OAuth e2e (raw HTTP)"
CIMD_CLIENT = "Canvas OAuth e2e (metadata document)"
ACCEPT_MCP = "application/json, text/event-stream"


class Checks:
    """Runs named checks; a failure is printed and counted, and the next check still runs."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed: list[str] = []

    async def run(self, name: str, body: Callable[[], Awaitable[Any]]) -> Any:
        try:
            result = await body()
        except Exception as error:  # noqa: BLE001 - every failure is reported the same way
            self.failed.append(name)
            print(f"FAIL {name}: {'; '.join(leaves(error))}", flush=True)
            return None
        self.passed += 1
        print(f"ok   {name}", flush=True)
        return result


def leaves(error: BaseException) -> list[str]:
    """The errors inside task-group wrappers, which say nothing by themselves."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]
    return [f"{type(error).__name__}: {error}"]


def expect(condition: bool, why: str) -> None:
    if not condition:
        raise AssertionError(why)


def pkce() -> tuple[str, str]:
    """A fresh code_verifier (RFC 7636 §4.1) and its S256 challenge."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


# ---- the loopback redirect URI -------------------------------------------------------------


class Callbacks:
    """A native client's loopback listener (RFC 8252 §7.3): 127.0.0.1, a port chosen up front."""

    def __init__(self) -> None:
        self.received: queue.Queue[dict[str, str]] = queue.Queue()
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server interface
                url = urlparse(self.path)
                if url.path != "/callback":
                    self.send_error(404)
                    return
                received.put({key: values[0] for key, values in parse_qs(url.query).items()})
                body = b"<!doctype html><title>Done</title><p>Done: you can close this tab.</p>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.redirect_uri = f"http://127.0.0.1:{self.port}/callback"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self, timeout: float = 30.0) -> dict[str, str]:
        return self.received.get(timeout=timeout)

    def drain(self) -> dict[str, dict[str, str]]:
        """Everything received so far, by `state`."""
        by_state: dict[str, dict[str, str]] = {}
        while not self.received.empty():
            answer = self.received.get_nowait()
            by_state[answer.get("state", "")] = answer
        return by_state

    def close(self) -> None:
        self.server.shutdown()


# ---- the client's metadata document --------------------------------------------------------


class MetadataDocument:
    """A Client ID Metadata Document served over HTTPS on 127.0.0.1 with a certificate from the CA
    the service trusts (the Rust test makes both and starts `canvasctl up` trusting the CA, with
    127.0.0.1 allowed as the webhook tests allow it). Counts the fetches."""

    def __init__(self, cert: str, key: str, client_name: str, redirect_uri: str) -> None:
        self.fetches = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server interface
                if self.path != "/oauth/client.json":
                    self.send_error(404)
                    return
                owner.fetches += 1
                body = json.dumps(owner.document).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Cache-Control", "public, max-age=600")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        self.url = f"https://{self.host}/oauth/client.json"
        self.document = {"client_id": self.url, "client_name": client_name, "redirect_uris": [redirect_uri],
                         "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                         "token_endpoint_auth_method": "none", "application_type": "native"}
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


# ---- the person in the browser -------------------------------------------------------------


class Person:
    """Answers authorization requests in Chromium through tests/browser/oauth_consent.mjs.

    With a one-time sign-in link, the first run uses it and sets a new password, which later runs
    (each a fresh browser) sign in with."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.link: str | None = args.sign_in_url
        self.login: str = args.login
        self.password: str = args.password or f"e2e-{secrets.token_urlsafe(12)}"
        self.runs = 0

    async def answer(self, urls: list[str], *, deny: bool = False, client_name: str | None = None,
                     client_host: str | None = None, screenshot: str | None = None) -> None:
        command = ["node", CONSENT_SCRIPT]
        for url in urls:
            command += ["--authorize-url", url]
        if self.link:
            command += ["--sign-in-url", self.link, "--new-password", self.password]
            self.link = None  # used up by this run, whatever its outcome
        else:
            command += ["--login", self.login, "--password", self.password]
        if deny:
            command.append("--deny")
        if client_name:
            command += ["--client-name", client_name]
        if client_host:
            command += ["--client-host", client_host]
        if screenshot:
            command += ["--screenshot", screenshot]
        self.runs += 1
        process = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=os.environ.copy())
        try:
            output, _ = await asyncio.wait_for(process.communicate(), timeout=180)
        except TimeoutError:
            process.kill()
            raise RuntimeError("the browser did not finish within 180 s") from None
        text = output.decode(errors="replace")
        for line in text.splitlines():
            print(f"    browser: {line}")
        if process.returncode != 0:
            raise RuntimeError(f"the browser run failed with exit status {process.returncode}")


# ---- plain HTTP ----------------------------------------------------------------------------


class FormParser(HTMLParser):
    """The forms of a page: action and inputs (attribute values unescaped by HTMLParser)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.current = {"action": values.get("action", ""), "inputs": []}
            self.forms.append(self.current)
        elif tag == "input" and self.current is not None:
            self.current["inputs"].append(values)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None


@dataclass
class Session:
    """A person signed in to the account site over plain HTTP, cookies kept by hand so that
    nothing depends on how a cookie jar treats 127.0.0.1."""

    http: httpx2.AsyncClient
    base: str
    cookies: dict[str, str] = field(default_factory=dict)

    def keep(self, response: httpx2.Response) -> None:
        for header in response.headers.get_list("set-cookie"):
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]

    def cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    async def get(self, url: str) -> httpx2.Response:
        response = await self.http.get(url, headers=self.cookie_header(), follow_redirects=False)
        self.keep(response)
        return response

    async def sign_in(self, login: str, password: str) -> None:
        page_url = f"{self.base}/account/sign-in"
        page = await self.get(page_url)
        expect(page.status_code == 200, f"GET /account/sign-in answered {page.status_code}")
        parser = FormParser()
        parser.feed(page.text)
        form = next((f for f in parser.forms if any(i.get("name") == "password" for i in f["inputs"])), None)
        expect(form is not None, "the sign-in page has no form with a password field")
        fields = {i["name"]: i.get("value", "") for i in form["inputs"] if i.get("type") == "hidden" and i.get("name")}
        fields.update(login=login, password=password)
        action = urljoin(page_url, form["action"]) if form["action"] else page_url
        headers = {**self.cookie_header(), "Origin": self.base}
        answer = await self.http.post(action, data=fields, headers=headers, follow_redirects=False)
        self.keep(answer)
        expect(answer.status_code == 303, f"signing in answered {answer.status_code}: {answer.text[:300]}")


def query_of(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(url).query).items()}


def sse_or_json(response: httpx2.Response) -> Any:
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        for line in response.text.splitlines():
            if line.startswith("data:") and line[5:].strip():
                return json.loads(line[5:].strip())
        return None
    try:
        return response.json()
    except ValueError:
        return None


@dataclass
class Server:
    """The endpoints as the metadata documents name them."""

    mcp: str
    base: str
    resource_metadata: str = ""
    authorization: str = ""
    token: str = ""
    registration: str = ""
    revocation: str = ""


@dataclass
class Grant:
    access: str
    refresh: str


class Run:
    def __init__(self, args: argparse.Namespace, http: httpx2.AsyncClient, checks: Checks) -> None:
        self.args, self.http, self.checks = args, http, checks
        base = args.url.removesuffix("/mcp")
        self.server = Server(mcp=args.url, base=base)
        self.account = (args.account_url or base).rstrip("/")
        self.callbacks = Callbacks()
        self.person = Person(args)
        self.sdk_client_id = ""
        self.sdk_tokens: OAuthToken | None = None
        self.manual_client_id = ""

    # -- helpers --------------------------------------------------------------------------

    async def mcp(self, access_token: str | None) -> httpx2.Response:
        """tools/list on /mcp with a bearer token (or none)."""
        headers = {"Accept": ACCEPT_MCP, "Content-Type": "application/json"}
        if access_token:
            headers["Authorization"] = f"Bearer {access_token}"
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        return await self.http.post(self.server.mcp, json=body, headers=headers)

    async def token(self, form: dict[str, str]) -> tuple[int, dict[str, Any], httpx2.Response]:
        response = await self.http.post(self.server.token, data=form)
        try:
            body = response.json()
        except ValueError:
            body = {"not json": response.text[:300]}
        return response.status_code, body, response

    def authorize_url(self, client_id: str, *, redirect_uri: str | None = None, method: str | None = "S256",
                      challenge: str | None = None, state: str | None = None) -> tuple[str, str, str]:
        """An authorization request; returns (url, state, code_verifier)."""
        verifier, computed = pkce()
        state = state or secrets.token_urlsafe(16)
        params = {"response_type": "code", "client_id": client_id,
                  "redirect_uri": redirect_uri or self.callbacks.redirect_uri, "state": state,
                  "scope": "mcp", "resource": self.server.mcp}
        if challenge != "":
            # A `plain` challenge is the verifier itself (RFC 7636 §4.2).
            params["code_challenge"] = challenge or (verifier if method == "plain" else computed)
        if method:
            params["code_challenge_method"] = method
        return f"{self.server.authorization}?{urlencode(params)}", state, verifier

    async def exchange(self, code: str, verifier: str | None, redirect_uri: str | None = None,
                       client_id: str | None = None) -> tuple[int, dict[str, Any], httpx2.Response]:
        form = {"grant_type": "authorization_code", "code": code,
                "redirect_uri": redirect_uri or self.callbacks.redirect_uri,
                "client_id": client_id or self.manual_client_id}
        if verifier is not None:
            form["code_verifier"] = verifier
        return await self.token(form)

    async def refresh(self, refresh_token: str, client_id: str | None = None) -> tuple[int, dict[str, Any], Any]:
        return await self.token({"grant_type": "refresh_token", "refresh_token": refresh_token,
                                 "client_id": client_id or self.manual_client_id})

    @staticmethod
    def expect_error(status: int, body: dict[str, Any], errors: tuple[str, ...], what: str) -> None:
        expect(status == 400 and body.get("error") in errors,
               f"{what}: expected 400 {' or '.join(errors)}, got {status} {body}")

    async def expect_mcp_401(self, access_token: str, what: str) -> None:
        answer = await self.mcp(access_token)
        expect(answer.status_code == 401, f"{what}: /mcp answered {answer.status_code}: {answer.text[:200]}")
        challenge = answer.headers.get("www-authenticate", "")
        expect("resource_metadata=" in challenge, f"{what}: the challenge lacks resource_metadata: {challenge!r}")
        body = sse_or_json(answer) or {}
        expect(body.get("error", {}).get("code") == -32001 and body.get("id", "absent") is None,
               f"{what}: the 401 body is not JSON-RPC -32001 with id null: {answer.text[:200]}")

    async def expect_mcp_ok(self, access_token: str, what: str) -> None:
        answer = await self.mcp(access_token)
        body = sse_or_json(answer) or {}
        expect(answer.status_code == 200 and bool(body.get("result", {}).get("tools")),
               f"{what}: tools/list answered {answer.status_code}: {answer.text[:200]}")

    # -- 1. discovery ---------------------------------------------------------------------

    async def discovery(self) -> None:
        async def unauthenticated() -> None:
            answer = await self.mcp(None)
            expect(answer.status_code == 401, f"/mcp without a token answered {answer.status_code}")
            challenge = answer.headers.get("www-authenticate", "")
            marker = 'resource_metadata="'
            expect(challenge.startswith("Bearer") and marker in challenge, f"challenge: {challenge!r}")
            self.server.resource_metadata = challenge.split(marker, 1)[1].split('"', 1)[0]
            documented = f"{self.server.base}/.well-known/oauth-protected-resource/mcp"
            expect(self.server.resource_metadata == documented,
                   f"resource_metadata is {self.server.resource_metadata}, the documented {documented}")
            body = sse_or_json(answer) or {}
            expect(body.get("error", {}).get("code") == -32001 and body.get("id", "absent") is None,
                   f"the 401 keeps the spec's JSON-RPC body: {answer.text[:200]}")
        await self.checks.run("/mcp without a token answers 401 naming its resource metadata", unauthenticated)

        async def resource_metadata() -> None:
            url = self.server.resource_metadata or f"{self.server.base}/.well-known/oauth-protected-resource/mcp"
            for where in (url, f"{self.server.base}/.well-known/oauth-protected-resource"):
                answer = await self.http.get(where)
                expect(answer.status_code == 200, f"GET {where} answered {answer.status_code}")
                document = answer.json()
                expect(document.get("resource") == self.server.mcp, f"{where}: resource {document.get('resource')}")
                servers = [s.rstrip("/") for s in document.get("authorization_servers", [])]
                expect(servers == [self.account], f"{where}: authorization_servers {servers}, expected {self.account}")
        await self.checks.run("the protected-resource metadata (RFC 9728) names the MCP URL and the account site",
                              resource_metadata)

        async def server_metadata() -> None:
            where = f"{self.account}/.well-known/oauth-authorization-server"
            answer = await self.http.get(where)
            expect(answer.status_code == 200, f"GET {where} answered {answer.status_code}")
            m = answer.json()
            expect(str(m.get("issuer", "")).rstrip("/") == self.account, f"issuer {m.get('issuer')}")
            for name in ("authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint"):
                expect(str(m.get(name, "")).startswith(self.account + "/"), f"{name}: {m.get(name)}")
            expect(m.get("response_types_supported") == ["code"], f"response_types {m.get('response_types_supported')}")
            expect(sorted(m.get("grant_types_supported", [])) == ["authorization_code", "refresh_token"],
                   f"grant_types {m.get('grant_types_supported')}")
            expect(m.get("code_challenge_methods_supported") == ["S256"], f"PKCE {m.get('code_challenge_methods_supported')}")
            expect(m.get("token_endpoint_auth_methods_supported") == ["none"],
                   f"client auth {m.get('token_endpoint_auth_methods_supported')}")
            expect(m.get("scopes_supported") == ["mcp"], f"scopes {m.get('scopes_supported')}")
            self.server.authorization = m["authorization_endpoint"]
            self.server.token = m["token_endpoint"]
            self.server.registration = m["registration_endpoint"]
            self.server.revocation = m["revocation_endpoint"]
        await self.checks.run("the authorization-server metadata (RFC 8414) lists the documented endpoints and methods",
                              server_metadata)

    # -- 2. the SDK -----------------------------------------------------------------------

    async def sdk(self) -> None:
        storage = MemoryStorage()
        redirects: list[str] = []

        async def redirect_handler(url: str) -> None:
            redirects.append(url)
            await self.person.answer([url], client_name=SDK_CLIENT, screenshot=self.args.screenshot)

        async def callback_handler() -> AuthorizationCodeResult:
            answer = await asyncio.to_thread(self.callbacks.take, 30.0)
            return AuthorizationCodeResult(code=answer.get("code", ""), state=answer.get("state"), iss=answer.get("iss"))

        metadata = OAuthClientMetadata(
            client_name=SDK_CLIENT, redirect_uris=[self.callbacks.redirect_uri],
            grant_types=["authorization_code", "refresh_token"], response_types=["code"],
            token_endpoint_auth_method="none")
        provider = OAuthClientProvider(server_url=self.server.mcp, client_metadata=metadata, storage=storage,
                                       redirect_handler=redirect_handler, callback_handler=callback_handler)
        project = self.args.project

        async with httpx2.AsyncClient(auth=provider, timeout=httpx2.Timeout(60.0)) as http:
            # No response cache: every call after the refresh must reach the server.
            async with Client(streamable_http_client(self.server.mcp, http_client=http), cache=None) as client:
                async def connected() -> None:
                    expect(len(redirects) == 1, f"the person was asked {len(redirects)} times")
                    request = query_of(redirects[0])
                    expect(redirects[0].startswith(self.server.authorization + "?"),
                           f"the SDK sent the person to {redirects[0].split('?')[0]}")
                    expect(request.get("resource") == self.server.mcp and request.get("code_challenge_method") == "S256",
                           f"the SDK's authorization request: {request}")
                    info = storage.client_info
                    expect(info is not None and bool(info.client_id), "no dynamic registration was stored")
                    self.sdk_client_id = info.client_id if info else ""
                    tokens = storage.tokens
                    expect(tokens is not None and tokens.access_token.startswith("svc_at_")
                           and (tokens.refresh_token or "").startswith("svc_rt_"), f"tokens: {tokens}")
                    expect(tokens is not None and tokens.expires_in is not None and 0 < tokens.expires_in <= 3600,
                           f"expires_in {tokens.expires_in if tokens else None}")
                await self.checks.run("the SDK discovers, registers, and gets tokens through the person's consent",
                                      connected)

                async def tools() -> None:
                    names = {tool.name for tool in (await client.list_tools()).tools}
                    expect({"list_projects", "list_items", "read_map"} <= names, f"tools: {sorted(names)}")
                await self.checks.run("tools/list with the OAuth access token", tools)

                async def reads() -> None:
                    listed = await client.call_tool("list_projects", {})
                    projects = (listed.structured_content or {}).get("projects", [])
                    expect(not listed.is_error and project in [p.get("projectId") for p in projects],
                           f"list_projects as the person: {projects}")
                    items = await client.call_tool("list_items", {"projectId": project})
                    expect(not items.is_error and isinstance((items.structured_content or {}).get("items"), list),
                           f"list_items: {items.content}")
                await self.checks.run("read tools act as the person who consented", reads)

                async def refreshed() -> None:
                    before = storage.tokens
                    expect(before is not None, "no tokens to refresh")
                    # The access token "expires": the SDK must refresh before the next call.
                    provider.context.token_expiry_time = time.time() - 1
                    answer = await client.call_tool("read_map", {"projectId": project})
                    expect(not answer.is_error, f"read_map after the refresh: {answer.content}")
                    after = storage.tokens
                    expect(after is not None and after.access_token != before.access_token,
                           "the access token did not change")
                    expect(after is not None and after.refresh_token not in (None, before.refresh_token),
                           "the refresh token was not rotated")
                    expect(len(redirects) == 1, "the refresh asked the person again")
                    self.sdk_tokens = after
                await self.checks.run("the SDK refreshes an expired token (rotated) and calls again without the person",
                                      refreshed)

    # -- 2b. the SDK with a Client ID Metadata Document (MCP 2026-07-28) -------------------

    async def sdk_with_metadata_document(self, document: MetadataDocument) -> None:
        """The SDK names itself by its document's URL (no registration), the person sees the host
        that publishes it, and the SDK checks the `iss` of the answer (RFC 9207)."""

        async def connect(tamper_iss: bool) -> tuple[MemoryStorage, list[str]]:
            storage = MemoryStorage()
            redirects: list[str] = []

            async def redirect_handler(url: str) -> None:
                redirects.append(url)
                await self.person.answer([url], client_name=CIMD_CLIENT, client_host=document.host)

            async def callback_handler() -> AuthorizationCodeResult:
                answer = await asyncio.to_thread(self.callbacks.take, 30.0)
                iss = "https://evil.example" if tamper_iss else answer.get("iss")
                return AuthorizationCodeResult(code=answer.get("code", ""), state=answer.get("state"), iss=iss)

            metadata = OAuthClientMetadata(
                client_name=CIMD_CLIENT, redirect_uris=[self.callbacks.redirect_uri],
                grant_types=["authorization_code", "refresh_token"], response_types=["code"],
                token_endpoint_auth_method="none")
            provider = OAuthClientProvider(server_url=self.server.mcp, client_metadata=metadata, storage=storage,
                                           redirect_handler=redirect_handler, callback_handler=callback_handler,
                                           client_metadata_url=document.url)
            async with httpx2.AsyncClient(auth=provider, timeout=httpx2.Timeout(60.0)) as http:
                async with Client(streamable_http_client(self.server.mcp, http_client=http), cache=None) as client:
                    names = {tool.name for tool in (await client.list_tools()).tools}
                    expect("list_projects" in names, f"tools: {sorted(names)}")
                    listed = await client.call_tool("list_projects", {})
                    projects = (listed.structured_content or {}).get("projects", [])
                    expect(self.args.project in [p.get("projectId") for p in projects], f"list_projects: {projects}")
            return storage, redirects

        async def connected() -> None:
            storage, redirects = await connect(tamper_iss=False)
            info = storage.client_info
            expect(info is not None and info.client_id == document.url,
                   f"the SDK's client_id is {info.client_id if info else None}, not its document's URL")
            request = query_of(redirects[0]) if redirects else {}
            expect(request.get("client_id") == document.url, f"the authorization request: {request}")
            expect(document.fetches == 1, f"the document was fetched {document.fetches} times, once expected")
            tokens = storage.tokens
            expect(tokens is not None and tokens.access_token.startswith("svc_at_"), f"tokens: {tokens}")
        await self.checks.run("the SDK connects by its Client ID Metadata Document's URL, without registering",
                              connected)

        async def iss_checked() -> None:
            try:
                await connect(tamper_iss=True)
            except Exception as error:  # noqa: BLE001 - the SDK's own error type varies by version
                text = "; ".join(leaves(error))
                expect("iss" in text, f"the SDK failed, but not on iss: {text}")
                return
            raise AssertionError("the SDK accepted an answer whose iss is another server's")
        await self.checks.run("the SDK refuses an answer whose iss is not the issuer it discovered (RFC 9207)",
                              iss_checked)

    # -- 3. RFC answers -------------------------------------------------------------------

    async def registration(self) -> None:
        async def register(document: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            answer = await self.http.post(self.server.registration, json=document)
            try:
                return answer.status_code, answer.json()
            except ValueError:
                return answer.status_code, {"not json": answer.text[:200]}

        async def refuses_remote_http() -> None:
            status, body = await register({"client_name": "x", "redirect_uris": ["http://example.com/callback"],
                                           "token_endpoint_auth_method": "none"})
            self.expect_error(status, body, ("invalid_redirect_uri",), "an http redirect URI off loopback")
            status, body = await register({"client_name": "x", "token_endpoint_auth_method": "none"})
            self.expect_error(status, body, ("invalid_redirect_uri", "invalid_client_metadata"), "no redirect URIs")
        await self.checks.run("registration refuses a plain-http redirect URI off loopback and a client without any",
                              refuses_remote_http)

        async def public_only() -> None:
            status, body = await register({"client_name": "x", "redirect_uris": [self.callbacks.redirect_uri],
                                           "token_endpoint_auth_method": "client_secret_basic"})
            # RFC 7591 §3.2.1 lets a server refuse or replace metadata; either way no secret.
            refused = status == 400 and body.get("error") == "invalid_client_metadata"
            replaced = status == 201 and body.get("token_endpoint_auth_method") == "none" and "client_secret" not in body
            expect(refused or replaced, f"a confidential client: {status} {body}")
        await self.checks.run("registration makes public clients only", public_only)

        async def registers() -> None:
            status, body = await register({"client_name": MANUAL_CLIENT, "redirect_uris": [self.callbacks.redirect_uri],
                                           "token_endpoint_auth_method": "none",
                                           "grant_types": ["authorization_code", "refresh_token"],
                                           "response_types": ["code"]})
            expect(status == 201 and bool(body.get("client_id")), f"registration answered {status} {body}")
            expect(body.get("redirect_uris") == [self.callbacks.redirect_uri], f"redirect_uris {body.get('redirect_uris')}")
            self.manual_client_id = body["client_id"]
        await self.checks.run("registration of a loopback public client answers 201 with a client_id", registers)

    async def authorization_refusals(self) -> None:
        session = Session(self.http, self.account)

        async def sign_in() -> bool:
            await session.sign_in(self.person.login, self.person.password)
            return True
        if not await self.checks.run("the person signs in over plain HTTP (with the password set through the link)",
                                     sign_in):
            return

        async def shown_not_redirected() -> None:
            cases = {
                "a redirect URI never registered": self.authorize_url(
                    self.manual_client_id, redirect_uri="https://evil.example/callback")[0],
                "a loopback redirect URI with another path": self.authorize_url(
                    self.manual_client_id, redirect_uri=f"http://127.0.0.1:{self.callbacks.port}/elsewhere")[0],
                "an unknown client": self.authorize_url("no-such-client")[0],
            }
            for what, url in cases.items():
                answer = await session.get(url)
                expect(answer.status_code == 400 and "location" not in answer.headers,
                       f"{what}: {answer.status_code} location={answer.headers.get('location')}")
                expect(answer.headers.get("content-type", "").startswith("text/html"),
                       f"{what}: a page for the person, got {answer.headers.get('content-type')}")
        await self.checks.run("authorization requests with an unregistered redirect URI or client get a 400 page, "
                              "never a redirect", shown_not_redirected)

        async def redirected_error() -> None:
            cases = {
                "code_challenge_method=plain": self.authorize_url(self.manual_client_id, method="plain"),
                "no code_challenge": self.authorize_url(self.manual_client_id, challenge="", method=None),
            }
            for what, (url, state, _) in cases.items():
                answer = await session.get(url)
                location = answer.headers.get("location", "")
                expect(answer.status_code in (302, 303) and location.startswith(self.callbacks.redirect_uri + "?"),
                       f"{what}: {answer.status_code} to {location!r}")
                back = query_of(location)
                expect(back.get("error") == "invalid_request" and back.get("state") == state and "code" not in back,
                       f"{what}: the redirect carries {back}")
        await self.checks.run("PKCE is required and S256 only: plain or no challenge redirects error=invalid_request",
                              redirected_error)

    async def denial(self) -> None:
        async def denied() -> None:
            url, state, _ = self.authorize_url(self.manual_client_id)
            await self.person.answer([url], deny=True, client_name=MANUAL_CLIENT)
            back = self.callbacks.drain().get(state)
            expect(back is not None and back.get("error") == "access_denied" and "code" not in back,
                   f"the callback received {back}")
        await self.checks.run("a denial on the consent page comes back as error=access_denied with the state", denied)

    async def codes(self) -> None:
        """One browser run approves every request below; the codes live 60 s, so the token
        requests follow at once."""
        other = Callbacks()  # the same client's loopback redirect URI on another port (RFC 8252 §7.3)
        requests = {
            name: self.authorize_url(self.manual_client_id)
            for name in ("wrong verifier", "missing verifier", "redirect mismatch", "twice", "rotation")
        }
        requests["other port"] = self.authorize_url(self.manual_client_id, redirect_uri=other.redirect_uri)
        async def approve() -> bool:
            await self.person.answer([url for url, _, _ in requests.values()], client_name=MANUAL_CLIENT)
            return True
        answered = await self.checks.run(f"the person approves {len(requests)} authorization requests in one browser",
                                         approve)
        received = {**self.callbacks.drain(), **other.drain()}
        other.close()
        if not answered and not received:
            return
        codes = {name: received.get(state, {}).get("code", "") for name, (_, state, _) in requests.items()}
        verifier = {name: v for name, (_, _, v) in requests.items()}

        async def wrong_verifier() -> None:
            status, body, _ = await self.exchange(codes["wrong verifier"], pkce()[0])
            self.expect_error(status, body, ("invalid_grant",), "a wrong code_verifier")
        await self.checks.run("a wrong code_verifier: 400 invalid_grant", wrong_verifier)

        async def missing_verifier() -> None:
            status, body, _ = await self.exchange(codes["missing verifier"], None)
            self.expect_error(status, body, ("invalid_request", "invalid_grant"), "no code_verifier")
        await self.checks.run("no code_verifier: 400 invalid_request or invalid_grant", missing_verifier)

        async def redirect_mismatch() -> None:
            elsewhere = f"http://127.0.0.1:{self.callbacks.port}/elsewhere"
            status, body, _ = await self.exchange(codes["redirect mismatch"], verifier["redirect mismatch"], elsewhere)
            self.expect_error(status, body, ("invalid_grant",), "another redirect_uri than the request's")
        await self.checks.run("a redirect_uri other than the authorization request's: 400 invalid_grant",
                              redirect_mismatch)

        async def twice() -> None:
            status, first, response = await self.exchange(codes["twice"], verifier["twice"])
            expect(status == 200 and first.get("access_token", "").startswith("svc_at_"), f"first use: {status} {first}")
            expect("no-store" in response.headers.get("cache-control", ""),
                   f"a token answer must not be cached (RFC 6749 §5.1): {response.headers.get('cache-control')}")
            expect(str(first.get("token_type", "")).lower() == "bearer", f"token_type {first.get('token_type')}")
            await self.expect_mcp_ok(first["access_token"], "the first use's token")
            status, body, _ = await self.exchange(codes["twice"], verifier["twice"])
            self.expect_error(status, body, ("invalid_grant",), "the same code again")
            # RFC 6749 §4.1.2: the second use revokes what the first one issued.
            await self.expect_mcp_401(first["access_token"], "the first use's access token after the replay")
            status, body, _ = await self.refresh(first.get("refresh_token", ""))
            self.expect_error(status, body, ("invalid_grant",), "the first use's refresh token after the replay")
        await self.checks.run("a code used twice: the second gets 400 invalid_grant and the first grant ends", twice)

        async def other_port() -> None:
            status, body, _ = await self.exchange(codes["other port"], verifier["other port"], other.redirect_uri)
            expect(status == 200 and body.get("access_token", "").startswith("svc_at_"), f"{status} {body}")
            await self.expect_mcp_ok(body["access_token"], "a token from the other port's code")
            # RFC 7009: revoking the refresh token ends the whole grant, its access token too.
            revoked = await self.http.post(self.server.revocation, data={
                "token": body["refresh_token"], "token_type_hint": "refresh_token", "client_id": self.manual_client_id})
            expect(revoked.status_code == 200, f"revocation answered {revoked.status_code}")
            await self.expect_mcp_401(body["access_token"], "the access token of a revoked grant")
            status, again, _ = await self.refresh(body["refresh_token"])
            self.expect_error(status, again, ("invalid_grant",), "a revoked refresh token")
        await self.checks.run("a loopback redirect URI matches on any port; revoking its refresh token ends the grant",
                              other_port)

        async def rotation() -> None:
            status, first, _ = await self.exchange(codes["rotation"], verifier["rotation"])
            expect(status == 200, f"the code: {status} {first}")
            status, second, _ = await self.refresh(first["refresh_token"])
            expect(status == 200 and second.get("refresh_token", "").startswith("svc_rt_"), f"refresh: {status} {second}")
            expect(second["refresh_token"] != first["refresh_token"] and second["access_token"] != first["access_token"],
                   "the refresh did not rotate both tokens")
            await self.expect_mcp_ok(second["access_token"], "the refreshed access token")
            status, body, _ = await self.refresh(first["refresh_token"])
            self.expect_error(status, body, ("invalid_grant",), "the retired refresh token")
            # Reuse detection (OAuth 2.1 §4.3.1): the whole grant is gone, the newest tokens too.
            status, body, _ = await self.refresh(second["refresh_token"])
            self.expect_error(status, body, ("invalid_grant",), "the newest refresh token after a reuse")
            await self.expect_mcp_401(second["access_token"], "the newest access token after a reuse")
        await self.checks.run("refresh rotates; a retired refresh token gets invalid_grant and ends the whole grant",
                              rotation)

        async def unsupported() -> None:
            status, body, _ = await self.token({"grant_type": "password", "username": "demo", "password": "x",
                                                "client_id": self.manual_client_id})
            self.expect_error(status, body, ("unsupported_grant_type",), "grant_type=password")
        await self.checks.run("an unsupported grant type: 400 unsupported_grant_type", unsupported)

    async def sdk_token_elsewhere_and_revoked(self) -> None:
        tokens = self.sdk_tokens
        if tokens is None:
            await self.checks.run("the SDK's tokens are at hand", self._missing_sdk_tokens)
            return

        async def rest_refuses() -> None:
            await self.expect_mcp_ok(tokens.access_token, "the SDK's access token on /mcp")
            url = f"{self.server.base}/api/v2/projects/{self.args.project}/items"
            answer = await self.http.get(url, headers={"Authorization": f"Bearer {tokens.access_token}"})
            expect(answer.status_code == 401, f"GET {url} with the MCP token answered {answer.status_code}")
        await self.checks.run("a token minted for /mcp is refused (401) by the REST API", rest_refuses)

        async def revoked() -> None:
            answer = await self.http.post(self.server.revocation, data={
                "token": tokens.access_token, "token_type_hint": "access_token", "client_id": self.sdk_client_id})
            expect(answer.status_code == 200, f"revocation answered {answer.status_code}: {answer.text[:200]}")
            await self.expect_mcp_401(tokens.access_token, "a revoked access token")
            unknown = await self.http.post(self.server.revocation, data={
                "token": "svc_at_not-a-token", "client_id": self.sdk_client_id})
            expect(unknown.status_code == 200, f"revoking an unknown token answered {unknown.status_code}")
        await self.checks.run("RFC 7009 revocation of the access token: /mcp answers 401 with resource_metadata",
                              revoked)

    @staticmethod
    async def _missing_sdk_tokens() -> None:
        raise AssertionError("the SDK flow above failed, so its token cannot be checked")


class MemoryStorage:
    """The SDK's TokenStorage protocol, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the MCP endpoint, http://127.0.0.1:PORT/mcp")
    parser.add_argument("--project", required=True, help="a project of the person who signs in")
    parser.add_argument("--sign-in-url", help="a one-time sign-in link of that person")
    parser.add_argument("--login", required=True, help="the person's login (for the sign-ins after the link)")
    parser.add_argument("--password", help="the person's password; with --sign-in-url a new one is set instead")
    parser.add_argument("--account-url", help="the account site, when not the MCP URL's origin")
    parser.add_argument("--screenshot", help="where to save a screenshot of the consent page")
    parser.add_argument("--document-cert", help="PEM certificate for the HTTPS server of the client's metadata "
                        "document (from a CA the service trusts); with --document-key, the CIMD checks run")
    parser.add_argument("--document-key", help="its PEM private key")
    args = parser.parse_args()
    if not args.sign_in_url and not args.password:
        parser.error("give --sign-in-url, or --password")
    if args.sign_in_url:
        args.password = None  # the link run sets a fresh one

    checks = Checks()
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(60.0), follow_redirects=False) as http:
        run = Run(args, http, checks)
        try:
            await run.discovery()
            if not run.server.authorization:
                print("the authorization server's endpoints are unknown; the rest cannot run")
            else:
                await checks.run("the official MCP SDK connects with OAuth", run.sdk)
                if args.document_cert and args.document_key:
                    document = MetadataDocument(args.document_cert, args.document_key, CIMD_CLIENT,
                                                run.callbacks.redirect_uri)
                    try:
                        await run.sdk_with_metadata_document(document)
                    finally:
                        document.close()
                await run.registration()
                if run.manual_client_id:
                    await run.authorization_refusals()
                    await run.denial()
                    await run.codes()
                await run.sdk_token_elsewhere_and_revoked()
        finally:
            run.callbacks.close()

    print(f"{checks.passed} passed, {len(checks.failed)} failed")
    for failure in checks.failed:
        print(f"FAILED: {failure}")
    return 1 if checks.failed or not run.server.authorization else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
