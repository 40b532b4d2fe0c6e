"""Independent check of webhook signatures with Python's `cryptography`.

Reads {"jwks": <the published key set>, "calls": [{"id", "timestamp",
"signature", "body_b64"}]} on stdin and prints a JSON list of booleans, one
per call: true when the signature header has the spec's form and verifies
with the key of its kid from the key set alone.
"""

import base64
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_keys(jwks):
    keys = {}
    for jwk in jwks["keys"]:
        if (jwk.get("kty"), jwk.get("crv"), jwk.get("alg"), jwk.get("use")) != ("EC", "P-256", "ES256", "sig"):
            raise SystemExit(f"unexpected key parameters: {jwk}")
        x = int.from_bytes(b64url(jwk["x"]), "big")
        y = int.from_bytes(b64url(jwk["y"]), "big")
        keys[jwk["kid"]] = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
    return keys


def verify(keys, call):
    parts = call["signature"].split(";")
    if len(parts) != 3 or parts[0] != "es256" or not parts[1].startswith("kid="):
        return False
    key = keys.get(parts[1][len("kid="):])
    raw = base64.b64decode(parts[2], validate=True)
    if key is None or len(raw) != 64:
        return False
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    message = call["id"].encode() + b"." + call["timestamp"].encode() + b"." + base64.b64decode(call["body_b64"])
    try:
        key.verify(der, message, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def main():
    request = json.load(sys.stdin)
    keys = load_keys(request["jwks"])
    print(json.dumps([verify(keys, call) for call in request["calls"]]))


if __name__ == "__main__":
    main()
