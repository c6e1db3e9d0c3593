"""What a front-end does with the library: record moves, check logs, simulate, import.

The CLI, a library user and any future front-end share these; none holds a use case of its own.
"""
