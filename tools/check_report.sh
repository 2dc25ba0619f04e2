#!/usr/bin/env bash
# check_report.sh — opens the comparison's HTML report in a real browser,
# offline, and checks that its charts were drawn.
#
#   tools/check_report.sh [REPORT.html] [SCREENSHOT.png]
#
# Without REPORT it first makes a small comparison (the shooter, 120 frames,
# two runs) in reports/check. Headless Chromium (Debian package chromium,
# installed when missing) loads the file with networking disabled, the script
# counts the canvases the page drew (the page records that number in
# <body data-charts-drawn>), and a full-page screenshot is written for a
# person to look at. Exits non-zero when no chart was drawn.
set -euo pipefail
cd "$(dirname "$0")/.."

report=${1:-}
shot=${2:-reports/check/report.png}
if [ -z "$report" ]; then
    ./build.sh build release default
    lua5.4 tools/compare.lua --frames 120 --runs 2 --samples shooter --out reports/check >/dev/null
    report=reports/check/report.html
fi
if ! command -v chromium >/dev/null; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chrome=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking
        --disable-component-update --disable-sync --no-first-run --disable-quic
        --user-data-dir="$profile")
url="file://$(realpath "$report")"

drawn=$("${chrome[@]}" --dump-dom "$url" 2>/dev/null | sed -n 's/.*data-charts-drawn="\([0-9]*\)".*/\1/p' | head -n 1)
mkdir -p "$(dirname "$shot")"
"${chrome[@]}" --window-size=1400,2400 --screenshot="$(realpath -m "$shot")" "$url" >/dev/null 2>&1

if [ -z "$drawn" ] || [ "$drawn" -eq 0 ]; then
    echo "check_report: $report drew no charts" >&2
    exit 1
fi
echo "check_report: $report drew $drawn charts; screenshot in $shot"
