"""The web face: `whispers serve`, an ASGI application (Starlette) over the same application layer as the CLI."""
