"""The one error tree of belief_graph.

Every error raised on purpose by the library is a :class:`BeliefGraphError`. Leaves carry
structured fields so callers can react without parsing messages, and ``str(err)`` is one line
that says what went wrong and what to do about it (the CLI prints exactly that line).

::

    BeliefGraphError
    ├── ConfigurationError          malformed settings, bad environment variable values
    ├── ValidationError             bad input to an API call (nothing was written)
    │   ├── EmbeddingDimensionError vector length differs from settings.embedding.dimension
    │   ├── UnknownAgent(agent)     strict agents: the writer was never registered
    │   ├── DerivedKeyConflict(key, rule)  a direct write to a key that a derivation rule derives
    │   ├── MergeRefused(source, into)  ``bg.keys.merge`` cannot merge these keys (nothing was written)
    │   │   ├── MergeSameKey            source and target are one fact
    │   │   ├── MergeSourceIsAlias(target)  the source was already merged into another key
    │   │   ├── MergeDerivedKey(key, rule)  an active derivation rule derives one of the keys
    │   │   └── MergeTypeMismatch(source_type, into_type)  the two facts hold values of different types
    │   ├── KeySchemaError(problems)    a malformed key schema (keys, types, duplicates, size)
    │   ├── KeyTypeConflict(key, declared, stored)  a declared type differs from the values stored
    │   ├── FormatError(path, line, expected)  a malformed input file (ICCMA, perspectives, replay)
    │   │   └── ImportLineError(line, import_name, committed)  a bulk-import line that cannot be written
    │   ├── ImportStateError(import_name, done)  the source or another process disagrees with an import's progress
    │   └── LimitExceeded(what, limit, setting)  input above a documented size limit
    ├── NotFoundError               something named does not exist in this space
    │   ├── ClaimNotFound(claim_id)
    │   ├── EpisodeNotFound(episode_id)
    │   ├── DisputeNotFound(dispute_id)
    │   ├── UnknownKey(key)             no fact with that key (``bg.keys.merge`` of an unknown source)
    │   ├── KeySchemaNotFound           the space has no key schema (``bg.keys.drop_schema``)
    │   ├── AuditNotFound(audit_id)
    │   ├── FrameworkNotFound(name)
    │   ├── RuleNotFound(name)
    │   ├── NothingToShow(what, params, space)   a curated question / HTML view found nothing
    │   └── QueryNotFound(name)
    ├── DatabaseError               Neo4j said no (translated in one place: ``driver.translate``)
    │   ├── DatabaseUnavailable(uri)        cannot reach the server
    │   ├── AuthenticationFailed(uri, user) wrong user or password
    │   ├── AuthenticationLocked(uri, user) Neo4j locked the user after failed logins (by anyone)
    │   ├── ConstraintViolation             a uniqueness constraint refused the write
    │   └── SchemaError                     migrations missing / indexes not ONLINE / drift
    ├── RegistryError               a cypher/ file is malformed (header, params, mode)
    ├── ServerError                 the local Neo4j server (belief-graph server ...)
    │   ├── JavaNotFound
    │   ├── MavenNotFound
    │   ├── PortInUse(port)
    │   ├── ServerStartFailed(log_tail)
    │   ├── ServerNotRunning
    │   └── LLMServerError          the local chat-model server (belief-graph llm install|serve)
    ├── EmbeddingError              the embedding backend failed or is not installed
    ├── LLMError                    a chat model call failed (nothing was written)
    │   ├── LLMUnavailable          no usable model: missing key / package / replay entry, HTTP failure
    │   └── EncodingError(job, raw, errors)  output still invalid after the bounded repair retries
    └── DoctorFailed(checks)        ``doctor`` found at least one failing check

A message names what the caller gave in bounded form: :func:`shown` cuts a long value (a 5-million
character key is shown by its first characters and its length) and :func:`listed` shows a list of
ids or items by its count and its first few (``20,000 unknown evidence id(s): e0, e1, e2, ... (19,997
more)``), so an error message stays one short line whatever the input.

Neo4j driver exceptions never escape the library untranslated: :func:`belief_graph.db.driver.translate`
maps ``neo4j.exceptions.*`` to this tree with ``raise ... from exc`` so the cause stays attached.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "MAX_PROBLEM",
    "MAX_SHOWN",
    "listed",
    "shown",
    "AuthenticationFailed",
    "AuthenticationLocked",
    "BeliefGraphError",
    "ClaimNotFound",
    "ConfigurationError",
    "ConstraintViolation",
    "DatabaseError",
    "DatabaseUnavailable",
    "DerivedKeyConflict",
    "AuditNotFound",
    "DisputeNotFound",
    "DoctorFailed",
    "EmbeddingDimensionError",
    "EmbeddingError",
    "EncodingError",
    "EpisodeNotFound",
    "FormatError",
    "FrameworkNotFound",
    "ImportLineError",
    "ImportStateError",
    "LLMError",
    "LLMServerError",
    "LLMUnavailable",
    "JavaNotFound",
    "LimitExceeded",
    "KeySchemaError",
    "KeySchemaNotFound",
    "KeyTypeConflict",
    "MavenNotFound",
    "MergeDerivedKey",
    "MergeRefused",
    "MergeSameKey",
    "MergeSourceIsAlias",
    "MergeTypeMismatch",
    "NotFoundError",
    "NothingToShow",
    "PortInUse",
    "QueryNotFound",
    "RegistryError",
    "RuleNotFound",
    "SchemaError",
    "TransactionMemoryExceeded",
    "ServerError",
    "ServerNotRunning",
    "ServerStartFailed",
    "UnknownAgent",
    "UnknownKey",
    "ValidationError",
]


MAX_SHOWN = 60
"""Characters of one value an error message shows (:func:`shown`)."""
MAX_PROBLEM = 200
"""Characters of one problem (a sentence) in a list of problems (:func:`listed`)."""


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters; a cut string says its length."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value):,} characters)" if isinstance(value, str) else ""
    return f"{text[:limit]}...{size}"


def in_space(space: str | None) -> str:
    """`` in space 'x'`` for an error message about a named space; nothing when none is named."""
    return f" in space {shown(space)}" if space else ""


def listed(
    items: Iterable[object], what: str | None = None, *, first: int = 3, sep: str = ", ", width: int = MAX_SHOWN
) -> str:
    """The first ``first`` of ``items``, each cut like :func:`shown` (a string without its quotes),
    then how many more; with ``what``, after a count: ``listed(ids, "unknown evidence id(s)")`` is
    ``"20,000 unknown evidence id(s): e0, e1, e2, ... (19,997 more)"``. Every error message that
    names caller-given items or problems formats them with it; ``width``: the characters of one
    item (problems, which are sentences, take ``width=MAX_PROBLEM``)."""
    items = list(items)
    head = [_bare(i, width) for i in items[:first]]
    more = f"{sep}... ({len(items) - first:,} more)" if len(items) > first else ""
    text = sep.join(head) + more
    return f"{len(items):,} {what}: {text}" if what is not None else text


def _bare(item: object, width: int) -> str:
    text = item if isinstance(item, str) else repr(item)
    return text if len(text) <= width else f"{text[:width]}... ({len(text):,} characters)"


class BeliefGraphError(Exception):
    """Base of every error belief_graph raises on purpose."""


class ConfigurationError(BeliefGraphError):
    """Settings could not be built (bad env var, bad value, missing secret)."""


class ValidationError(BeliefGraphError):
    """Bad input to an API call. Nothing was written."""


class EmbeddingDimensionError(ValidationError):
    def __init__(self, expected: int, got: int, where: str = "embedding") -> None:
        self.expected = expected
        self.got = got
        super().__init__(
            f"{where} has dimension {got}, settings say {expected} "
            "(set BELIEF_GRAPH_EMBEDDING__DIMENSION to match the model and re-run `db init`)"
        )


class FormatError(ValidationError):
    """A malformed input file. ``str()`` is ``path:line: message (expected ...)``."""

    def __init__(
        self, message: str, path: str | None = None, line: int | None = None, expected: str | None = None
    ) -> None:
        self.path = path
        self.line = line
        self.expected = expected
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else (f"line {line}: " if line else ""))
        super().__init__(f"{where}{message}" + (f" (expected {expected})" if expected else ""))


class LimitExceeded(ValidationError):
    """Input above a documented size limit (nothing was read further, nothing was written).

    ``what`` names the quantity, ``value`` its size (None when not counted to the end), ``limit``
    the limit and ``setting`` the environment variable that raises it (None for fixed limits);
    ``then`` what else raising it takes (restart the server).
    """

    def __init__(
        self,
        what: str,
        value: int | None,
        limit: int,
        setting: str | None = None,
        path: str | None = None,
        *,
        then: str = "",
    ) -> None:
        self.what = what
        self.value = value
        self.limit = limit
        self.setting = setting
        self.path = path
        size = f"{value:,}" if value is not None else f"more than {limit:,}"
        where = f"{path}: " if path else ""
        hint = f" (raise it with {setting}{', then ' + then if then else ''})" if setting else ""
        super().__init__(f"{where}{what}: {size}, above the limit of {limit:,}{hint}")


class ImportLineError(FormatError):
    """A line of a bulk import that cannot be written (malformed, invalid, or refused by the write
    path). Nothing of its batch was written; ``committed`` lines of the import are, and a rerun of
    the import resumes after them."""

    def __init__(self, message: str, *, line: int, import_name: str, committed: int, path: str | None = None) -> None:
        self.import_name = import_name
        self.committed = committed
        self.reason = message
        super().__init__(
            f"{message} (import {shown(import_name)}: lines 1-{committed} committed, "
            f"nothing of this batch written; fix the line and run the import again to resume)"
            if committed
            else f"{message} (import {shown(import_name)}: nothing written)",
            path=path,
            line=line,
        )


class ImportStateError(ValidationError):
    """A bulk import cannot continue from its recorded progress: the source differs from the lines
    it already committed, or another process is running the same import."""

    def __init__(self, message: str, *, import_name: str, done: int) -> None:
        self.import_name = import_name
        self.done = done
        super().__init__(f"import {shown(import_name)} (lines 1-{done} committed): {message}")


class UnknownAgent(ValidationError):
    def __init__(self, agent: str, space: str | None = None) -> None:
        self.agent = agent
        self.space = space
        super().__init__(
            f"unknown agent {shown(agent)}{in_space(space)}: register it first (bg.beliefs.add_agent / `belief-graph agents add`)"
        )


class DerivedKeyConflict(ValidationError):
    """A direct write (``assert_claim``, ``derive``) to a key that an active rule derives."""

    def __init__(self, key: str, rule: str, space: str | None = None) -> None:
        self.key = key
        self.rule = rule
        self.space = space
        super().__init__(
            f"fact {shown(key)} is derived by rule {shown(rule)}: change its premises, or remove or change the rule "
            "(a rule with direct_writes: dispute parks such a write as a dispute instead)"
        )


class MergeRefused(ValidationError):
    """``bg.keys.merge(source, into)`` refused: nothing was written."""

    def __init__(self, source: str, into: str, message: str) -> None:
        self.source = source
        self.into = into
        super().__init__(message)


class MergeSameKey(MergeRefused):
    def __init__(self, source: str, into: str) -> None:
        what = "is" if source == into else f"resolves to {shown(into)}, which is"
        super().__init__(
            source, into, f"cannot merge {shown(source)} into itself: the target {what} the source; name another key"
        )


class MergeSourceIsAlias(MergeRefused):
    def __init__(self, source: str, into: str, target: str) -> None:
        self.target = target
        super().__init__(
            source,
            into,
            f"{shown(source)} was already merged into {shown(target)} and holds no versions: merge {shown(target)} instead",
        )


class MergeDerivedKey(MergeRefused):
    def __init__(self, source: str, into: str, key: str, rule: str) -> None:
        self.key = key
        self.rule = rule
        super().__init__(
            source,
            into,
            f"fact {shown(key)} is derived by rule {shown(rule)}: remove or change the rule before merging its key",
        )


class MergeTypeMismatch(MergeRefused):
    def __init__(self, source: str, into: str, source_type: str, into_type: str) -> None:
        self.source_type = source_type
        self.into_type = into_type
        super().__init__(
            source,
            into,
            f"{shown(source)} holds {source_type} values and {shown(into)} {into_type} values: "
            "only facts of one value type merge; write the values again under one key instead",
        )


class KeySchemaError(ValidationError):
    """A key schema that cannot be stored (nothing was written)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(
            f"invalid key schema: {listed(self.problems, 'problem(s)', sep='; ', width=MAX_PROBLEM)}; fix the schema and declare it again"
        )


class KeyTypeConflict(ValidationError):
    """A declared key type differs from the type of the values the fact already holds."""

    def __init__(self, key: str, declared: str, stored: str) -> None:
        self.key = key
        self.declared = declared
        self.stored = stored
        super().__init__(
            f"key {shown(key)} is declared {declared} but already holds {stored} values: "
            f"declare it {stored}, or merge or rename the fact first"
        )


class NotFoundError(BeliefGraphError):
    """Something named does not exist in this memory space."""


class ClaimNotFound(NotFoundError):
    def __init__(self, claim_id: str, space: str | None = None) -> None:
        self.claim_id = claim_id
        self.space = space
        super().__init__(f"no claim with id {shown(claim_id)}{in_space(space)}")


class EpisodeNotFound(NotFoundError):
    def __init__(self, episode_id: str, space: str | None = None) -> None:
        self.episode_id = episode_id
        self.space = space
        super().__init__(f"no episode with id {shown(episode_id)}{in_space(space)}")


class DisputeNotFound(NotFoundError):
    def __init__(self, dispute_id: str, space: str | None = None) -> None:
        self.dispute_id = dispute_id
        self.space = space
        super().__init__(f"no dispute with id {shown(dispute_id)}{in_space(space)}")


class UnknownKey(NotFoundError):
    def __init__(self, key: str, space: str | None = None) -> None:
        self.key = key
        self.space = space
        super().__init__(
            f"no fact with key {shown(key)}{in_space(space)}: check the key with `belief-graph memory keys`"
        )


class KeySchemaNotFound(NotFoundError):
    def __init__(self, space: str | None = None) -> None:
        self.space = space
        where = f" space {shown(space)}" if space else " this space"
        super().__init__(f"{where.strip().capitalize()} has no key schema: declare one with `memory schema set FILE`")


class AuditNotFound(NotFoundError):
    def __init__(self, audit_id: str, space: str | None = None) -> None:
        self.audit_id = audit_id
        self.space = space
        super().__init__(f"no audit with id {shown(audit_id)}{in_space(space)}")


class FrameworkNotFound(NotFoundError):
    def __init__(self, name: str, space: str | None = None) -> None:
        self.name = name
        self.space = space
        super().__init__(f"no argumentation framework named {shown(name)}{in_space(space)}")


class RuleNotFound(NotFoundError):
    def __init__(self, name: str, space: str | None = None) -> None:
        self.name = name
        self.space = space
        super().__init__(f"no active derivation rule named {shown(name)}{in_space(space)}")


class NothingToShow(NotFoundError):
    """A curated question or view found nothing (an unknown key, id or name in this space)."""

    def __init__(self, what: str, params: dict[str, object], space: str) -> None:
        self.what = what
        self.params = params
        self.space = space
        given = ", ".join(f"{k}={shown(v)}" for k, v in params.items() if k != "limit")
        super().__init__(f"nothing to show for {what} ({given}) in space {shown(space)}")


class QueryNotFound(NotFoundError):
    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"no query named {shown(name)} in the registry (see cypher/)")


class DatabaseError(BeliefGraphError):
    """Neo4j refused or failed an operation."""


class DatabaseUnavailable(DatabaseError):
    def __init__(self, uri: str, detail: str = "") -> None:
        self.uri = uri
        tail = f": {detail}" if detail else ""
        super().__init__(
            f"cannot reach Neo4j at {uri}{tail} "
            "(is it running? `belief-graph server start`, or set BELIEF_GRAPH_NEO4J__URI)"
        )


class AuthenticationFailed(DatabaseError):
    def __init__(self, uri: str, user: str, hint: str | None = None) -> None:
        self.uri = uri
        self.user = user
        super().__init__(
            f"Neo4j at {uri} refused user {shown(user)}: wrong user or password "
            "(set BELIEF_GRAPH_NEO4J__USER / BELIEF_GRAPH_NEO4J__PASSWORD" + (f"; {hint}" if hint else "") + ")"
        )


class AuthenticationLocked(DatabaseError):
    """Neo4j refuses every login of ``user`` for a while (``dbms.security.auth_lock_time``, 5 s by
    default) after ``dbms.security.auth_max_failed_attempts`` failed logins in a row, which any
    process that reaches the port can send without knowing the password. The local server turns
    this lockout off; a server started with an older ``neo4j.conf`` or another server has it on."""

    def __init__(self, uri: str, user: str) -> None:
        self.uri = uri
        self.user = user
        super().__init__(
            f"Neo4j at {uri} refuses user {user!r} for a few seconds after too many failed logins, "
            "wherever they came from (Neo4j's lockout; the password was not checked): retry shortly; "
            "a local server started by `belief-graph server start` has no lockout once restarted "
            "(`belief-graph server stop`, then `start`)"
        )


class ConstraintViolation(DatabaseError):
    """A uniqueness constraint refused the write (the transaction was rolled back)."""


class TransactionMemoryExceeded(DatabaseError):
    """One transaction needed more memory than the server allows (``db.memory.transaction.max`` for
    one transaction, ``dbms.memory.transaction.total.max`` for all together, 70% of the heap by
    default); the server rolled it back."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(
            f"the transaction needed more memory than the server allows ({detail}); it was rolled back "
            "and nothing changed: do less per transaction (a smaller batch) or give transactions more room "
            "(the local server: BELIEF_GRAPH_SERVER__HEAP, BELIEF_GRAPH_SERVER__TRANSACTION_MAX)"
        )


class SchemaError(DatabaseError):
    """The schema is missing, drifted, or an index is not ONLINE."""

    def __init__(self, message: str, problems: Sequence[str] = ()) -> None:
        self.problems = list(problems)
        super().__init__(message)


class RegistryError(BeliefGraphError):
    """A cypher/ file is malformed: header, params, or mode."""

    def __init__(self, message: str, path: str | None = None) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class ServerError(BeliefGraphError):
    """The local Neo4j server could not be installed, started, or stopped."""


class JavaNotFound(ServerError):
    def __init__(self, detail: str = "") -> None:
        super().__init__(
            "Java 17 or newer was not found "
            "(install it, e.g. `apt-get install openjdk-17-jre-headless`, or set JAVA_HOME)"
            + (f": {detail}" if detail else "")
        )


class MavenNotFound(ServerError):
    def __init__(self) -> None:
        super().__init__(
            "Maven (`mvn`) was not found; it is needed once to fetch Neo4j from Maven Central "
            "(install it, e.g. `apt-get install maven`)"
        )


class PortInUse(ServerError):
    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.port = port
        self.host = host
        super().__init__(
            f"port {host}:{port} is already in use by another process "
            "(stop it, or choose another port with BELIEF_GRAPH_SERVER__BOLT_PORT)"
        )


class ServerStartFailed(ServerError):
    def __init__(self, reason: str, log_tail: str = "") -> None:
        self.reason = reason
        self.log_tail = log_tail
        msg = f"Neo4j did not start: {reason}"
        if log_tail:
            msg += "\n--- last lines of the server log ---\n" + log_tail
        super().__init__(msg)


class ServerNotRunning(ServerError):
    def __init__(self, detail: str = "") -> None:
        super().__init__("the local Neo4j server is not running" + (f" ({detail})" if detail else ""))


class LLMServerError(ServerError):
    """The local chat-model server (``belief-graph llm install|serve|stop``) could not be built,
    started or stopped; the message says why and what to do (its log tail when it crashed)."""


class EmbeddingError(BeliefGraphError):
    """The embedding backend failed or is not installed."""


class LLMError(BeliefGraphError):
    """A chat model call failed. Nothing derived from it was written."""


class LLMUnavailable(LLMError):
    """No usable chat model: missing API key or package, no replay entry, or the endpoint failed."""


class EncodingError(LLMError):
    """The model's output stayed invalid (malformed JSON, schema violation, refusal, empty,
    timeout) after the bounded repair retries. ``raw`` holds the last raw output."""

    def __init__(
        self, job: str, reason: str, raw: str | None = None, errors: Sequence[str] = (), attempts: int = 0
    ) -> None:
        self.job = job
        self.reason = reason
        self.raw = raw
        self.errors = list(errors)
        self.attempts = attempts
        super().__init__(f"LLM job {shown(job)} gave no valid output after {attempts} attempt(s): {reason}")


class DoctorFailed(BeliefGraphError):
    def __init__(self, failed: Sequence[Any]) -> None:
        self.failed = list(failed)
        names = ", ".join(str(getattr(c, "name", c)) for c in self.failed)
        super().__init__(f"doctor: {len(self.failed)} check(s) failed: {names}")
