"""Key hints in the app's language.

Bindings are declared with a catalogue key as description (``"key.rules"``, also for a
group of keys shown together); each node gets its own translated copy when mounted or
when the language changes, so two apps in different languages never share a description.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode


def translate_bindings(node: DOMNode, t: Callable[..., str]) -> None:
    """Give ``node`` its class bindings with descriptions translated by ``t``."""
    merged = type(node)._merged_bindings
    if merged is None:
        return
    node._bindings = BindingsMap(_translated(binding, t) for _, binding in merged)
    node.refresh_bindings()


def _translated(binding: Binding, t: Callable[..., str]) -> Binding:
    """``binding`` with its description, and its group's (keys shown together), translated."""
    if binding.description:
        binding = replace(binding, description=t(binding.description))
    if binding.group is not None and binding.group.description:
        binding = replace(binding, group=replace(binding.group,
                                                 description=t(binding.group.description)))
    return binding
