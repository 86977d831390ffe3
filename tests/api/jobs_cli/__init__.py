"""The operator CLI, run as a process."""
