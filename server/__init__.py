"""Parlor's server side, by job (docs/architecture.md): wire, store, tables, net, reports, runs,
commands, each importing only the ones before it; server/cli.py assembles the `parlor` command."""
