"""Services: the game service is the only orchestrator of loads, engine calls, appends and publishes."""
