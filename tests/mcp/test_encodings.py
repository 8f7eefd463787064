"""Files in a legacy encoding are indexed and found (issue 58), end to end:
the real binary indexes a project of Windows-1251, Latin-1, GBK and
Shift_JIS Python files and a UTF-16 C# file with a BOM (as Windows editors
write them) beside a binary file, into the real OpenSearch, and the Python
MCP SDK finds each function by its name and each comment by its words, with
the decoded file's lines and text."""

from __future__ import annotations

import subprocess

import pytest
from conftest import call_text as call, serve_sources

PREFIX = "encodings"

FILES = {
    "discount.py": ("# Расчёт скидки для постоянного покупателя\ndef loyalty_discount(years):\n    return min(years * 0.02, 0.2)\n", "cp1251"),
    "remise.py": ("# Calcul de la remise à partir de l'année prochaine\ndef remise_annuelle(ans):\n    return ans * 0.01\n", "latin-1"),
    "Calculator.cs": ("// Калькулятор\npublic class Calculator {\n    public int Multiply(int a, int b) { return a * b; }\n}\n", "utf-16"),
    "zhekou.py": ("# 计算折扣\ndef jisuan_zhekou(nian):\n    return nian * 2\n", "gbk"),
    "waribiki.py": ("# 割引を計算する\ndef keisan_waribiki(nen):\n    return nen * 3\n", "shift_jis"),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("encodings")
    project = root / "legacy"
    project.mkdir()
    for name, (text, encoding) in FILES.items():
        (project / name).write_bytes(text.encode(encoding))
    (project / "table.dat").write_bytes(bytes(range(256)) * 4)
    with serve_sources(root / "config", PREFIX, [project]) as gw:
        yield gw


@pytest.mark.anyio
@pytest.mark.parametrize(
    "name,path,line",
    [
        ("loyalty_discount", "discount.py", 2),
        ("remise_annuelle", "remise.py", 2),
        ("Multiply", "Calculator.cs", 3),
        ("jisuan_zhekou", "zhekou.py", 2),
        ("keisan_waribiki", "waribiki.py", 2),
    ],
)
async def test_each_function_is_found_by_its_name(served, name, path, line):
    _, answer = await call(served.url, "search_by_code_functions", {"query": name})
    assert answer["results"] and answer["results"][0]["path"] == path, answer
    assert answer["results"][0]["matches"][0]["lines"].split("-")[0] == str(line), "the decoded file's lines"


@pytest.mark.anyio
@pytest.mark.parametrize("word,path", [("Расчёт", "discount.py"), ("Калькулятор", "Calculator.cs"), ("割引", "waribiki.py")])
async def test_a_comment_is_found_by_its_words_as_written(served, word, path):
    text, answer = await call(served.url, "search_code_text", {"query": word})
    assert [r["path"] for r in answer["results"]] == [path], answer
    assert word in text, text


@pytest.mark.anyio
async def test_a_file_reads_as_decoded_text(served):
    text, _ = await call(served.url, "get_file_content", {"path": "discount.py"})
    assert "# Расчёт скидки для постоянного покупателя" in text, text


def test_the_scan_report_counts_files_by_encoding(served):
    done = subprocess.run(
        [str(served.bin), "--config-dir", str(served.config_dir), "scan", "index", "--no-llm", "--force"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = done.stderr + done.stdout
    want = "skipped 1 (binary: 1), decoded 5 (gbk: 1, shift_jis: 1, utf-16le: 1, windows-1251: 1, windows-1252: 1)"
    assert want in report, report
    assert "Files: 6 (1 skipped: binary 1)" in report, report
