"""Parlor's asyncio websocket server: protocol, tables, seats, timers, store, ratings."""
