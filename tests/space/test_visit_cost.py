"""The cheap per-visit state (space/visit_cost.py) answers exactly as Gradio's own, and is what Gradio creates."""

from __future__ import annotations

import dataclasses
import inspect

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
