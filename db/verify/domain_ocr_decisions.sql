SELECT completion_id, outcome, extracted, decided_at FROM completions.ocr_decisions WHERE false;
SELECT tournament_completion_id, outcome, extracted, decided_at
FROM tournaments.ocr_decisions WHERE false;
