"""The server and what stands in front of every route: the guard, limits, sign-in, tokens, the scripted API, the
services the pages share, settings, and the child processes that keep heavy work off the pages."""
