"""Regenerate the TRL logged-completions fixtures: one step-40 table written the way TRL >= 0.28
writes it (pandas DataFrame.to_parquet, pyarrow engine, Snappy), plus the same table as JSONL
(pandas to_json, NaN -> null) and CSV (pandas to_csv, NaN -> empty), and two codec variants.

Run from the repository root with pandas and pyarrow installed (not project dependencies):
    python3 src/io/__fixtures__/trl/make_fixtures.py
Output is byte-for-byte stable for a given pyarrow/pandas version (pyarrow 25.0.1, pandas 3.0.6).
"""

import math
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent


def chat(text: str) -> str:
    """The chat-template text TRL logs as the prompt (special tokens kept by Qwen's template)."""
    return f"<|im_start|>user\n{text}<|im_end|>\n<|im_start|>assistant\n"


MATH = chat("What is 7*6? Put the answer in <answer></answer>.")
CAPITAL = chat("What is the capital of Australia? Answer in <answer></answer>.")
HAIKU = chat("Write a haiku about gradient descent.")

# One generation batch of 3 prompts x 3 completions. TRL keeps a prompt's rows together; the
# second math row is moved after the capital rows so the fixture also covers a shuffled table.
ROWS = [
    (MATH, "<think>7*6 = 42</think><answer>42</answer>", 1.0, 2.0, "42"),
    (CAPITAL, "<answer>Sydney</answer>", 1.0, 0.0, "Canberra"),
    (CAPITAL, "<think>Not Sydney.</think><answer>Canberra</answer>", 1.0, 2.0, "Canberra"),
    (MATH, "42", 0.0, 2.0, "42"),
    (CAPITAL, "Canberra, I think.", 0.0, 0.0, "Canberra"),
    (MATH, "<answer>41</answer>", 1.0, 0.0, "42"),
    # correctness_reward returns None for prompts it cannot judge: TRL stores NaN.
    (HAIKU, "Loss slopes downhill,\nsmall steps through the foggy vale,\nminimum at dawn.", 0.0, None, None),
    (HAIKU, "<answer>Steps fall, loss declines</answer>", 1.0, None, None),
    (HAIKU, "gradient descent", 0.0, None, None),
]


def advantages(rows):
    """GRPO 'group' advantages as TRL computes them: nansum over reward functions, then
    (r - mean) / (std + 1e-4) per prompt, std with Bessel's correction."""
    totals = [fmt + (0.0 if corr is None else corr) for _, _, fmt, corr, _ in rows]
    out = []
    for i, (prompt, *_rest) in enumerate(rows):
        group = [t for (p, *_r), t in zip(rows, totals) if p == prompt]
        mean = sum(group) / len(group)
        std = math.sqrt(sum((t - mean) ** 2 for t in group) / (len(group) - 1))
        out.append(round((totals[i] - mean) / (std + 1e-4), 6))
    return out


def table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "step": [40] * len(ROWS),
            "prompt": [r[0] for r in ROWS],
            "completion": [r[1] for r in ROWS],
            "format_reward": [r[2] for r in ROWS],
            "correctness_reward": [float("nan") if r[3] is None else r[3] for r in ROWS],
            "solution": [r[4] for r in ROWS],
            "advantage": advantages(ROWS),
        }
    )


def main() -> None:
    df = table()
    df.to_parquet(HERE / "completions_00040.parquet", index=False)
    df.to_json(HERE / "completions-jsonl.jsonl", orient="records", lines=True)
    df.to_csv(HERE / "completions-csv.csv", index=False)
    df.to_parquet(HERE / "codecs" / "gzip-row-groups.parquet", index=False, compression="gzip", row_group_size=4)
    df.to_parquet(HERE / "codecs" / "zstd.parquet", index=False, compression="zstd")


if __name__ == "__main__":
    main()
