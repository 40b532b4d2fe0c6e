"""Checks webhook call bodies against the service's event catalog with Python's `jsonschema`.

Reads {"catalog": <GET /api/v2/webhooks/event-types>, "bodies": [<raw body text>, ...]} on stdin
and prints a JSON list with one entry per body: null when the body is valid JSON whose change kind
is in the catalog and which validates against that kind's schema (draft 2020-12, formats checked:
`uuid` and, with `rfc3339-validator`, `date-time`), else the reasons in words. Nothing here trusts
the service's own code: the schemas are what it publishes, the validator is jsonschema's.
"""

import json
import sys

import jsonschema

request = json.load(sys.stdin)
checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
if "date-time" not in checker.checkers:
    raise SystemExit("jsonschema cannot check date-time: install rfc3339-validator (tests/run.sh does)")
schemas = {}
for entry in request["catalog"]["elements"]:
    jsonschema.Draft202012Validator.check_schema(entry["schema"])
    schemas[entry["name"]] = jsonschema.Draft202012Validator(entry["schema"], format_checker=checker)

results = []
for text in request["bodies"]:
    try:
        body = json.loads(text)
        kind = body["changes"][0]["kind"]
    except (ValueError, KeyError, IndexError, TypeError) as error:
        results.append(f"no change kind: {error!r}")
        continue
    validator = schemas.get(kind)
    if validator is None:
        results.append(f"kind {kind!r} is not in the catalog")
        continue
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    if errors:
        # For an anyOf of variants, the reasons each variant gives.
        reasons = []
        for error in errors:
            reasons.append(f"{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
            for sub in error.context or []:
                reasons.append(f"  {'/'.join(map(str, sub.absolute_path))}: {sub.message[:200]}")
        results.append("; ".join(reasons[:12]))
    else:
        results.append(None)
print(json.dumps(results))
