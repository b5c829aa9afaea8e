"""Records what CPython's `json.loads` answers for each text of `python_loads.json`.

    python3.13 record_python.py

rewrites `python_loads.json` as a list of `[text, answer]`, where the answer is `null` when
the text loads and otherwise the `str()` of the exception (`json.JSONDecodeError` or the
`ValueError` of an over-long integer). `src/python/tests.rs` compares `python_loads` with it.
Texts are added by editing the file's first elements; the answers are never edited by hand.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILE = HERE / "python_loads.json"

if sys.version_info[:2] != (3, 13):
    sys.exit("record with CPython 3.13 (Chrys's oracle runs on it)")
cases = json.loads(FILE.read_text(encoding="utf-8"))
out = []
for text, _ in cases:
    try:
        json.loads(text)
        answer = None
    except ValueError as e:  # JSONDecodeError is a ValueError
        answer = str(e)
    out.append([text, answer])
FILE.write_text(
    "[\n" + ",\n".join(json.dumps(c, ensure_ascii=True) for c in out) + "\n]\n",
    encoding="utf-8",
)
