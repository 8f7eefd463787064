"""The corpus of bench/relevance.py: a deterministic subset of each project
(at most --cap source files, chosen by a hash of the relative path), with
local fallbacks for the corpora bench/corpora.sh did not fetch."""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

log = lambda *a: print("[relevance]", *a, file=sys.stderr, flush=True)  # noqa: E731

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
}
ALL_EXT = tuple(e for exts in LANG_EXT.values() for e in exts)
DEFAULT_LANGS = ("python", "java", "javascript", "go", "rust")
# The scanner never descends into these (ingest/src/scanner/walk.rs); a copy
# renames them (`node_modules` -> `node_modules_`) so that npm's bundled code
# stays in the corpus.
EXCLUDED_DIRS = {"target", "node_modules", "__pycache__", ".venv", "venv", ".git", ".idea"}
MAX_FILE_BYTES = 512 * 1024


# ---------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------


def java_fallback(cache: Path) -> Path | None:
    """Sources jars from Maven Central (mvn dependency:copy), unpacked once."""
    dst = cache / "java"
    if dst.is_dir() and any(dst.iterdir()):
        return dst
    if not shutil.which("mvn"):
        return None
    jars = cache / "java-jars"
    jars.mkdir(parents=True, exist_ok=True)
    for art in ("org.apache.commons:commons-lang3:3.12.0", "org.apache.commons:commons-collections4:4.4",
                "com.google.guava:guava:32.1.3-jre"):
        log(f"fetching {art} sources with mvn")
        r = subprocess.run(["mvn", "-q", "-B", "dependency:copy", f"-Dartifact={art}:jar:sources",
                            f"-DoutputDirectory={jars}"], cwd=cache, capture_output=True, text=True)
        if r.returncode != 0:
            log(f"mvn failed for {art}: {r.stdout[-500:]}{r.stderr[-500:]}")
    tmp = cache / "java.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for jar in sorted(jars.glob("*-sources.jar")):
        with zipfile.ZipFile(jar) as z:
            z.extractall(tmp / jar.name.removesuffix("-sources.jar"))
    if not tmp.is_dir():
        return None
    tmp.rename(dst)
    return dst


# Crates that are mostly generated bindings (thousands of constants a file).
GENERATED_CRATES = re.compile(r"(windows|linux-raw-sys|libc|web-sys|js-sys|winapi)")


def rust_fallback(cache: Path) -> Path | None:
    """The newest version of each crate in ~/.cargo/registry/src (symlinked)."""
    regs = sorted((Path.home() / ".cargo/registry/src").glob("*/"))
    if not regs:
        return None
    newest: dict[str, Path] = {}
    for reg in regs:
        for d in sorted(reg.iterdir(), key=lambda p: p.name):
            name = d.name.rsplit("-", 1)[0] if "-" in d.name else d.name
            if GENERATED_CRATES.match(name):
                continue
            newest[name] = d  # sorted: the last is the (lexically) newest
    dst = cache / "rust-crates"
    shutil.rmtree(dst, ignore_errors=True)
    dst.mkdir(parents=True)
    for name, d in sorted(newest.items()):
        (dst / d.name).symlink_to(d)
    return dst


def default_projects(cache: Path) -> list[tuple[str, Path, str | None]]:
    corpora = Path(os.environ.get("VIBE_CORPORA", Path.home() / ".cache/vibe-bench/corpora"))
    out = []
    for lang in DEFAULT_LANGS:
        d = corpora / lang
        origin = corpora / f"{lang}.origin"  # bench/corpora.sh writes it once the corpus is complete
        if d.is_dir() and origin.is_file():
            log(f"{lang}: {d} ({origin.read_text(errors='replace').strip().splitlines()[0][:120]})")
            out.append((lang, d, lang))
            continue
        if d.is_dir():
            log(f"{d} has no {origin.name} (incomplete?): using a local fallback")
        src: Path | None = None
        if lang == "python":
            import sysconfig
            src = Path(sysconfig.get_paths()["stdlib"])
        elif lang == "go":
            goroot = subprocess.run(["go", "env", "GOROOT"], capture_output=True, text=True).stdout.strip() if shutil.which("go") else ""
            src = Path(goroot or "/usr/local/go") / "src"
        elif lang == "javascript":
            root = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True).stdout.strip() if shutil.which("npm") else ""
            src = Path(root or "/usr/lib/node_modules") / "npm"
        elif lang == "rust":
            src = rust_fallback(cache)
        elif lang == "java":
            src = java_fallback(cache)
        if src is not None and src.is_dir():
            log(f"{corpora / lang} missing: using {src}")
            out.append((lang, src, lang))
        else:
            log(f"{corpora / lang} missing and no local fallback: skipped")
    return out


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


def cmd_corpus(args: argparse.Namespace) -> None:
    cache = Path(os.environ.get("RELEVANCE_CACHE", Path.home() / ".cache/vibe-bench/relevance"))
    cache.mkdir(parents=True, exist_ok=True)
    if args.projects:
        projects = [(Path(p).name, Path(p), Path(p).name if Path(p).name in LANG_EXT else None) for p in args.projects]
    elif os.environ.get("RELEVANCE_PROJECTS", "").strip():
        projects = [(Path(p).name, Path(p), Path(p).name if Path(p).name in LANG_EXT else None)
                    for p in os.environ["RELEVANCE_PROJECTS"].split()]
    else:
        projects = default_projects(cache)
    args.out.mkdir(parents=True, exist_ok=True)
    seen: Counter[str] = Counter()
    total = 0
    for name, src, lang in projects:
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
    if not 2500 <= total <= 4000:
        log(f"note: {total} files in all (the benchmark aims at 2,500-4,000)")
