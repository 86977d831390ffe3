DROP TABLE tournaments.ocr_decisions;
DROP TABLE completions.ocr_decisions;
