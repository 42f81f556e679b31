"""belief_graph where agents are built: one module per framework, each importing its framework only
when it is used (an optional extra of the package; importing this package imports no framework),
with an error naming the extra to install when the framework is missing. docs/integrations.md shows
each at work.

``integrations.operations``     the memory operations agents call as tools: typed, framework-neutral
``integrations.langchain``      ``memory_tools(bg, agent=...)``: LangChain ``StructuredTool``s over them
``integrations.openai_agents``  ``memory_function_tools(bg, agent=...)``: OpenAI Agents SDK ``FunctionTool``s
``integrations.langgraph``      ``BeliefGraphStore``: LangGraph's ``BaseStore`` over one memory space
"""
