"""The schema's migration plan as production code: the Sqitch plan reader (`plan`) and the one
place that finds the plan's directory (`location`). `genji_api.migrate` applies it."""
