"""belief_graph inside agent frameworks: ``langchain`` (memory as LangChain tools), ``openai_agents``
(memory as OpenAI Agents SDK function tools), both over the framework-neutral ``operations``.

Each framework module imports its framework only when called (an optional extra of the package);
importing this package imports no framework. docs/integrations.md shows each at work.
"""
