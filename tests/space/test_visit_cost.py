"""The cheap per-visit state (space/visit_cost.py) answers exactly as Gradio's own, and is what Gradio creates."""

from __future__ import annotations

import dataclasses
import gc
import inspect
import weakref

import gradio
import gradio.blocks
import gradio.state_holder
import pytest

from app import build_demo
from leaderboard import Settings
from space import visit_cost
from space.services import Services
from space.settings import SpaceSettings


@pytest.fixture
def demo(tmp_path, demo_dataset, demo_public, key_cache) -> gradio.Blocks:
    env = {"LEADERBOARD_HOME": str(tmp_path / "home"), "ANSWER_KEY_DATASET": str(demo_dataset),
           "PUBLIC_DATASET": str(demo_public)}  # fmt: skip
    settings = dataclasses.replace(Settings.from_env(env), answer_key_cache=key_cache)
    return build_demo(settings, Services.create(settings, SpaceSettings()))


def test_the_gradio_version_is_the_one_the_replacement_was_written_for():
    # LightSessionState copies Gradio 6.31's SessionState.__init__: a new Gradio needs a new look.
    assert gradio.__version__ == "6.31.0"
    assert "inspect.signature(cls.__init__)" in inspect.getsource(gradio.blocks.Block.get_config)


def test_remembered_signatures_give_every_component_the_same_configuration(demo, monkeypatch):
    monkeypatch.setattr(gradio.blocks, "inspect", inspect)
    plain = {key: block.get_config() for key, block in demo.blocks.items() if hasattr(block, "get_config")}
    monkeypatch.setattr(gradio.blocks, "inspect", visit_cost._RememberedSignatures())
    remembered = {key: block.get_config() for key, block in demo.blocks.items() if hasattr(block, "get_config")}
    assert remembered == plain and len(plain) > 100


def test_a_light_visit_has_gradios_attributes_and_the_same_deep_link_components(demo):
    gradios, light = visit_cost.SessionState(demo), visit_cost.LightSessionState(demo)
    assert set(vars(light)) == set(vars(gradios))
    assert dict.__len__(light.config_values) == 0  # nothing computed before it is needed
    assert list(light.components) == list(gradios.components)


def test_a_light_visit_keeps_a_changed_value_as_gradio_does(demo):
    key = next(k for k, b in demo.blocks.items() if getattr(b, "elem_id", None) == "board-search")
    gradios, light = visit_cost.SessionState(demo), visit_cost.LightSessionState(demo)
    for state in (gradios, light):
        state._update_value_in_config(key, "7B")
    assert light.config_values[key] == gradios.config_values[key]
    assert light.config_values[key]["props"]["value"] == "7B"
    assert list(light.components) == list(gradios.components)


def test_cheap_visits_makes_gradio_create_light_visits(demo, monkeypatch):
    monkeypatch.setattr(gradio.state_holder, "SessionState", gradio.state_holder.SessionState)
    monkeypatch.setattr(gradio.blocks, "inspect", gradio.blocks.inspect)
    visit_cost.cheap_visits()
    holder = gradio.state_holder.StateHolder()
    holder.set_blocks(demo)
    assert isinstance(holder["visit-1"], visit_cost.LightSessionState)
    assert isinstance(gradio.blocks.inspect, visit_cost._RememberedSignatures)


def _drive(state, demo) -> None:
    """What events do to a visit's state (gradio/blocks.py): set a component, replace one and rebuild its
    entry, write values before and after an entry is built, set a gr.State."""
    search = next(k for k, b in demo.blocks.items() if getattr(b, "elem_id", None) == "board-search")
    table = next(k for k, b in demo.blocks.items() if getattr(b, "elem_id", None) == "leaderboard")
    stateful = next(k for k, b in demo.blocks.items() if isinstance(b, gradio.State))
    state._update_value_in_config(search, "7B")
    state[table] = demo.blocks[table]
    state._update_value_in_config(table, "<table>first</table>")
    state._update_value_in_config(table, "<table>second</table>")
    state[search] = gradio.Textbox(value="replaced", elem_id="board-search", render=False)
    state._update_config(search)
    state[stateful] = {"kept": 1}
    state._update_value_in_config(search, "after the replacement")


def test_a_light_visit_ends_with_the_same_entries_as_gradios_after_an_events_calls(demo):
    gradios, light = visit_cost.SessionState(demo), visit_cost.LightSessionState(demo)
    _drive(gradios, demo)
    _drive(light, demo)
    assert dict.__len__(light.config_values) == 0  # every entry still waits to be read
    assert list(light.components) == list(gradios.components)
    assert light.state_data == gradios.state_data


def test_an_entry_read_alone_is_gradios(demo):
    gradios, light = visit_cost.SessionState(demo), visit_cost.LightSessionState(demo)
    _drive(gradios, demo)
    _drive(light, demo)
    search = next(k for k, b in demo.blocks.items() if getattr(b, "elem_id", None) == "board-search")
    assert light.config_values[search] == gradios.config_values[search]
    assert light.config_values[search]["props"]["value"] == "after the replacement"
    assert dict.__len__(light.config_values) == 1
    with pytest.raises(KeyError):
        light._update_value_in_config(10**9, "no such component")


def test_a_visit_is_freed_as_soon_as_it_is_dropped_without_a_garbage_collection(demo):
    # A visit in a reference cycle waits for a full collection: under 50 viewers ~65,000 objects each 5 s,
    # and each full collection paused every request 60-100 ms (benchmarks/load_test.py --gc-probe).
    gc.collect()
    gc.disable()
    try:
        light = visit_cost.LightSessionState(demo)
        _drive(light, demo)
        list(light.components)
        gone = weakref.ref(light)
        del light
        assert gone() is None
    finally:
        gc.enable()
