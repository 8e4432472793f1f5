#!/usr/bin/env python3
"""Reads OTLP/HTTP JSON bodies, one per line on standard input, and parses each as an
ExportLogsServiceRequest with the opentelemetry-proto package's schema through protobuf's
JSON parser (unknown fields refused), the oracle of notify-sched's receipts.

Prints one JSON line per body: {"valid": true, "resource": {...}, "records": [...]}, each
record with its eventName, timeUnixNano and attributes as the parser read them (strings and
integers), or {"valid": false, "error": "..."}.
"""

import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest


def value(any_value):
    kind = any_value.WhichOneof("value")
    if kind == "string_value":
        return any_value.string_value
    if kind == "int_value":
        return any_value.int_value
    raise ValueError("an attribute of kind %s, where receipts send strings and integers" % kind)


def attributes(pairs):
    read = {}
    for pair in pairs:
        if pair.key in read:
            raise ValueError("attribute %s twice" % pair.key)
        read[pair.key] = value(pair.value)
    return read


def check(text):
    request = ExportLogsServiceRequest()
    json_format.Parse(text, request, ignore_unknown_fields=False)
    if len(request.resource_logs) != 1 or len(request.resource_logs[0].scope_logs) != 1:
        raise ValueError("one resource and one scope expected")
    resource_logs = request.resource_logs[0]
    records = []
    for record in resource_logs.scope_logs[0].log_records:
        records.append({
            "eventName": record.event_name,
            "timeUnixNano": record.time_unix_nano,
            "attributes": attributes(record.attributes),
        })
    return {
        "valid": True,
        "resource": attributes(resource_logs.resource.attributes),
        "scope": resource_logs.scope_logs[0].scope.name,
        "records": records,
    }


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            print(json.dumps(check(line)))
        except Exception as error:  # every failure of the parser is the verdict
            print(json.dumps({"valid": False, "error": str(error)}))


if __name__ == "__main__":
    main()
