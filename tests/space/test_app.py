"""The page is wiring: it builds from settings and services, and hides nothing it should show (or vice versa)."""

from __future__ import annotations

import dataclasses
import os

import gradio as gr
import pytest

from app import build_desk, build_workspace
from leaderboard import Settings, SettingsError
from space.web.server import build_app, private_paths
from space.web.services import Services
from space.web.settings import SpaceSettings

MAINTAINER_ENDPOINTS = {"approve", "reject", "hide", "unhide", "edit", "rescore", "add_reported", "remove_reported"}


@pytest.fixture
def settings(tmp_path, demo_dataset, demo_public, key_cache) -> Settings:
    env = {"LEADERBOARD_HOME": str(tmp_path / "home"), "ANSWER_KEY_DATASET": str(demo_dataset),
           "PUBLIC_DATASET": str(demo_public), "MAINTAINERS": "boss"}  # fmt: skip
    return dataclasses.replace(Settings.from_env(env), answer_key_cache=key_cache)


def build(settings: Settings, space: SpaceSettings) -> gr.Blocks:
    return build_workspace(Services.create(settings, space))


def test_the_signed_in_page_has_its_tabs_and_no_gradio_login(settings):
    demo = build(settings, SpaceSettings())
    labels = {b.label for b in demo.blocks.values() if isinstance(b, gr.Tab)}
    # The board, entries, compare and About are plain pages (space/site/routes.py); the desk is a page of its own.
    assert labels == {"Submit", "My submissions", "Explorer"}
    assert not demo.expects_oauth  # one sign-in for every page: the site's, not a Gradio page's own


def test_the_desk_shows_nothing_until_the_caller_is_known_to_be_a_maintainer(settings):
    desk = build_desk(Services.create(settings, SpaceSettings()))
    (panel,) = [b for b in desk.blocks.values() if getattr(b, "elem_id", None) == "tab-maintainers"]
    assert panel.visible is False  # shown on load to maintainers only
    assert not desk.expects_oauth  # signing in happens on the page; the desk reads the same session


def test_on_a_space_the_site_uses_hugging_face_oauth_at_its_root(settings, monkeypatch):
    import gradio.oauth

    # What Hugging Face sets on a Space with ``hf_oauth: true`` (gradio reads some of it at import).
    monkeypatch.setenv("SYSTEM", "spaces")
    monkeypatch.setenv("SPACE_ID", "navitrace/leaderboard")
    oauth = {
        "OAUTH_CLIENT_ID": "id",
        "OAUTH_CLIENT_SECRET": "secret",
        "OAUTH_SCOPES": "openid profile",
        "OPENID_PROVIDER_URL": "https://huggingface.co",
    }
    for name, value in oauth.items():
        monkeypatch.setattr(gradio.oauth, name, value)
    space = SpaceSettings(space_id="navitrace/leaderboard")
    services = Services.create(settings, space)
    site = build_app(settings, space, services, build_workspace(services), build_desk(services))
    # At the root: the Hub sends the browser back to https://{SPACE_HOST}/login/callback.
    routes = {getattr(r, "path", "") for r in site.routes}
    assert {"/login/huggingface", "/login/callback", "/logout"} <= routes
    assert not {"/local-auth/sign-in", "/local-auth/sign-out"} & routes


def test_maintainer_actions_are_not_in_the_api_docs_and_nothing_is_public_but_reading(settings):
    services = Services.create(settings, SpaceSettings())
    demo, desk = build_workspace(services), build_desk(services)
    names = {fn.api_name: fn.api_visibility for fn in [*demo.fns.values(), *desk.fns.values()]}
    assert MAINTAINER_ENDPOINTS <= set(names)
    assert all(names[n] == "undocumented" for n in MAINTAINER_ENDPOINTS)
    assert not [n for n, v in names.items() if v == "public"]


def test_the_private_folders_are_blocked(settings):
    blocked = private_paths(settings)
    assert str(settings.home.resolve()) in blocked and str(settings.cache_folder.resolve()) in blocked


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"GRADIO_SERVER_PORT": "http"}, "GRADIO_SERVER_PORT='http': expected a port number from 1 to 65535"),
        ({"LOCAL_SIGN_IN": "everyone"}, "LOCAL_SIGN_IN='everyone': expected one of loopback, anyone, off"),
    ],
)
def test_bad_app_settings_name_the_variable_and_the_value(environ, message):
    with pytest.raises(SettingsError) as error:
        SpaceSettings.from_env(environ)
    assert str(error.value) == message


def test_app_settings_defaults_and_space_detection():
    assert SpaceSettings.from_env({}) == SpaceSettings(None, "127.0.0.1", 7860, "loopback")
    space = SpaceSettings.from_env(
        {"SPACE_ID": "org/space", "GRADIO_SERVER_NAME": "0.0.0.0", "GRADIO_SERVER_PORT": "7861"}
    )
    assert space.on_space and (space.server_name, space.server_port) == ("0.0.0.0", 7861)


def test_the_scratch_folder_of_a_dead_app_is_removed_at_start(tmp_path, monkeypatch):
    import subprocess
    import sys

    from space.web.services import SCRATCH_PREFIX, _remove_scratch_of_dead_apps

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f"{SCRATCH_PREFIX}{dead.stdout.strip()}-abc"
    mine = tmp_path / f"{SCRATCH_PREFIX}{os.getpid()}-def"
    left.mkdir(), mine.mkdir()
    _remove_scratch_of_dead_apps()
    assert not left.exists() and mine.exists()
