#!/usr/bin/env python3
"""Generates the systematic part of Tests/Fixtures/bad/ (folders named gen-*).

Each case is a folder of inputs; expected.txt is recorded from the built `provision` and then reviewed
(exit 65/66, a message naming the file and line:column where one applies). Rerun after changing an
error message: `python3 scripts/gen_bad_corpus.py [--provision PATH]`. Hand-written cases (no `gen-`
prefix) are never touched.
"""
import argparse, json, os, shutil, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAD = os.path.join(ROOT, "Tests", "Fixtures", "bad")

TEMPLATE = ('{\n  "records": [\n    { "type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial}}?u={{uid}}" },\n'
            '    { "type": "text", "text": "{{name}}", "lang": "en" }\n  ]\n}\n')
CSV = "sku,name,lot\nA-1,Bolt,L1\nA-2,Nut,L2\n"


def manifest(**over):
    base = {"job": "bad", "template": "t.json", "records": "rows.csv", "tag": "ntag213"}
    for key, value in over.items():
        if value is DROP:
            base.pop(key, None)
        else:
            base[key] = value
    return json.dumps(base, indent=2) + "\n"


DROP = object()
cases = {}


def case(name, job=None, csv=CSV, template=TEMPLATE, extra=None, command=None):
    files = {}
    if job is not None or command is None:
        files["job.json"] = job if job is not None else manifest()
        if csv is not None:
            files["rows.csv"] = csv
        if template is not None:
            files["t.json"] = template
    for key, value in (extra or {}).items():
        files[key] = value
    if command:
        files["command.txt"] = command + "\n"
    cases["gen-" + name] = files


# --- manifests: missing keys, unknown keys, wrong types, bad paths, bad job names
for key in ["job", "template", "records", "tag"]:
    case(f"manifest-missing-{key}", job=manifest(**{key: DROP}))
for key in ["Job", "templates", "record", "tags", "locks", "retry", "on_failure", "uniques", "serials", "reader", "ledgers", "report", "", "version"]:
    case(f"manifest-unknown-key-{key or 'empty'}", job=manifest(**{key: 1}))
wrong = {"job": [1, True, None, [], {}], "template": [2, False, None, ["t.json"], {}], "tag": [213, None, ["ntag213"]],
         "lock": [True, 1, None], "retries": ["2", True, None, -1, 11, 1.5, [2]], "onFailure": [0, None, True],
         "unique": ["sku", 1, [1], [None], {}], "serial": [1, "S", [], None], "readers": ["sim:", 1, [1], {}],
         "ledger": [1, True, [], ""], "reports": [1, None, {}, ""]}
for key, values in wrong.items():
    for index, value in enumerate(values):
        case(f"manifest-type-{key}-{index}", job=manifest(**{key: value}))
for index, value in enumerate(["ntag", "NTAG213x", "", "mifare", "ntag-215"]):
    case(f"manifest-tag-value-{index}", job=manifest(tag=value))
for index, value in enumerate(["temporary", "", "yes", "Permanent"]):
    case(f"manifest-lock-value-{index}", job=manifest(lock=value))
for index, value in enumerate(["../x", "..", ".", "a/b", "", "x" * 65, "é", "job name", "job\u0000", "/abs", "a\\b"]):
    case(f"manifest-job-name-{index}", job=manifest(job=value))
for index, value in enumerate(["", "t.txt", "nope/t.json", "/nonexistent/t.json"]):
    case(f"manifest-template-path-{index}", job=manifest(template=value))
for index, value in enumerate(["", "rows.txt", "rows", "nope/rows.csv", "/nonexistent/rows.csv", "rows.csv.bak"]):
    case(f"manifest-records-path-{index}", job=manifest(records=value))
for index, serial in enumerate([{"start": -1}, {"start": "1"}, {"width": 40}, {"step": 0}, {"step": -1},
                                {"prefix": 1}, {"start": 1.5}, {"unknown": 1}, {"width": "6"}]):
    case(f"manifest-serial-{index}", job=manifest(serial=serial))
for index, records in enumerate([[], [1], ["a"], [{"a": 1}, 2], [{"a": {"b": 1}}], [{"a": [1]}], [[]], {}, 0]):
    case(f"manifest-inline-records-{index}", job=manifest(records=records))
# Reader specs are checked for syntax only (backend and options are checked when the reader opens):
# `bogus:x`, `sim:ntag999`, `sim:ntag215?count=x` validate cleanly; see reports/reliability.md.
for index, readers in enumerate([[""], [":"], ["sim:ntag215", 5]]):
    case(f"manifest-readers-{index}", job=manifest(readers=readers))
raw_manifests = {
    "truncated": '{"job": "bad", "template": "t.json"',
    "bare-string": '"job"',
    "number": "42",
    "null": "null",
    "comment": "// c\n" + manifest(),
    "single-quotes": "{'job': 'bad'}",
    "unquoted-key": '{job: "bad"}',
    "nan": manifest()[:-3] + ', "retries": NaN}\n',
    "two-objects": manifest() + manifest(),
    "invalid-utf8": b'{"job": "b\xff\xfead", "template": "t.json", "records": "rows.csv", "tag": "ntag213"}\n',
    "nul-byte": b'{"job": "b\x00ad", "template": "t.json", "records": "rows.csv", "tag": "ntag213"}\n',
    "control-char-in-string": '{"job": "b\tad", "template": "t.json", "records": "rows.csv", "tag": "ntag213"}\n',
    "bad-escape": '{"job": "b\\qad", "template": "t.json", "records": "rows.csv", "tag": "ntag213"}\n',
    "lone-surrogate": '{"job": "b\\ud800ad", "template": "t.json", "records": "rows.csv", "tag": "ntag213"}\n',
    "deep-nesting": '{"job": "bad", "x": ' + "[" * 2000 + "]" * 2000 + "}",
    "huge-number": '{"job": "bad", "template": "t.json", "records": "rows.csv", "tag": "ntag213", "retries": 1e999}\n',
    "missing-colon": '{"job" "bad"}',
    "whitespace-only": "  \n\t\n",
}
for name, text in raw_manifests.items():
    case(f"manifest-raw-{name}", job=text)

# --- CSVs
long_field = "x" * 70000
csvs = {
    "ragged-short-row": "sku,name,lot\nA-1,Bolt\n",
    "ragged-long-row": "sku,name,lot\nA-1,Bolt,L1,extra,more\n",
    "ragged-many": "sku,name,lot\nA-1\nA-2,b,c,d\nA-3,,\n",
    "unbalanced-quote-start": 'sku,name,lot\n"A-1,Bolt,L1\n',
    "unbalanced-quote-end": "sku,name,lot\nA-1,Bolt\",L1\n",
    "quote-in-middle": 'sku,name,lot\nA-1,Bo"lt,L1\n',
    "text-after-quote": 'sku,name,lot\n"A-1"x,Bolt,L1\n',
    "unclosed-quote-last-row": 'sku,name,lot\nA-1,Bolt,L1\nA-2,"Nut,L2\n',
    "invalid-utf8-header": b"sk\xffu,name,lot\nA-1,Bolt,L1\n",
    "invalid-utf8-field": b"sku,name,lot\nA-1,B\xc3\x28lt,L1\n",
    "invalid-utf8-overlong": b"sku,name,lot\nA-1,B\xc0\xafolt,L1\n",
    "invalid-utf8-truncated": b"sku,name,lot\nA-1,Bolt,L\xe2\x82\n",
    "invalid-utf8-surrogate": b"sku,name,lot\nA-1,B\xed\xa0\x80olt,L1\n",
    "nul-in-header": b"sku,na\x00me,lot\nA-1,Bolt,L1\n",
    "nul-in-last-field": b"sku,name,lot\nA-1,Bolt,L1\x00\n",
    "nul-only": b"\x00",
    "empty": "",
    "only-newline": "\n",
    "header-only-no-newline": "sku,name,lot",
    "header-only-crlf": "sku,name,lot\r\n",
    "duplicate-header-adjacent": "sku,sku,lot\nA-1,Bolt,L1\n",
    "duplicate-header-case": "sku,name,name\nA-1,Bolt,L1\n",
    "empty-header-middle": "sku,,lot\nA-1,Bolt,L1\n",
    "header-builtin-serial": "sku,serial,name\nA-1,1,Bolt\n",
    "header-builtin-uid": "sku,uid,name\nA-1,04,Bolt\n",
    "missing-template-column": "sku,lot\nA-1,L1\n",
    "very-long-field": "sku,name,lot\nA-1," + long_field + ",L1\n",
    "blank-line-middle": "sku,name,lot\nA-1,Bolt,L1\n\nA-2,Nut,L2\n",
    "bare-cr-middle": "sku,name,lot\nA-1,Bolt,L1\rA-2,Nut,L2\n",
    "bom-then-garbage": b"\xef\xbb\xbf\xff,name,lot\nA-1,Bolt,L1\n",
    "utf16": "sku,name,lot\nA-1,Bolt,L1\n".encode("utf-16"),
    "binary-garbage": bytes(range(256)),
}
for name, text in csvs.items():
    case(f"csv-{name}", csv=text)
case("csv-unique-duplicate", job=manifest(unique=["sku"]), csv="sku,name,lot\nA-1,Bolt,L1\nA-1,Nut,L2\n")
case("csv-unique-duplicate-far", job=manifest(unique=["lot"]),
     csv="sku,name,lot\n" + "".join(f"A-{i},N{i},L{i}\n" for i in range(1, 50)) + "A-99,N,L7\n")
case("jsonl-not-object", job=manifest(records="rows.jsonl"), csv=None, extra={"rows.jsonl": '{"sku":"A","name":"B"}\n[1,2]\n'})
case("jsonl-syntax", job=manifest(records="rows.jsonl"), csv=None, extra={"rows.jsonl": '{"sku":"A","name":"B"}\n{"sku":\n'})
case("jsonl-invalid-utf8", job=manifest(records="rows.jsonl"), csv=None, extra={"rows.jsonl": b'{"sku":"A","name":"\xff"}\n'})
case("jsonl-empty", job=manifest(records="rows.jsonl"), csv=None, extra={"rows.jsonl": ""})
case("jsonl-nested", job=manifest(records="rows.jsonl"), csv=None, extra={"rows.jsonl": '{"sku":"A","name":{"x":1}}\n'})
case("jsonl-missing-field", job=manifest(records="rows.jsonl"), csv=None, extra={"rows.jsonl": '{"sku":"A"}\n'})

# --- templates
def tmpl(*records):
    return json.dumps({"records": list(records)}, indent=2) + "\n"

uri = lambda text: {"type": "uri", "uri": text}
txt = lambda text, lang="en": {"type": "text", "text": text, "lang": lang}
templates = {
    "unclosed-open": tmpl(uri("https://e.com/{{sku")),
    "triple-brace": tmpl(uri("https://e.com/{{{sku}}}")),
    "unclosed-at-end": tmpl(txt("{{")),
    "empty-name": tmpl(txt("{{ }}")),
    "unknown-field": tmpl(txt("{{colour}}")),
    "unknown-field-case": tmpl(txt("{{SKU}}")),
    "unknown-filter": tmpl(txt("{{name | reverse}}")),
    "filter-empty-after-pipe": tmpl(txt("{{name |}}")),
    "filter-pad-negative": tmpl(txt("{{serial | pad:-3}}")),
    "filter-pad-huge": tmpl(txt("{{serial | pad:99999}}")),
    "filter-lower-arg": tmpl(txt("{{name | lower:2}}")),
    "filter-hex-arg": tmpl(txt("{{name | hex:x}}")),
    "filter-chain-unknown": tmpl(txt("{{name | upper | title}}")),
    "placeholder-in-type": tmpl({"type": "{{sku}}", "uri": "x"}),
    "bad-lang": tmpl(txt("x", lang="english-language-too-long-for-ndef" * 3)),
    "records-not-array": '{"records": {"type": "uri"}}\n',
    "records-empty": '{"records": []}\n',
    "record-not-object": '{"records": [1]}\n',
    "record-missing-type": '{"records": [{"uri": "https://e.com"}]}\n',
    "record-unknown-type": '{"records": [{"type": "vcard", "text": "x"}]}\n',
    "record-type-number": '{"records": [{"type": 1}]}\n',
    "uri-number": '{"records": [{"type": "uri", "uri": 5}]}\n',
    "text-missing-text": '{"records": [{"type": "text", "lang": "en"}]}\n',
    "text-bad-encoding": '{"records": [{"type": "text", "text": "x", "lang": "en", "encoding": "latin1"}]}\n',
    "mime-no-type": '{"records": [{"type": "mime", "text": "x"}]}\n',
    "mime-bad-hex": '{"records": [{"type": "mime", "mediaType": "a/b", "hex": "XYZ"}]}\n',
    "mime-odd-hex": '{"records": [{"type": "mime", "mediaType": "a/b", "hex": "ABC"}]}\n',
    "mime-bad-base64": '{"records": [{"type": "mime", "mediaType": "a/b", "base64": "!!!"}]}\n',
    "external-no-name": '{"records": [{"type": "external", "hex": "01"}]}\n',
    "smartposter-bad-action": '{"records": [{"type": "smartposter", "uri": "https://e.com", "action": "fly"}]}\n',
    "unknown-record-key": '{"records": [{"type": "uri", "uri": "https://e.com", "colour": "red"}]}\n',
    "top-level-number": "3\n",
    "top-level-string": '"uri"\n',
    "json-truncated": '{"records": [{"type": "uri", "uri": "https://e.com"}\n',
    "json-trailing-comma": '{"records": [{"type": "uri", "uri": "https://e.com"},]}\n',
    "json-invalid-utf8": b'{"records": [{"type": "text", "text": "\xff", "lang": "en"}]}\n',
    "json-nul": b'{"records": [{"type": "text", "text": "a\x00", "lang": "en"}]}\n',
    "json-empty-file": "",
    "json-duplicate-key": '{"records": [{"type": "uri", "uri": "a", "uri": "b"}]}\n',
    "too-large-213": tmpl(txt("y" * 200)),
    "too-large-long-url": tmpl(uri("https://example.com/" + "p" * 300)),
    "too-large-many-records": tmpl(*[txt("record {{sku}}") for _ in range(20)]),
}
for name, text in templates.items():
    case(f"template-{name}", template=text)
case("template-too-large-from-field-data", template=tmpl(txt("{{name}}")),
     csv="sku,name,lot\nA-1," + "n" * 180 + ",L1\n")
case("template-too-large-216", job=manifest(tag="ntag216"), template=tmpl(txt("z" * 900)))
case("template-too-large-215", job=manifest(tag="ntag215"), template=tmpl(txt("z" * 520)))

# --- NDEF hex for `provision ndef decode`
ndef = {
    "odd-digits": "D1010C5504",
    "not-hex": "ZZ",
    "empty": "",
    "truncated-header": "D1",
    "truncated-payload": "D1 01 0C 55 04 65 78",
    "length-overflow": "D1 01 FF 55 04",
    "long-record-truncated-length": "C1 01 00 00",
    "type-length-overflow": "D1 20 00",
    "id-length-overflow": "D9 01 00 05 55",
    "no-message-begin": "51 01 01 55 00",
    "no-message-end": "91 01 01 55 00",
    "chunked": "B1 01 01 55 00",
    "tnf-empty-with-type": "D0 01 00 55",
    "tnf-reserved": "D7 00 00",
    "unchanged-first": "D6 00 00",
    "trailing-bytes": "D1 01 01 55 00 00",
    "uri-bad-prefix": "D1 01 02 55 FF 61",
    "text-bad-lang-length": "D1 01 02 54 3F 65",
    "text-invalid-utf8": "D1 01 04 54 02 65 6E FF",
    "two-message-begins": "91 01 01 55 00 91 01 01 55 00",
}
for name, text in ndef.items():
    case(f"ndef-decode-{name}", extra={"message.hex": text + "\n"}, command="ndef decode message.hex")
tlvs = {
    "tlv-no-ndef": "00 00 FE",
    "tlv-length-past-end": "03 20 D1 01",
    "tlv-long-form-truncated": "03 FF 01",
    "tlv-lock-control-truncated": "01 03 A0",
}
for name, text in tlvs.items():
    case(f"ndef-decode-{name}", extra={"area.hex": text + "\n"}, command="ndef decode area.hex --tlv")
case("ndef-decode-missing-file", extra={}, command="ndef decode nope.hex")


def write(folder, files):
    for name, content in files.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--provision", default=os.path.join(ROOT, ".build", "debug", "provision"))
    args = parser.parse_args()
    for name in os.listdir(BAD):
        if name.startswith("gen-"):
            shutil.rmtree(os.path.join(BAD, name))
    bad = []
    for name, files in sorted(cases.items()):
        folder = os.path.join(BAD, name)
        os.makedirs(folder)
        write(folder, files)
        command = files.get("command.txt", "validate job.json").split()
        result = subprocess.run([args.provision] + command, cwd=folder, capture_output=True)
        with open(os.path.join(folder, "expected.txt"), "wb") as handle:
            handle.write(b"exit %d\n" % result.returncode + result.stderr)
        if result.returncode not in (65, 66) or result.stdout:
            bad.append((name, result.returncode, result.stderr.decode(errors="replace")[:200]))
    print(f"{len(cases)} generated cases; {len(bad)} not exiting 65/66 quietly")
    for item in bad:
        print("  ", *item)


if __name__ == "__main__":
    main()
