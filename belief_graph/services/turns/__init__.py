"""Reading a turn of conversation (pure functions, no model, no database): what it asserts and
whether an extracted fact is grounded in it.

:mod:`.clauses` cuts a turn into clauses with their moods (with the word classes of
:mod:`.clause_words` and the presupposed spans of :mod:`.clause_spans`); :mod:`.stems` compares
words by light stems; :mod:`.value_forms` reads a value in the forms a model writes it;
:mod:`.extraction_grounding` judges one extracted fact against the turn (DESIGN.md §2,
"Grounding"), and :mod:`.fact_grounding` adds what memory holds and the model's own statement.
``services/remember.py``, ``services/revisit.py``, ``services/identity.py`` and
``services/answers.py`` use them.
"""
