"""A mixed workload through the public API, run as its own process by the reliability tests.

    python tests/integration/_workload.py SPACE SEED OPS [--forever]

Deterministic for a seed: episodes, structured writes by several agents on a few keys (updates,
corroborations, recency and authority disputes), derived claims, retract/restore of evidence, an
attack graph grounded in Cypher. Typed errors that the API documents for a given state (retracting
what is already retracted, a premise that no longer holds, a database that went away) are counted
and the workload goes on; anything else ends the process with a traceback (a test failure). Prints
``ready`` once connected, then one line per 10 operations, then ``done <ops> <typed errors>``.
"""

from __future__ import annotations

import random
import sys
import time

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.errors import BeliefGraphError, DatabaseError, ValidationError

KEYS = ["user.city", "user.pet", "user.tz", "project.status", "project.owner"]
AGENTS = ["user:ana", "agent:bot", "agent:hr"]


def main() -> None:
    space, seed, ops = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    forever = "--forever" in sys.argv
    rng = random.Random(seed)
    typed: dict[str, int] = {}
    with BeliefGraph.connect(space=space, embedder=HashingEmbedder(384)) as bg:
        bg.conflicts.set_policy("user.pet", "authority")
        bg.conflicts.set_authority("agent:hr", "user.*", 0.9)
        episodes: list[str] = []
        claims: list[str] = []
        print("ready", flush=True)
        i = 0
        while forever or i < ops:
            i += 1
            op = rng.choice(["episode", "assert", "assert", "assert", "derive", "retract", "restore", "attacks"])
            try:
                if op == "episode" or not episodes:
                    episodes.append(bg.add_episode(f"episode {seed}-{i} about the plan", agent=rng.choice(AGENTS)).id)
                elif op == "assert":
                    key = rng.choice(KEYS)
                    ev = [rng.choice(episodes)] if rng.random() < 0.5 else []
                    r = bg.assert_claim(
                        key,
                        f"v{rng.randrange(4)}",
                        f"{key} is value {rng.randrange(4)} ({seed}-{i})",
                        agent=rng.choice(AGENTS),
                        evidence=ev,
                    )
                    claims.append(r.claim.id)
                elif op == "derive" and claims:
                    c = bg.belief(rng.choice(KEYS))
                    if c is not None:
                        key = rng.choice([None, "derived.summary"])
                        bg.derive(f"conclusion {seed}-{i} from {c.key}", [c.id], key, agent="agent:bot")
                elif op == "retract":
                    bg.retract([rng.choice(episodes)], f"wrong ({seed}-{i})")
                elif op == "restore":
                    bg.restore([rng.choice(episodes)], f"right after all ({seed}-{i})")
                elif op == "attacks":
                    names = [f"a{j}" for j in range(rng.randrange(2, 8))]
                    attacks = [(rng.choice(names), rng.choice(names)) for _ in range(len(names))]
                    bg.argumentation.store_attacks(f"w:{seed}", names, list(dict.fromkeys(attacks)))
                    bg.argumentation.ground(f"w:{seed}")
            except (ValidationError, DatabaseError) as exc:
                typed[type(exc).__name__] = typed.get(type(exc).__name__, 0) + 1
                if isinstance(exc, DatabaseError):
                    print(f"error {type(exc).__name__}: {str(exc)[:200]}", flush=True)
                    time.sleep(0.5)
            except BeliefGraphError as exc:  # NotFoundError etc.: documented, typed
                typed[type(exc).__name__] = typed.get(type(exc).__name__, 0) + 1
            if i % 10 == 0:
                print(f"ops {i}", flush=True)
    print(f"done {i} {sum(typed.values())} {typed}", flush=True)


if __name__ == "__main__":
    main()
