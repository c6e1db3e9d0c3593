"""The commands, one module per group; each parses, calls the library and renders."""
