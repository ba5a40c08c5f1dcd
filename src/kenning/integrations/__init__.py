"""Front ends for agent frameworks, over the facade: LangGraph's ``BaseStore`` and LangChain tools.

Each needs its optional extra (``pip install -e '.[langgraph]'``) and is imported only when used.
"""
