"""The bots' runtime in a live server: the seats the server plays itself, off the request path.

``runner`` (the ``BotRunner``, a ``TableExtension`` of the game service) plays bot seats, stand-ins for players
disconnected past the grace period and seats whose turn timer ran out, each decision an ordinary command through
``GameService.submit_as``; ``timers`` computes deadlines and stand-ins from stored moments; ``leases`` gives one
process at a time a table's duties; ``recall`` rebuilds a seat's memory of the round from the stored commands;
``models`` holds the rows (``bot_seat``, ``table_clock``, ``duty_lease``); ``settings`` its environment
(``PHASE10_BOT_<NAME>``). The decisions themselves are the pure policies of ``app.bots``, which never import this
package (docs/architecture.md, "Layers").
"""
