"""Receiving the service's webhook calls: the spec's six receiver rules (docs/WEBHOOKS.md).

Hand-written, not generated: ``clients/generate.sh`` copies this file into the generated package as
``canvas_client.webhooks``. It needs ``cryptography`` (a dependency of the package) and ``httpx``.

    receiver = WebhookReceiver(base_url, project_id=PROJECT, webhook_id=WEBHOOK)
    verified = receiver.verify(request.headers, raw_body)   # raises WebhookRejected
    if not verified.duplicate:
        handle(verified.payload)                             # payload["changes"][0]["kind"] …

The payload is the body as JSON; its shape per kind is the event catalog
(``GET /api/v2/webhooks/event-types``, the OpenAPI document's ``webhooks``).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

#: Rule 5: a key set is kept at most this long (seconds), less when ``Cache-Control`` says so.
KEY_CACHE_MAX_AGE_SECS = 300
#: An unknown kid reloads the key set at most this often (seconds), so forged kids cannot flood the service.
UNKNOWN_KID_RELOAD_SECS = 10

REASONS = (
    "malformed-signature",  # rule 1: not ``es256;kid=<kid>;<base64 of 64 bytes>``
    "unknown-key",  # rule 5: no published key has the kid, even after reloading the key set
    "bad-signature",  # rule 1: the signature does not verify over id, timestamp and raw body
    "stale-timestamp",  # rule 2: missing, not a number, or more than the tolerance from now
    "wrong-identity",  # rule 3: ``projectId`` or ``webhookId`` are not the registered ones
    "malformed-body",  # the signed body is not the JSON of a call
)


class WebhookRejected(Exception):
    """A call that must not be acted on; answer it with a 4xx. ``reason`` is one of ``REASONS``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


@dataclass(frozen=True)
class Verified:
    #: Rule 4: this ``Webhook-Id`` was accepted before; the call needs no handling again.
    duplicate: bool
    payload: dict[str, Any]


def parse_signature(value: str) -> tuple[str, bytes]:
    """Rule 1 (form): exactly three ``;``-separated parts, ``es256``, ``kid=<kid>``, base64 of r || s."""
    parts = value.split(";")
    if len(parts) != 3:
        raise WebhookRejected("malformed-signature", "the header must have exactly three ';'-separated parts")
    algorithm, kid_part, encoded = parts
    if algorithm != "es256":
        raise WebhookRejected("malformed-signature", "the algorithm must be es256")
    if not kid_part.startswith("kid=") or len(kid_part) == 4:
        raise WebhookRejected("malformed-signature", "the second part must be kid=<kid>")
    try:
        signature = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        signature = b""
    if len(signature) != 64:
        raise WebhookRejected("malformed-signature", "the signature must be base64 of 64 bytes (r || s)")
    return kid_part[4:], signature


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return ""


class WebhookReceiver:
    """Verifies calls of one registered webhook (or test calls of its project)."""

    def __init__(
        self,
        base_url: str,
        *,
        project_id: str,
        webhook_id: str | None = None,
        tolerance_secs: int = 300,
        remember_ids: int = 10_000,
        now: Callable[[], float] = time.time,
        http: httpx.Client | None = None,
    ) -> None:
        self._keys_url = base_url.rstrip("/") + "/api/v2/webhooks/keys"
        self.project_id = str(project_id)
        self.webhook_id = None if webhook_id is None else str(webhook_id)
        self.tolerance_secs = tolerance_secs
        self._remember = remember_ids
        self._now = now
        self._http = http or httpx.Client(timeout=10)
        self._keys: dict[str, ec.EllipticCurvePublicKey] = {}
        self._loaded_at = float("-inf")
        self._max_age = KEY_CACHE_MAX_AGE_SECS
        self._seen: OrderedDict[str, None] = OrderedDict()

    def _key(self, kid: str) -> ec.EllipticCurvePublicKey | None:
        """Rule 5: the key set, loaded again when older than its age or for an unknown kid."""
        now = self._now()
        stale = now - self._loaded_at > self._max_age
        unknown = kid not in self._keys and now - self._loaded_at > UNKNOWN_KID_RELOAD_SECS
        if stale or unknown:
            response = self._http.get(self._keys_url)
            response.raise_for_status()
            keys = {}
            for jwk in response.json()["keys"]:
                if (jwk.get("kty"), jwk.get("crv")) != ("EC", "P-256"):
                    continue
                x, y = (int.from_bytes(_b64url(jwk[c]), "big") for c in ("x", "y"))
                keys[jwk["kid"]] = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
            age = re.search(r"max-age=(\d+)", response.headers.get("cache-control", ""))
            self._max_age = min(KEY_CACHE_MAX_AGE_SECS, int(age.group(1)) if age else KEY_CACHE_MAX_AGE_SECS)
            self._keys, self._loaded_at = keys, now
        return self._keys.get(kid)

    def verify(self, headers: Mapping[str, str], body: bytes | str) -> Verified:
        """Applies the six rules in the spec's order: the signature over the raw body before anything
        is parsed (rules 1, 5, 6), the timestamp (2), the identity (3), repeats (4)."""
        raw = body.encode() if isinstance(body, str) else bytes(body)
        delivery_id = _header(headers, "webhook-id")
        timestamp = _header(headers, "webhook-timestamp")
        kid, signature = parse_signature(_header(headers, "webhook-signature"))
        key = self._key(kid)
        if key is None:
            raise WebhookRejected("unknown-key", f"no published key has kid {kid}")
        r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
        try:
            key.verify(utils.encode_dss_signature(r, s), f"{delivery_id}.{timestamp}.".encode() + raw, ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise WebhookRejected("bad-signature", "the signature does not verify") from None
        if not re.fullmatch(r"[0-9]+", timestamp.strip()) or abs(self._now() - int(timestamp)) > self.tolerance_secs:
            raise WebhookRejected("stale-timestamp", f"Webhook-Timestamp {timestamp!r} is too far from now")
        try:
            payload = json.loads(raw)
        except ValueError:
            raise WebhookRejected("malformed-body", "the body is not JSON") from None
        if not isinstance(payload, dict) or not isinstance(payload.get("changes"), list):
            raise WebhookRejected("malformed-body", "the body has no changes")
        changes = payload["changes"]
        ping = payload.get("webhookId") is None and len(changes) == 1 and changes[0].get("kind") == "ping"
        if payload.get("projectId") != self.project_id:
            raise WebhookRejected("wrong-identity", f"projectId {payload.get('projectId')} is not the registered project")
        if not ping and (self.webhook_id is None or payload.get("webhookId") != self.webhook_id):
            raise WebhookRejected("wrong-identity", f"webhookId {payload.get('webhookId')} is not the registered webhook")
        duplicate = delivery_id in self._seen
        if not duplicate:
            self._seen[delivery_id] = None
            if len(self._seen) > self._remember:
                self._seen.popitem(last=False)
        return Verified(duplicate=duplicate, payload=payload)
