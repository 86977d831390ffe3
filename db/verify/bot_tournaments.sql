SELECT verification_message_id FROM tournaments.completions WHERE false;
