#!/usr/bin/env python3
"""No shell script of the project pipes into a reader that may stop early.

Every script runs under `set -o pipefail`. A reader that exits before it has
read all of its input (`grep -q`, `grep -m N`, `head`, `awk '... exit'`) makes
the writer die of SIGPIPE when it writes again, and the pipeline fails with
status 141 although the reader found what it looked for. Whether the writer
writes again depends on scheduling: CI failed twice on such a race
(`sed | head -1` in tests/scripts/series-tools.sh; `awk | grep -q` in
tests/devicertl/amdgpu-malloc.sh, 12 failures in 200 runs here), and under
`! cmd | grep -q` the same race makes a check pass that must fail.

Use readers that consume all of their input instead:
  `| grep -q P`     ->  `| grep P >/dev/null` (or `grep -c`)
  `| head -1`       ->  `| sed -n 1p`
  `| grep -m1 P`    ->  `| grep P | sed -n 1p`  (or awk that does not exit)
A line may say `# pipefail-safe: <why>` to be let through.

Checks the shell scripts git tracks (outside patches/) and checks itself on
lines that must be found first, so that it can fail.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A pipe (not ||) followed by a reader that may stop before end of input.
EARLY = re.compile(
    r"(?<![|])\|(?![|])\s*(?:"
    r"head\b"
    r"|grep\b[^|;&]*?\s-[A-Za-z]*[qm]"
    r"|grep\b[^|;&]*?\s--(?:quiet|silent|max-count)\b"
    r"|awk\b[^|]*\bexit\b"
    r"|sed\b[^|]*\b[0-9]+q\b"
    r")"
)

MUST_FIND = [
    "body f | grep -q MallocPool || fail x",
    "first=$(sed -n 's/x/y/p' series | head -1)",
    "! llvm-dis a.bc -o - | grep -Eq 'store' || fail",
    "echo \"$log\" | grep -m1 -E 'PASS|FAIL'",
    "ldd x | grep --quiet 'not found'",
    "cat x | awk '/y/ { print; exit }'",
]
MUST_PASS = [
    "body f | grep MallocPool >/dev/null || fail x",
    "first=$(sed -n 's/x/y/p' series | sed -n 1p)",
    "grep -q PASS log || fail",
    "a || grep -q b file",
    "x | grep -c y",
    "x | tee log | grep -v -e q",
]


def shell_scripts():
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode().split("\0")
    for name in files:
        path = ROOT / name
        if not name or name.startswith("patches/") or not path.is_file():
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        first = text.split("\n", 1)[0]
        if name.endswith(".sh") or (first.startswith("#!") and ("bash" in first or first.endswith("/sh"))):
            yield name, text


def logical_lines(text):
    """Lines with continuations (a trailing `|` or `\\`) joined, numbered by the first."""
    buf, start = "", 0
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.split(" #", 1)[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not buf:
            start = number
        buf += " " + line if buf else line
        if stripped.endswith("|") or stripped.endswith("\\"):
            continue
        yield start, buf
        buf = ""
    if buf:
        yield start, buf


def hits(line):
    if line.lstrip().startswith("#") or "pipefail-safe:" in line:
        return False
    # Drop a trailing comment (a rough cut: ` #` outside quotes is rare here).
    code = line.split(" # ", 1)[0]
    return bool(EARLY.search(code))


def main():
    bad_self = [l for l in MUST_FIND if not hits(l)] + [l for l in MUST_PASS if hits(l)]
    if bad_self:
        for line in bad_self:
            print(f"FAIL: the check misjudges its own example: {line}")
        return 1
    found = []
    count = 0
    for name, text in shell_scripts():
        count += 1
        for number, line in logical_lines(text):
            if hits(line):
                found.append(f"{name}:{number}: {line.strip()}")
    if found:
        print("\n".join(found))
        print(
            "FAIL: the lines above pipe into a reader that may stop early; under\n"
            "  pipefail the writer may die of SIGPIPE and the pipeline fail at random.\n"
            "  Use `grep P >/dev/null` for `grep -q P`, `sed -n 1p` for `head -1`\n"
            "  (tests/scripts/no-early-exit-pipes.py says why), or mark the line\n"
            "  `# pipefail-safe: <why>`."
        )
        return 1
    print(f"PASS: {count} shell scripts pipe into no reader that stops early")
    return 0


if __name__ == "__main__":
    sys.exit(main())
