"""Issue 45, item 3: how Discord's requests are counted for /metrics: by route template, counted or free, once each."""

import aiohttp
from aiohttp import web
from discord.http import Route
from prometheus_client.parser import text_string_to_metric_families

from cogs.runtime.metrics import Metrics, carries_token, free_template


def requests_by_route(metrics: Metrics) -> dict[tuple[str, str], float]:
    return {
        (sample.labels["route"], sample.labels["counted"]): sample.value
        for family in text_string_to_metric_families(metrics.text().decode())
        for sample in family.samples
        if sample.name == "cardbot_discord_requests_total"
    }


def test_interaction_webhook_paths_become_discord_py_templates_and_other_paths_are_not_free() -> None:
    assert free_template("POST", "/api/v10/interactions/123/tok-en/callback") == (
        "POST /interactions/{webhook_id}/{webhook_token}/callback"
    )
    assert free_template("PATCH", "/api/v10/webhooks/9/tok/messages/@original") == (
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert free_template("DELETE", "/proxy/api/v10/webhooks/9/tok/messages/77") == (
        "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    )
    assert free_template("GET", "/api/v10/webhooks/9") is None  # the bot's own token: counted by the client
    assert free_template("POST", "/api/v10/channels/1/messages") is None


async def test_the_sessions_trace_counts_interaction_answers_as_free_and_their_errors_by_status() -> None:
    async def answer(request: web.Request) -> web.Response:
        return web.Response(status=404 if "gone" in request.path else 204)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    metrics = Metrics()
    trace = aiohttp.TraceConfig()
    metrics.watch_trace(trace)
    try:
        async with aiohttp.ClientSession(trace_configs=[trace]) as session:
            base = f"http://127.0.0.1:{port}/api/v10"
            for path in ("/interactions/1/a/callback", "/interactions/2/b/callback", "/webhooks/3/gone/messages/4"):
                async with session.post(base + path):
                    pass
            async with session.post(base + "/channels/5/messages"):  # the client's request counts this one
                pass
    finally:
        await runner.cleanup()
    assert requests_by_route(metrics) == {
        ("POST /interactions/{webhook_id}/{webhook_token}/callback", "false"): 2,
        ("POST /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", "false"): 1,
    }
    errors = [
        sample
        for family in text_string_to_metric_families(metrics.text().decode())
        for sample in family.samples
        if sample.name == "cardbot_discord_errors_total"
    ]
    assert [(sample.labels, sample.value) for sample in errors] == [({"code": "0", "status": "404"}, 1)]


def test_requests_through_a_token_are_left_to_the_trace_and_the_bots_own_are_not() -> None:
    assert carries_token(Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1, webhook_token="t"))
    assert not carries_token(Route("GET", "/webhooks/{webhook_id}", webhook_id=1))
    assert not carries_token(Route("POST", "/channels/{channel_id}/messages", channel_id=1))
