"""``gametape serve``: the web front-end. A page per seat, one for the host and one for
spectators, built on the server from the same use cases as the CLI (gametape.usecases)."""
