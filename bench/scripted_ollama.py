"""A scripted Ollama-compatible server for benchmarks (no model needed).

  scripted_ollama.py --port P --answers FILE [--model NAME]

Answers `GET /`, `GET /api/tags` (lists the model) and `POST /api/generate`
(not streamed) as Ollama does. A file prompt (ingest/prompts/files.hbs) gets
the JSON the model is asked for, {"files": [{path, description, tags}]}, with
each listed file's description and tags taken from FILE (a JSON object:
path relative to the project -> {"description", "tags"}); a file FILE does
not list gets a plain English one naming it ("Source file a/b.py.", tag "b"). Any other prompt (the
warm-up, the project summary) gets a fixed sentence.
"""

from __future__ import annotations

import argparse
import json
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FILE_LINE = re.compile(r"^=== FILE (.+?)(?: \([^()]*\))? ===$", re.M)


def fallback(path: str) -> dict:
    stem = path.rsplit("/", 1)[-1].split(".")[0]
    return {"description": f"Source file {path}.", "tags": [stem.lower() or "file"]}


def handler(answers: dict, model: str):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

        def reply(self, body: dict) -> None:
            data = json.dumps(body, ensure_ascii=False).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == "/api/tags":
                self.reply({"models": [{"name": model, "model": model}]})
            else:
                data = b"Ollama is running"
                self.send_response(200)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            prompt = body.get("prompt", "")
            paths = FILE_LINE.findall(prompt)
            if paths:
                files = [{"path": p, **answers.get(p, fallback(p))} for p in paths]
                text = json.dumps({"files": files}, ensure_ascii=False)
            else:
                text = "A project indexed for a benchmark."
            self.reply({"model": model, "response": text, "done": True})

    return Handler


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--answers", required=True)
    ap.add_argument("--model", default="qwen2.5-coder:3b-instruct")
    args = ap.parse_args()
    answers = json.load(open(args.answers, encoding="utf-8"))
    ThreadingHTTPServer(("127.0.0.1", args.port), handler(answers, args.model)).serve_forever()


if __name__ == "__main__":
    main()
