"""The command line: parses arguments, calls the packages below, renders. Nothing else."""
