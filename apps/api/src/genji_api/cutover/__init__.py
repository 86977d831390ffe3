"""Import of the messages left in the retired broker into durable jobs.

Run as `python -m genji_api.cutover` (docs/cutover.md).
"""
