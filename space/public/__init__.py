"""The public pages as plain server-rendered routes: the board, an entry, compare, About, the embed.

No gradio here. Every view is an address with a query string and works with JavaScript off: sorting is a
header link, the filters and the search a GET form. Page bodies are drawn once per results version
(``services.board.snapshot().version``) and view; only the header is drawn per request (``shell.py``).
``routes.routes(services, viewer_of)`` gives the routes; the JSON API is ``api.py``'s.
"""
