"""The corpora of bench/relevance.py, references.py and text_search.py: a
deterministic subset of each project (at most --cap source files, chosen by a
hash of the relative path). The projects are bench/corpora.sh's corpora (the
one corpus builder; a missing one is built by it) or the directories given.

    python3 bench/relevance_corpus.py corpus --out DIR [--cap N] [PROJECT...]

does what `relevance.py corpus` does (the same defaults)."""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from benchlib import BENCH, logger

log = logger("corpus")

# Source extensions per corpus language (the directory names of bench/corpora.sh).
LANG_EXT = {
    "python": (".py",),
    "java": (".java",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "go": (".go",),
    "rust": (".rs",),
    "kotlin": (".kt", ".kts"),
    "bash": (".sh", ".bash"),
    "csharp": (".cs",),
    "scala": (".scala", ".sc"),
    "haskell": (".hs",),
    "zig": (".zig",),
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".h"),
    "php": (".php",),
    "ruby": (".rb", ".rake"),
    "lua": (".lua",),
    "elixir": (".ex", ".exs"),
}
ALL_EXT = tuple(e for exts in LANG_EXT.values() for e in exts)
# The scanner never descends into these (ingest/src/scanner/walk.rs); a copy
# renames them (`node_modules` -> `node_modules_`) so that npm's bundled code
# stays in the corpus.
EXCLUDED_DIRS = {"target", "node_modules", "__pycache__", ".venv", "venv", ".git", ".idea"}
MAX_FILE_BYTES = 512 * 1024


# ---------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------


def corpora_dir() -> Path:
    return Path(os.environ.get("VIBE_CORPORA", Path.home() / ".cache/vibe-bench/corpora"))


def corpus(lang: str) -> Path | None:
    """bench/corpora.sh's corpus of the language, built by it when missing
    (complete once its <lang>.origin exists); None when it cannot be built."""
    d, origin = corpora_dir() / lang, corpora_dir() / f"{lang}.origin"
    if not (d.is_dir() and origin.is_file()):
        log(f"{d} missing: bash bench/corpora.sh {lang}")
        r = subprocess.run(["bash", str(BENCH / "corpora.sh"), lang], stdout=sys.stderr)
        if r.returncode != 0 or not origin.is_file():
            log(f"{lang}: bench/corpora.sh failed (exit {r.returncode}): skipped")
            return None
    log(f"{lang}: {d} ({origin.read_text(errors='replace').strip().splitlines()[0][:120]})")
    return d


def source_files(src: Path, exts: tuple[str, ...]) -> list[str]:
    """Relative paths of the source files under src (symlinks followed at the
    top level only, hidden dirs, testdata and site-packages skipped)."""
    files = []
    for dirpath, dirnames, filenames in os.walk(src, followlinks=True):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("site-packages", "testdata", "__pycache__")]
        for f in filenames:
            if not f.endswith(exts) or f.endswith(".min.js"):
                continue
            p = Path(dirpath) / f
            try:
                if not p.is_file() or p.stat().st_size > MAX_FILE_BYTES:
                    continue
            except OSError:
                continue
            files.append(str(p.relative_to(src)))
    return files


def copy_subset(src: Path, dst: Path, exts: tuple[str, ...], cap: int) -> int:
    files = sorted(source_files(src, exts), key=lambda r: (hashlib.sha1(r.encode()).hexdigest(), r))
    if cap > 0:
        files = files[:cap]
    for rel in files:
        parts = [p + "_" if p in EXCLUDED_DIRS else p for p in Path(rel).parts]
        out = dst.joinpath(*parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, out)
    return len(files)


def projects(args: argparse.Namespace) -> list[tuple[str, Path, str | None]]:
    """(name, source, language or None) of the projects to copy: the
    arguments, else $<projects_env> (a list of directories), else the
    corpora of $<langs_env> (default: the parser's languages)."""
    listed = args.projects or os.environ.get(args.projects_env or "", "").split()
    if listed:
        return [(Path(p).name, Path(p), Path(p).name if Path(p).name in LANG_EXT else None) for p in listed]
    langs = os.environ.get(args.langs_env, "").split() or args.langs
    return [(lang, d, lang) for lang in langs if (d := corpus(lang)) is not None]


def cmd_corpus(args: argparse.Namespace) -> None:
    """Copies the subsets to args.out/<name>/ and prints the copies, one a line."""
    args.out.mkdir(parents=True, exist_ok=True)
    seen: Counter[str] = Counter()
    total = 0
    for name, src, lang in projects(args):
        if not src.is_dir():
            sys.exit(f"not a directory: {src}")
        seen[name] += 1
        if seen[name] > 1:
            name = f"{name}-{seen[name]}"
        exts = LANG_EXT[lang] if lang else ALL_EXT
        dst = args.out / name
        n = copy_subset(src, dst, exts, args.cap)
        total += n
        log(f"{name}: {n} files from {src}")
        print(dst)
    log(f"{total} files in all")


# relevance.py's corpus: $RELEVANCE_CAP files of each of $RELEVANCE_LANGS, or of $RELEVANCE_PROJECTS.
RELEVANCE = {"cap_env": "RELEVANCE_CAP", "cap": 700, "langs_env": "RELEVANCE_LANGS",
             "langs": ("python", "java", "javascript", "go", "rust"), "projects_env": "RELEVANCE_PROJECTS"}


def add_corpus_parser(sub, cap_env: str, cap: int, langs_env: str, langs: tuple[str, ...], projects_env: str | None = None):
    """The `corpus` subcommand of a bench script: --out DIR [--cap N] [PROJECT...]."""
    c = sub.add_parser("corpus", help="copy a deterministic subset of each project")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--cap", type=int, default=int(os.environ.get(cap_env, str(cap))))
    c.add_argument("projects", nargs="*")
    c.set_defaults(langs=list(langs), langs_env=langs_env, projects_env=projects_env)
    return c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_parser(ap.add_subparsers(dest="cmd", required=True), **RELEVANCE)
    cmd_corpus(ap.parse_args())


if __name__ == "__main__":
    main()
