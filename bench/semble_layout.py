"""Lays out semble's code-retrieval benchmark (bench/semble.sh): the labels
and repos.json of the fork michalfedyna/semble at bc2181c, and each
repository's benchmark_root (the whole tree where it is null) at its pinned
revision, from bare git mirrors (one directory per repository, named
`OWNER+NAME/repo` as the `fetch` tool of the sessions leaves them, or
`OWNER+NAME.git`, or `NAME.git`).

    python3 bench/semble_layout.py --mirrors DIR [--root ~/.cache/vibe-bench/semble]

Writes ROOT/bench/ (repos.json, annotations/, and the benchmark code the
baselines import) and ROOT/repos/<name>/ (the benchmark_root's files, so the
directory's name is the project's name), and ROOT/layout.json (the revision
each repository was taken at, and why). A repository already laid out is
kept. Three repositories moved (their old homes' snapshots lack the pins);
ziglang/zig is left out (too large to fetch here).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SEMBLE = "michalfedyna/semble"
SEMBLE_REV = "bc2181c"
MOVED = {
    "neuecc/MessagePack-CSharp": "MessagePack-CSharp/MessagePack-CSharp",
    "encode/starlette": "Kludex/starlette",
    "echasnovski/mini.nvim": "nvim-mini/mini.nvim",
}
LEFT_OUT = {"zig"}


def slug(url: str) -> str:
    s = url.removeprefix("https://github.com/").removesuffix(".git")
    return MOVED.get(s, s)


def mirror_of(mirrors: Path, owner_name: str) -> Path | None:
    owner, name = owner_name.split("/")
    for cand in (mirrors / f"{owner}+{name}" / "repo", mirrors / f"{owner}+{name}.git",
                 mirrors / f"{owner}+{name}", mirrors / f"{name}.git"):
        if (cand / "HEAD").is_file():
            return cand
    return None


def git(gd: Path, *args: str, env: dict | None = None, check: bool = True) -> str:
    p = subprocess.run(["git", f"--git-dir={gd}", *args], capture_output=True, text=True,
                       env={**os.environ, **(env or {})})
    if check and p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {p.stderr.strip()}")
    return p.stdout.strip() if p.returncode == 0 else ""


def has(gd: Path, spec: str) -> bool:
    return subprocess.run(["git", f"--git-dir={gd}", "cat-file", "-e", spec],
                          capture_output=True).returncode == 0


def pick_revision(gd: Path, rev: str, root: str | None) -> tuple[str, str]:
    """The pinned revision when the mirror has it; else HEAD when it has
    benchmark_root; else the newest branch that has it."""
    tree = f":{root}" if root else ""
    if has(gd, f"{rev}^{{commit}}"):
        return git(gd, "rev-parse", f"{rev}^{{commit}}"), "pinned"
    head = git(gd, "rev-parse", "HEAD^{commit}", check=False)
    if head and has(gd, f"{head}{tree}"):
        return head, "HEAD (pin missing)"
    refs = git(gd, "for-each-ref", "--sort=-committerdate", "--format=%(objectname) %(refname:short)",
               "refs/heads", "refs/remotes", "refs/tags").splitlines()
    for line in refs:
        sha, ref = line.split(" ", 1)
        if has(gd, f"{sha}^{{commit}}") and has(gd, f"{sha}{tree}"):
            return git(gd, "rev-parse", f"{sha}^{{commit}}"), f"{ref} (pin missing, newest branch with the root)"
    raise RuntimeError(f"no revision of {gd} has {root}")


def checkout(gd: Path, treeish: str, dest: Path) -> None:
    """The files of a tree into dest, through a private index file (the
    mirror is not written to; export-ignore attributes do not apply)."""
    tmp = dest.with_name(dest.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as td:
        env = {"GIT_INDEX_FILE": str(Path(td) / "index")}
        git(gd, "read-tree", treeish, env=env)
        git(gd, "checkout-index", "-a", f"--prefix={tmp}/", env=env)
    tmp.rename(dest)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", type=Path, required=True, help="directory of bare git mirrors")
    ap.add_argument("--root", type=Path, default=Path.home() / ".cache/vibe-bench/semble")
    args = ap.parse_args()
    root: Path = args.root
    sm = mirror_of(args.mirrors, SEMBLE)
    if sm is None:
        sys.exit(f"no mirror of {SEMBLE} under {args.mirrors}")
    bench = root / "bench"
    if not (bench / "repos.json").is_file():
        shutil.rmtree(bench, ignore_errors=True)
        bench.mkdir(parents=True)
        checkout(sm, f"{SEMBLE_REV}:benchmarks", bench / "benchmarks")
        checkout(sm, f"{SEMBLE_REV}:src/semble", bench / "semble")
        (bench / "REVISION").write_text(git(sm, "rev-parse", f"{SEMBLE_REV}^{{commit}}") + "\n")
        shutil.copy(bench / "benchmarks" / "repos.json", bench / "repos.json")
        shutil.copytree(bench / "benchmarks" / "annotations", bench / "annotations")
    specs = json.loads((bench / "repos.json").read_text())
    layout_file = root / "layout.json"
    layout = json.loads(layout_file.read_text()) if layout_file.is_file() else {}
    missing = []
    for s in specs:
        name = s["name"]
        if name in LEFT_OUT:
            continue
        dest = root / "repos" / name
        if dest.is_dir() and name in layout:
            continue
        gd = mirror_of(args.mirrors, slug(s["url"]))
        if gd is None:
            missing.append(slug(s["url"]))
            continue
        sha, why = pick_revision(gd, s["revision"], s.get("benchmark_root"))
        broot = s.get("benchmark_root")
        shutil.rmtree(dest, ignore_errors=True)
        dest.parent.mkdir(parents=True, exist_ok=True)
        checkout(gd, f"{sha}:{broot}" if broot else sha, dest)
        n = sum(len(f) for _, _, f in os.walk(dest))
        layout[name] = {"mirror": slug(s["url"]), "revision": sha, "pinned": s["revision"], "why": why,
                        "benchmark_root": broot, "files": n}
        layout_file.write_text(json.dumps(layout, indent=1) + "\n")
        print(f"{name:22} {sha[:10]} {why:45} {n:6} files", file=sys.stderr)
    if missing:
        print("no mirror of: " + " ".join(missing), file=sys.stderr)
        print("bring them with the sessions' fetch tool (github:OWNER/NAME) or `git clone --mirror "
              "https://github.com/OWNER/NAME OWNER+NAME.git` into the mirrors directory", file=sys.stderr)
        sys.exit(3)
    print(f"laid out {len(layout)} repositories under {root / 'repos'}", file=sys.stderr)


if __name__ == "__main__":
    main()
