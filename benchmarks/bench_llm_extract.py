"""Prompt and completion tokens per turn of LLM extraction, through the real client and write path.

    python benchmarks/bench_llm_extract.py                        # tests/extraction/test and dev, a few seconds
    python benchmarks/bench_llm_extract.py --path tests/scenarios --json

Every ``say``/``reply``/``tool`` step of the scenario files is one ``add(...,
wait=True)`` of one turn (as ``kenning eval`` runs them), so one extraction
call per turn. The model is a scripted OpenAI-compatible server on 127.0.0.1
(``tests/unit/scripted_server.py``): no model runs here, so

- prompt tokens are those of the real prompts Kenning builds (instructions
  and schema, the scope's nearest memories, the turn), and
- completion tokens are those of a stand-in answer: for a user turn one
  claim per clause ("User " + the clause, every schema field filled), for an
  assistant or tool turn no claim. A real model writes claims of about that
  length; it may write more or fewer of them.

Tokens are counted two ways: the server's ``usage`` at four characters a
token (the usual rule of thumb for GPT-style tokenizers on English; the
client's ``OpenAIChat.usage`` adds these up, which this script checks), and
with the bundled MiniLM WordPiece tokenizer as a second, real tokenizer.
The deterministic hashing embedder picks the neighbours (how many are shown
matters, not which), so nothing is downloaded or loaded.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import kenning  # noqa: E402
from kenning.config import Settings  # noqa: E402
from kenning.embedders.hashing import HashEmbedder  # noqa: E402
from kenning.embedders.minilm import TOKENIZER  # noqa: E402
from kenning.evals.scenario import load_path  # noqa: E402
from kenning.llms import OpenAIChat  # noqa: E402
from kenning.llms.extract_prompt import system_prompt  # noqa: E402
from tests.unit.scripted_server import Script, rough_tokens, serve  # noqa: E402

_CLAUSE = re.compile(r"(?<=[.!?;])\s+|,\s+(?:and\s+)?(?=i\b|i'm\b|im\b|my\b|we\b)", re.I)


def stand_in(body: dict) -> str:
    """A plausible answer for the last turn of the prompt: one claim per user clause."""
    prompt = body["messages"][1]["content"]
    turns = re.findall(r"^Turn (\d+) \((\w+)[^)]*\): (\".*\")$", prompt, re.M)
    claims = []
    for number, role, quoted in turns:
        if role != "user":
            continue
        for clause in _CLAUSE.split(json.loads(quoted)):
            clause = clause.strip(" .!?")
            if len(clause.split()) >= 3:
                claims.append({"turn": int(number), "text": f"User {clause}.", "subject": "user", "kind": "fact",
                               "importance": 0.6, "confidence": 0.9, "hedge": False, "op": "ADD", "target": None})
    return json.dumps({"claims": claims})


def run(paths: list[str]) -> dict:
    from tokenizers import Tokenizer

    wordpiece = Tokenizer.from_file(str(TOKENIZER))
    wordpiece.no_truncation()
    wordpiece.no_padding()

    def wp(text: str) -> int:
        return len(wordpiece.encode(text, add_special_tokens=False).ids)

    script = Script()
    script.default = ("content", stand_in)
    rows: list[dict] = []
    with serve(script) as url, tempfile.TemporaryDirectory() as tmp:
        llm = OpenAIChat(url, "stand-in", timeout_s=10.0)
        settings = Settings.model_construct(llm_retries=0)
        k = kenning.open(f"sqlite:///{tmp}/bench.db", embedder=HashEmbedder(), llm=llm, settings=settings)
        scenarios = [s for p in paths for s in load_path(ROOT / p)]
        for n, sc in enumerate(scenarios):
            for step in sc.steps:
                if step.kind not in ("say", "reply", "tool"):
                    continue
                role = {"say": "user", "reply": "assistant", "tool": "tool"}[step.kind]
                msg = {"role": role, "content": step.arg} if role != "tool" else {"role": "tool", **step.arg}
                before = len(script.requests)
                k.scope(f"bench{n}", sc.user).add([msg], session_id=step.session, now=step.at, wait=True)
                for body in script.requests[before:]:
                    answer = stand_in(body)
                    text = "".join(m["content"] for m in body["messages"])
                    rows.append({"role": role, "prompt": script.usage(body, answer)["prompt_tokens"],
                                 "completion": rough_tokens(answer), "prompt_wp": wp(text), "completion_wp": wp(answer),
                                 "shown": len(re.findall(r"^\d+\. \[", body["messages"][1]["content"], re.M))})
        k.close()
        assert llm.usage.calls == len(rows), (llm.usage, len(rows))
        assert llm.usage.prompt_tokens == sum(r["prompt"] for r in rows)
        assert llm.usage.completion_tokens == sum(r["completion"] for r in rows)
        llm.close()
    return {"scenarios": len(scenarios), "rows": rows, "system_prompt_tokens": rough_tokens(system_prompt()),
            "system_prompt_wordpiece": wp(system_prompt())}


def summarise(result: dict) -> None:
    rows = result["rows"]
    print(f"{result['scenarios']} scenarios, {len(rows)} turns (one extraction call each)")
    print(f"system prompt + schema alone: {result['system_prompt_tokens']} tokens (chars/4), "
          f"{result['system_prompt_wordpiece']} WordPiece")
    print(f"{'turns':<10}{'n':>5}{'prompt mean':>13}{'p50':>7}{'p95':>7}{'completion mean':>17}{'p95':>7}"
          f"{'prompt WP':>11}{'compl. WP':>11}{'shown':>7}")
    for label, sel in [("all", rows), *((r, [x for x in rows if x["role"] == r]) for r in ("user", "assistant", "tool"))]:
        if not sel:
            continue
        p = np.array([x["prompt"] for x in sel])
        c = np.array([x["completion"] for x in sel])
        print(f"{label:<10}{len(sel):>5}{p.mean():>13.0f}{np.percentile(p, 50):>7.0f}{np.percentile(p, 95):>7.0f}"
              f"{c.mean():>17.0f}{np.percentile(c, 95):>7.0f}{np.mean([x['prompt_wp'] for x in sel]):>11.0f}"
              f"{np.mean([x['completion_wp'] for x in sel]):>11.0f}{np.mean([x['shown'] for x in sel]):>7.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--path", action="append", help="scenario file or folder (repeatable); default: tests/extraction/test and dev")
    ap.add_argument("--json", action="store_true", help="print every turn's figures as JSON too")
    args = ap.parse_args()
    result = run(args.path or ["tests/extraction/test", "tests/extraction/dev"])
    summarise(result)
    if args.json:
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
