DROP TABLE maps.mastery;
