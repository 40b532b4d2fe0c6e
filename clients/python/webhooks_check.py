"""Checks canvas_client.webhooks against calls the service really sent.

tests/tests/e2e/generated_clients.rs writes them to CANVAS_CALLS_FILE: every one is accepted, and
each rule refuses what it should. Prints one JSON line for the test.
"""

import base64
import json
import os
import time
import uuid

import httpx

from canvas_client.webhooks import WebhookReceiver, WebhookRejected

base_url = os.environ["CANVAS_BASE_URL"]
project_id = os.environ["CANVAS_PROJECT_ID"]
webhook_id = os.environ["CANVAS_WEBHOOK_ID"]
with open(os.environ["CANVAS_CALLS_FILE"]) as file:
    calls = json.load(file)

key_fetches = 0


def count(request):
    global key_fetches
    key_fetches += 1


def body(call):
    return base64.b64decode(call["body_b64"])


def reason(attempt):
    try:
        attempt()
        return "accepted"
    except WebhookRejected as rejected:
        return rejected.reason


http = httpx.Client(event_hooks={"request": [count]})
receiver = WebhookReceiver(base_url, project_id=project_id, webhook_id=webhook_id, http=http)
described = []
for call in calls:
    verified = receiver.verify(call["headers"], body(call))
    assert not verified.duplicate, "a first delivery was taken for a repeat"
    change = verified.payload["changes"][0]
    described.append(change["kind"])
first = calls[0]
event = next(c for c in calls if b'"kind":"ping"' not in body(c))
ping = next(c for c in calls if b'"kind":"ping"' in body(c))
signature = first["headers"]["webhook-signature"]
checks = {
    "repeat": "duplicate" if receiver.verify(first["headers"], body(first)).duplicate else "not duplicate",
    "tampered": reason(lambda: receiver.verify(first["headers"], body(first) + b" ")),
    "later": reason(
        lambda: WebhookReceiver(
            base_url, project_id=project_id, webhook_id=webhook_id, now=lambda: time.time() + 400
        ).verify(first["headers"], body(first))
    ),
    "otherProject": reason(
        lambda: WebhookReceiver(base_url, project_id=str(uuid.uuid4()), webhook_id=webhook_id).verify(
            event["headers"], body(event)
        )
    ),
    "otherWebhook": reason(
        lambda: WebhookReceiver(base_url, project_id=project_id, webhook_id=str(uuid.uuid4())).verify(
            event["headers"], body(event)
        )
    ),
    "pingWithoutWebhook": reason(
        lambda: WebhookReceiver(base_url, project_id=project_id).verify(ping["headers"], body(ping))
    ),
    "unknownKid": reason(
        lambda: receiver.verify(
            {**first["headers"], "webhook-signature": "es256;kid=nobody;" + base64.b64encode(b"\x01" * 64).decode()},
            body(first),
        )
    ),
    "twoParts": reason(lambda: receiver.verify({**first["headers"], "webhook-signature": "es256;kid=x"}, body(first))),
    "rs256": reason(
        lambda: receiver.verify(
            {**first["headers"], "webhook-signature": signature.replace("es256", "rs256")}, body(first)
        )
    ),
}
print(json.dumps({"accepted": len(described), "described": described, "checks": checks, "keyFetches": key_fetches}))
