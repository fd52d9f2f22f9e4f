"""Workflow Builder's custom step "Data-parallel throughput": the `function_executed` events Slack sends, through
the real server, complete with the figures or fail with one sentence naming the input, in the reader's language."""

from __future__ import annotations

import json
import time

import pytest
import yaml

from bot.reader.numbers import resolve_locale
from bot.slack.ids import THROUGHPUT_STEP
from bot.slack.steps import INPUTS, READER_INPUT, outcome_of
from slack_client import ROOT, send_event

STEP_EVENT = "function_executed"  # Slack's event for a step run by a workflow (Bolt's `app.function` answers it)
OUTPUTS = ("ideal_throughput", "actual_throughput", "speedup", "efficiency", "summary")  # as the manifests name them

USER_LOCALES = {"UEN": "en-US", "UDE": "de-DE", "UJA": "ja-JP"}
FUNCTION_TOKEN = "xwfp-1-step-token"  # the step's own token, which Slack sends in the event


def function_executed(inputs: dict[str, object], execution: str) -> dict[str, object]:
    """The inner event Slack sends when a workflow reaches the step (docs.slack.dev, function_executed)."""
    manifest = yaml.safe_load((ROOT / "manifest.yaml").read_text())["functions"][THROUGHPUT_STEP]
    parameters = [{"name": name, **spec} for name, spec in manifest["input_parameters"].items()]
    return {
        "type": STEP_EVENT,
        "function": {"id": "Fn0DPSCALE", "callback_id": THROUGHPUT_STEP, "title": manifest["title"],
                     "description": manifest["description"], "type": "app", "input_parameters": parameters,
                     "output_parameters": [{"name": n, **s} for n, s in manifest["output_parameters"].items()],
                     "app_id": "A1", "date_created": 1700000000, "date_updated": 1700000000, "date_deleted": 0},
        "inputs": inputs, "function_execution_id": execution, "workflow_execution_id": f"Wx{execution}",
        "event_ts": f"{time.time():.6f}", "bot_access_token": FUNCTION_TOKEN,
    }


def run(server, fake, inputs, execution, event_id=None):
    """Send the step's event; the outcome Slack was given (its method and parameters) and the HTTP status."""
    response = send_event(server, function_executed(inputs, execution), event_id or f"Ev{execution}")
    calls = [c for c in fake.calls if c.method.startswith("functions.complete")
             and c.params.get("function_execution_id") == execution]
    return response.status, calls


@pytest.mark.parametrize(("locale", "inputs", "expected"), [
    ("en-US", {"devices": "64", "throughput": "2000", "efficiency": "90%"},
     {"ideal_throughput": 128000, "actual_throughput": 115200, "speedup": 57.6, "efficiency": 0.9,
      "summary": "64 devices × 2,000 samples/s at 90% efficiency: 115,200 samples/s actual, 57.6× speedup"}),
    ("de-DE", {"devices": "64", "throughput": "2.000", "actual": "115.200"},  # the efficiency solved
     {"ideal_throughput": 128000, "actual_throughput": 115200, "speedup": 57.6, "efficiency": 0.9}),
])
def test_a_steps_inputs_give_its_figures_read_in_the_readers_format(locale, inputs, expected):
    outcome, outputs = outcome_of(inputs, resolve_locale(locale))
    assert outcome == "ok" and set(outputs) == set(OUTPUTS)
    assert {key: outputs[key] for key in expected} == expected


@pytest.mark.parametrize(("locale", "inputs", "message"), [
    ("en-US", {"devices": "64", "throughput": "2.000", "efficiency": "90%"},
     "Per-device throughput (samples/s): 2.000 is ambiguous. Write 2 or 2000"),
    ("en-US", {"devices": "64", "throughput": "2000", "efficiency": "150%"},
     "Scaling efficiency: The scaling efficiency must be between 0.01% and 100%. You wrote 150%."),
    ("en-US", {"devices": "sixty", "throughput": "2000", "efficiency": "90%"},
     "Devices: sixty is not a number I can read."),
    ("en-US", {"devices": "64", "throughput": "2000", "efficiency": "90%", "actual": "1000"},
     "All four values are given; leave one out"),
    ("de-DE", {"devices": "64", "throughput": "2000"}, "Gib drei beliebige der vier Werte an"),
    ("fr-FR", {"devices": "64", "throughput": "abc", "efficiency": "90 %"}, "Débit par accélérateur"),
])
def test_input_dpscale_would_refuse_or_ask_about_fails_naming_it(locale, inputs, message):
    outcome, detail = outcome_of(inputs, resolve_locale(locale))
    assert outcome == "invalid" and isinstance(detail, str) and message in detail, detail
    assert "`" not in detail and "Traceback" not in detail


def test_every_manifest_declares_the_step_as_the_listener_reads_it():
    listed = {*INPUTS.values(), READER_INPUT}
    for name in ("manifest.yaml", "manifest-distribution.yaml", "manifest.json"):
        text = (ROOT / name).read_text()
        manifest = json.loads(text) if name.endswith(".json") else yaml.safe_load(text)
        step = manifest["functions"][THROUGHPUT_STEP]
        assert set(step["input_parameters"]) == listed and set(step["output_parameters"]) == set(OUTPUTS)
        assert [n for n, p in step["input_parameters"].items() if p["is_required"]] == ["devices", "throughput"]
        settings = manifest["settings"]
        assert settings["org_deploy_enabled"] is True and settings["function_runtime"] == "remote"
        assert STEP_EVENT in settings["event_subscriptions"]["bot_events"]


@pytest.mark.e2e
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_step_completes_with_its_outputs_using_the_steps_own_token(server, fake):
    status, calls = run(server, fake, {"devices": "64", "throughput": "2000", "efficiency": "90%"}, "Fx1")
    assert status == 200 and [c.method for c in calls] == ["functions.completeSuccess"]
    assert calls[0].headers["Authorization"] == f"Bearer {FUNCTION_TOKEN}"
    outputs = json.loads(calls[0].params["outputs"])  # the client sends them form-encoded, as JSON text
    assert outputs["actual_throughput"] == 115200 and outputs["speedup"] == 57.6 and outputs["efficiency"] == 0.9
    assert outputs["summary"].endswith("115,200 samples/s actual, 57.6× speedup")


@pytest.mark.e2e
def test_the_summary_and_the_reading_follow_the_person_the_step_names(server, fake):
    status, calls = run(server, fake, {"devices": "64", "throughput": "2.000", "efficiency": "90 %",
                                       READER_INPUT: "UDE"}, "Fx2")
    assert status == 200 and json.loads(calls[0].params["outputs"])["summary"] == (
        "64 Geräte × 2.000 Samples/s bei 90\u00a0% Effizienz: tatsächlich 115.200 Samples/s, Speedup 57,6×")


@pytest.mark.e2e
def test_an_ambiguous_number_fails_the_step_naming_the_input_in_the_readers_language(server, fake):
    status, calls = run(server, fake, {"devices": "64", "throughput": "2.000", "efficiency": "90%",
                                       READER_INPUT: "UJA"}, "Fx3")
    assert status == 200 and [c.method for c in calls] == ["functions.completeError"]
    error = calls[0].params["error"]
    assert error.startswith("デバイスあたりのスループット") and "2.000" in error and "`" not in error, error


@pytest.mark.e2e
def test_an_outcome_slack_could_not_take_leaves_the_event_to_its_redelivery(server, fake):
    inputs = {"devices": "8", "throughput": "1000", "efficiency": "80%"}
    fake.behaviour["functions.completeSuccess"] = "error"  # Slack answers HTTP 500
    try:
        first, _ = run(server, fake, inputs, "Fx4", "EvFx4")
    finally:
        fake.behaviour.pop("functions.completeSuccess")
    again, _ = run(server, fake, inputs, "Fx4", "EvFx4")  # Slack delivers the unacknowledged event again
    twice, calls = run(server, fake, inputs, "Fx4", "EvFx4")  # once more: Slack refuses a second outcome
    assert (first, again, twice) == (503, 200, 200)
    assert [c.answer for c in calls][1:] == [{"ok": True}, {"ok": False, "error": "execution_not_in_running_state"}]
