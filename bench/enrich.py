"""Helpers of bench/enrich.sh (enrichment with a real model, issue 56).

  enrich.py subset --corpus DIR --questions FILE --files N --out DIR --set-out FILE
      A Python corpus of N files: every file a Python look-up of FILE expects,
      then others in a fixed order (by a hash of the path), copied to DIR; the
      look-ups whose files are in it go to --set-out.
  enrich.py report --run NAME=STDERR_FILE... [--concepts NAME=JSON...]
      The table of the runs' enrichment reports (the CLI's `LLM enrichment:`
      block), the extrapolation to qwen2.5-coder 3B, and the concept sets'
      hit@1 / hit@3 / MRR per run.
"""

import argparse
import hashlib
import json
import re
import shutil
from pathlib import Path

# Published llama.cpp `llama-bench` throughput of a 3B model at Q4_K_M
# (Llama-3.2-3B-Instruct, 3.21 B parameters; qwen2.5-coder 3B has 3.09 B),
# tokens per second: (prompt pp512, generation tg128, source).
PUBLISHED = {
    "laptop CPU (Intel i3-1315U, 2 threads)": (
        28.67, 11.05, "github.com/geerlingguy/sbc-reviews/issues/107"),
    "one GPU (AMD RX 580, Vulkan)": (
        346.76, 36.23, "github.com/geerlingguy/ai-benchmarks/issues/20"),
}


def subset(args: argparse.Namespace) -> None:
    corpus, out = args.corpus, args.out
    questions = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = [q for q in questions if q["lang"] == "python"]
    wanted = [e for q in questions for e in q["expected"] if (corpus / e).is_file()]
    others = sorted((str(p.relative_to(corpus)) for p in corpus.rglob("*.py") if p.is_file()),
                    key=lambda p: hashlib.blake2b(p.encode(), digest_size=8).hexdigest())
    chosen = list(dict.fromkeys(wanted))[: args.files]
    chosen += [p for p in others if p not in set(chosen)][: max(0, args.files - len(chosen))]
    for rel in chosen:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(corpus / rel, out / rel)
    kept = [q for q in questions if all(e in chosen for e in q["expected"])]
    args.set_out.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in kept), encoding="utf-8")
    print(f"python subset: {len(chosen)} files, {len(kept)} of {len(questions)} Python look-ups")


def parse_report(text: str) -> dict:
    """The numbers of one `LLM enrichment:` block."""
    head = re.search(r"LLM enrichment: (\d+) files enriched, (\d+) not enriched \(took ([\d.]+)s\)", text)
    if not head:
        raise SystemExit("no LLM enrichment report in:\n" + text[-2000:])
    r = {"enriched": int(head[1]), "not_enriched": int(head[2]), "seconds": float(head[3])}
    answers = re.search(r"answers: (\d+) valid JSON, (\d+) repaired, (\d+) not JSON(?:; (\d+) missed)?", text)
    r["valid"], r["repaired"], r["invalid"] = (int(answers[i]) for i in (1, 2, 3)) if answers else (0, 0, 0)
    r["missed"] = int(answers[4] or 0) if answers else 0
    hosts = re.findall(r"(\d+) requests(?:, (\d+) retries)?(?:, (\d+) prompt \+ (\d+) generated tokens)?", text)
    r["requests"] = sum(int(h[0]) for h in hosts)
    r["prompt_tokens"] = sum(int(h[2] or 0) for h in hosts)
    r["generated_tokens"] = sum(int(h[3] or 0) for h in hosts)
    r["why"] = re.findall(r"not enriched, (\d+ files \(.*?\))", text)
    stopped = re.search(r"^error: .*?(no model host is left: .{0,160})", text, re.M)
    if stopped:
        r["why"].append("the run stopped: " + stopped[1] + "…")
    return r


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "-"


def print_runs(runs: dict[str, dict]) -> None:
    cols = ["run", "files", "requests", "s/file", "s/1k prompt tok", "prompt tok/file", "gen tok/file",
            "valid JSON", "repaired", "not JSON", "missed files", "not enriched"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for name, r in runs.items():
        files = r["enriched"] + r["not_enriched"]
        answers = r["valid"] + r["repaired"] + r["invalid"]
        k_prompt = r["prompt_tokens"] / 1000 or float("nan")
        print(f"| {name} | {files} | {r['requests']} | {r['seconds'] / max(files, 1):.2f} | "
              f"{r['seconds'] / k_prompt:.2f} | {r['prompt_tokens'] / max(files, 1):.0f} | "
              f"{r['generated_tokens'] / max(files, 1):.0f} | {pct(r['valid'], answers)} | "
              f"{pct(r['repaired'], answers)} | {pct(r['invalid'], answers)} | {r['missed']} | "
              f"{r['not_enriched']} ({pct(r['not_enriched'], files)}) |")
    for name, r in runs.items():
        for why in r["why"]:
            print(f"  {name}: not enriched, {why}")


def print_extrapolation(r: dict) -> None:
    files = r["enriched"] + r["not_enriched"]
    prompt, generated = r["prompt_tokens"] / max(files, 1), r["generated_tokens"] / max(files, 1)
    print()
    print(f"qwen2.5-coder 3B (Q4_K_M), per 1,000 files, from the tokens per file measured here "
          f"({prompt:.0f} prompt + {generated:.0f} generated; SmolLM2's tokenizer, retries included) "
          "and published llama.cpp throughput of a 3B Q4_K_M model:")
    print("| where | prompt t/s | generation t/s | hours per 1,000 files | source |")
    print("|---|---|---|---|---|")
    for where, (pp, tg, source) in PUBLISHED.items():
        hours = 1000 * (prompt / pp + generated / tg) / 3600
        print(f"| {where} | {pp:g} | {tg:g} | {hours:.1f} | {source} |")


def concept_rows(path: Path) -> dict[str, tuple[int, float, float, float]]:
    """Per scope: (n, hit@1, hit@3, MRR) over every look-up."""
    results = json.loads(path.read_text(encoding="utf-8"))
    rows = {}
    for scope, qs in results.items():
        for lang in sorted({q["lang"] for q in qs}) + ["all"]:
            sel = [q for q in qs if lang in ("all", q["lang"])]
            n = len(sel)
            hit1 = sum(1 for q in sel if q["rank3"] == 1) / n
            hit3 = sum(1 for q in sel if q["rank3"] and q["rank3"] <= 3) / n
            mrr = sum(1 / q["rank10"] for q in sel if q["rank10"]) / n
            rows[f"{scope} {lang}"] = (n, hit1, hit3, mrr)
    return rows


def print_concepts(named: list[tuple[str, Path]]) -> None:
    tables = {name: concept_rows(path) for name, path in named}
    keys = list(next(iter(tables.values())))
    print()
    print("concept look-ups (questions in words): hit@1 / hit@3 / MRR")
    print("| set | n | " + " | ".join(tables) + " |")
    print("|---|---|" + "---|" * len(tables))
    for key in keys:
        n = next(iter(tables.values()))[key][0]
        cells = [f"{t[key][1]:.2f} / {t[key][2]:.2f} / {t[key][3]:.2f}" for t in tables.values()]
        print(f"| {key} | {n} | " + " | ".join(cells) + " |")


def report(args: argparse.Namespace) -> None:
    runs = {}
    for item in args.run:
        name, path = item.split("=", 1)
        runs[name] = parse_report(Path(path).read_text(encoding="utf-8", errors="replace"))
    print_runs(runs)
    print_extrapolation(runs[args.extrapolate] if args.extrapolate else next(iter(runs.values())))
    if args.concepts:
        print_concepts([(n, Path(p)) for n, p in (c.split("=", 1) for c in args.concepts)])


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("subset")
    s.add_argument("--corpus", type=Path, required=True)
    s.add_argument("--questions", type=Path, required=True)
    s.add_argument("--files", type=int, required=True)
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--set-out", type=Path, required=True)
    r = sub.add_parser("report")
    r.add_argument("--run", nargs="+", required=True)
    r.add_argument("--extrapolate")
    r.add_argument("--concepts", nargs="*")
    args = ap.parse_args()
    subset(args) if args.cmd == "subset" else report(args)


if __name__ == "__main__":
    main()
