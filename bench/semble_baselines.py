"""Their BM25 and ripgrep baselines (semble at bc2181c:
benchmarks/baselines/ablations.py mode `bm25`, benchmarks/baselines/ripgrep.py
fixed strings) re-run over the laid-out trees, with their own code: the
`semble` package and `benchmarks` of the fork, laid out under ROOT/bench by
semble_layout.py, in a venv holding their dependencies (bm25s,
chonkie[code]==1.6.2, vicinity, model2vec; bench/semble.sh makes it).

BM25 needs no embedding model, but SembleIndex.from_path embeds every chunk:
a stub encoder (zeros) stands in for potion-code-16M, which the `bm25` mode
never reads; chunking, tokenization, BM25 (bm25s) and chunk-level scoring
(metrics.target_rank: a chunk covers a target with a line span only when the
lines overlap) are theirs, unchanged.

    ROOT/venv/bin/python bench/semble_baselines.py --root ROOT --out ROOT/baselines.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np


class ZeroEncoder:
    """Stands in for the embedding model: the `bm25` mode never reads it."""

    def encode(self, texts, **_):
        return np.zeros((len(texts), 8), dtype=np.float32)


def checkout_path(path: str, tree: Path, benchmark_root: str | None) -> str:
    """rg's path of a file of the laid-out tree as it was in their checkout
    (~/.cache/semble-bench/NAME/BENCHMARK_ROOT/...)."""
    rel = Path(path).relative_to(tree).as_posix()
    return f"/semble-bench/{tree.name}/{benchmark_root}/{rel}" if benchmark_root else f"/semble-bench/{tree.name}/{rel}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--repo", action="append", default=[])
    args = ap.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root / "bench"))
    from benchmarks import data as bdata
    from benchmarks.metrics import file_rank, ndcg_at_k, target_rank
    from benchmarks.baselines.ripgrep import _run_ripgrep
    from semble import SembleIndex

    specs = {s.name: s for s in bdata.load_repo_specs(root / "bench" / "repos.json").values()
             if (root / "repos" / s.name).is_dir()}
    tasks = [t for t in bdata.load_tasks(repo_specs=specs) if not args.repo or t.repo in args.repo]
    out = {"bm25": {}, "ripgrep": {}}
    for repo, rtasks in sorted(bdata.grouped_tasks(tasks).items()):
        tree = root / "repos" / repo
        t0 = time.perf_counter()
        index = SembleIndex.from_path(tree, model=ZeroEncoder())
        index_s = time.perf_counter() - t0
        for method in ("bm25", "ripgrep"):
            by_cat = defaultdict(list)
            total = 0.0
            for task in rtasks:
                if method == "bm25":
                    results = index.search(task.query, top_k=10, mode="bm25", alpha=None)
                    ranks = [r for t in task.all_relevant if (r := target_rank(results, t)) is not None]
                else:
                    # rg prints paths under the tree it searched; theirs was the
                    # checkout's benchmark_root, so a path held it (matched by suffix).
                    files = [checkout_path(f, tree, specs[repo].benchmark_root)
                             for f in _run_ripgrep(task.query, tree, fixed_strings=True)]
                    ranks = [r for t in task.all_relevant if (r := file_rank(files, t.path)) is not None]
                s = ndcg_at_k(ranks, len(task.all_relevant), 10)
                total += s
                by_cat[task.category or "unknown"].append(s)
            out[method][repo] = {"ndcg10": total / len(rtasks), "language": specs[repo].language, "n": len(rtasks),
                                 **{c: sum(v) / len(v) for c, v in by_cat.items()}}
        print(f"{repo:22} bm25 {out['bm25'][repo]['ndcg10']:.3f}  ripgrep {out['ripgrep'][repo]['ndcg10']:.3f}  "
              f"({len(index.chunks)} chunks, {index_s:.1f} s)", file=sys.stderr)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    for m in out:
        v = [r["ndcg10"] for r in out[m].values()]
        print(f"{m}: {sum(v) / len(v):.4f} over {len(v)} repos", file=sys.stderr)


if __name__ == "__main__":
    main()
