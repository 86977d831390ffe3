"""The chaos soak of the whole stack (`just soak`); docs/soak.md."""
