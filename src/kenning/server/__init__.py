"""Kenning's network front ends on the facade: REST API, MCP endpoint, the user's memory page.

    from kenning.server import create_app
    app = create_app(Settings())          # serve with uvicorn, or `kenning serve`
"""

from kenning.server.app import create_app

__all__ = ["create_app"]
