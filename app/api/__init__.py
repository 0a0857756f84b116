"""The HTTP and websocket API: thin routes over the game service."""
