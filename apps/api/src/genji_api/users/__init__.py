"""Users as other features read them: existence and the display name."""
