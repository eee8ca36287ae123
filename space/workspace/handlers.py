"""Event handlers as module-level functions over a state object, bound in a form Gradio reads.

A tab's handlers take their state (the services, what the page shares) as the first parameter, so a test calls
them without building a page; ``bound(handler, state)`` gives Gradio a plain function of the other parameters.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from leaderboard import Leaderboard
    from space.web.auth import Auth
    from space.web.services import Services

Outputs = TypeVar("Outputs")


class OnServices:
    """A tab's state over the app's services (its dataclass holds ``services``), with the two it asks for most."""

    services: Services

    @property
    def service(self) -> Leaderboard:
        return self.services.leaderboard

    @property
    def auth(self) -> Auth:
        return self.services.auth


def bound(handler: Callable[..., Outputs], state: object) -> Callable[..., Outputs]:
    """``handler`` with ``state`` given, as Gradio should see it: the handler's name and docstring, and its other
    parameters with their annotations resolved. Gradio injects ``gr.OAuthProfile`` (and ``gr.Request``,
    ``gr.Progress``) by reading ``typing.get_type_hints`` of a plain function; of a ``functools.partial`` or a
    lambda it reads none, and the handler would get ``None``: the user seen as signed out. The name matters too:
    an event without ``api_name`` is named after its handler."""
    signature = inspect.signature(handler)
    hints = typing.get_type_hints(handler)
    parameters = list(signature.parameters.values())[1:]

    def call(*args: Any, **kwargs: Any) -> Outputs:
        return handler(state, *args, **kwargs)

    call.__name__, call.__qualname__, call.__doc__ = handler.__name__, handler.__qualname__, handler.__doc__
    call.__annotations__ = {p.name: hints[p.name] for p in parameters if p.name in hints}
    unsaid = inspect.Signature.empty  # no return annotation, as nested handlers had: Gradio sees what it saw
    call.__signature__ = signature.replace(parameters=parameters, return_annotation=unsaid)  # type: ignore[attr-defined]
    return call
