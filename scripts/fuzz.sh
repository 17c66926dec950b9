#!/usr/bin/env bash
# `make fuzz`: builds libFuzzer targets with `swiftc -sanitize=fuzzer,address` and runs each for a fixed
# budget (seconds, default 60). Not in CI. Corpora live in .build/fuzz/corpus/<target> (kept between
# runs, seeded from the repository's fixtures); crashes land in .build/fuzz/crashes/<target>/.
# See docs/fuzzing.md for turning a crash into a regression fixture.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
OUT=.build/fuzz
mkdir -p "$OUT/modules"
SAN=(-sanitize=fuzzer,address -parse-as-library -Onone -I "$OUT/modules")

# module NAME FILES… : an instrumented library module in $OUT/modules (object + swiftmodule).
module() {
    local name=$1; shift
    swiftc "${SAN[@]}" -wmo -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" -module-name "$name" \
        -c "$@" -o "$OUT/modules/$name.o"
}

PROVISIONING=$(ls Sources/Provisioning/*.swift | grep -v -e UniqueIndex -e PreFlight -e /Line/ -e /Auth/)
module NDEF Sources/NDEF/*.swift
module NFCTags Sources/NFCTags/*.swift
module Provisioning $PROVISIONING
# Only the frame decoders of TagEmulator (the rest needs libcrypto and pseudo-terminals).
swiftc "${SAN[@]}" -wmo -emit-module -emit-module-path "$OUT/modules/TagEmulatorFrames/TagEmulator.swiftmodule" \
    -module-name TagEmulator -c Sources/TagEmulator/PN532/PN532Frame.swift Sources/TagEmulator/VPCD/VPCDFrameDecoder.swift \
    -o "$OUT/modules/TagEmulatorFrames.o" 2>/dev/null || { mkdir -p "$OUT/modules/TagEmulatorFrames"; \
    swiftc "${SAN[@]}" -wmo -emit-module -emit-module-path "$OUT/modules/TagEmulatorFrames/TagEmulator.swiftmodule" \
    -module-name TagEmulator -c Sources/TagEmulator/PN532/PN532Frame.swift Sources/TagEmulator/VPCD/VPCDFrameDecoder.swift \
    -o "$OUT/modules/TagEmulatorFrames.o"; }

# target NAME HARNESS OBJECTS… [-I extra]
target() {
    local name=$1 harness=$2; shift 2
    swiftc "${SAN[@]}" "$@" "$harness" -o "$OUT/$name"
}
target ndef-decoder Fuzz/NDEFDecoder.swift "$OUT/modules/NDEF.o"
target tlv-walker Fuzz/TLVWalker.swift "$OUT/modules/NFCTags.o" "$OUT/modules/NDEF.o"
target csv-reader Fuzz/CSVReader.swift "$OUT/modules/Provisioning.o" "$OUT/modules/NFCTags.o" "$OUT/modules/NDEF.o"
target template-parser Fuzz/TemplateParser.swift "$OUT/modules/Provisioning.o" "$OUT/modules/NFCTags.o" "$OUT/modules/NDEF.o"
target pn532-frames Fuzz/PN532Frames.swift -I "$OUT/modules/TagEmulatorFrames" "$OUT/modules/TagEmulatorFrames.o"
target vpcd-frames Fuzz/VPCDFrames.swift -I "$OUT/modules/TagEmulatorFrames" "$OUT/modules/TagEmulatorFrames.o"

# Seeds: the repository's own fixtures of each kind.
mkdir -p "$OUT"/corpus/{ndef-decoder,tlv-walker,csv-reader,template-parser,pn532-frames,vpcd-frames}
find Tests/Fixtures -name '*.csv' -size -64k -exec cp {} "$OUT/corpus/csv-reader/" \; 2>/dev/null || true
for f in Tests/Fixtures/bad/*/t.json templates/*.json; do cp "$f" "$OUT/corpus/template-parser/$(echo "$f" | tr / _)"; done
printf '\xd1\x01\x0c\x55\x04example.com' > "$OUT/corpus/ndef-decoder/uri"
printf '\x03\x10\xd1\x01\x0c\x55\x04example.com\xfe' > "$OUT/corpus/tlv-walker/uri"
printf '\x00\x00\xff\x02\xfe\xd4\x02\x2a\x00' > "$OUT/corpus/pn532-frames/getfirmware"
printf '\x00\x01\x04\x00\x05\x00\xa4\x04\x00\x00' > "$OUT/corpus/vpcd-frames/frames"

status=0
summary=()
for name in ndef-decoder tlv-walker csv-reader template-parser pn532-frames vpcd-frames; do
    mkdir -p "$OUT/crashes/$name"
    echo "== $name: ${SECONDS_EACH}s"
    if "$OUT/$name" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$OUT/crashes/$name/" "$OUT/corpus/$name" > "$OUT/$name.log" 2>&1; then
        summary+=("$name: $(grep -E '^Done [0-9]+ runs' "$OUT/$name.log" | tail -1 || true)")
    else
        status=1
        summary+=("$name: CRASH, see $OUT/crashes/$name/ and $OUT/$name.log")
    fi
done
printf '%s\n' "${summary[@]}"
exit $status
