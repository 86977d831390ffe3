"""HTTP plumbing shared by every route: error bodies, authentication, request types."""
