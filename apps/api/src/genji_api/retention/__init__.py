"""The API worker's scheduled queue maintenance: daily log pruning with summaries."""
